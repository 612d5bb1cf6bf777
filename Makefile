# Mediana: `make run` serves the demo, `make test` runs the suite. See README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Two workers: the suite runs in about half the time and stays reliable (each browser module
# has its own server and Chromium per worker). `make test PYTEST_ARGS=` runs it serially.
PYTEST_ARGS ?= -n 2

.PHONY: run deploy-local test lint format worker beat requirements messages compilemessages bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.base: requirements/base.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements/base.txt
	touch $@

$(VENV)/.dev: requirements/dev.txt $(VENV)/.base
	$(BIN)/pip install --quiet -r requirements/dev.txt
	touch $@

$(VENV)/.bench: requirements/bench.txt $(VENV)/.dev
	$(BIN)/pip install --quiet -r requirements/bench.txt
	touch $@

## run: install, migrate, load the demo and serve HTTP + WebSockets on 127.0.0.1:8000 (SITE_URL,
## the links in mailed notices, follows HOST and PORT); the server runs beat's schedule itself
## (with REDIS_URL set, a Celery worker with beat runs beside it instead: bots, clocks, reminders)
run: export SITE_URL ?= http://$(HOST):$(PORT)
run: $(VENV)/.base
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --no-input
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py load_demo --base-url http://$(HOST):$(PORT)
	@if [ -n "$$REDIS_URL" ] && [ "$${CELERY_EAGER:-0}" != 1 ]; then \
		echo "REDIS_URL is set: a Celery worker with beat runs beside the server"; \
		DEBUG=$${DEBUG:-1} $(BIN)/celery -A config worker -Q celery,bots --beat --schedule var/celerybeat-schedule --loglevel=warning & \
		trap "kill $$! 2>/dev/null" EXIT INT TERM; \
	fi; \
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

## deploy-local: the whole deployment on this machine from the repository's files, for a try-out:
## nginx on LISTEN (127.0.0.1:8080) in front of SERVERS uvicorn table servers (2), a worker for
## each queue and one beat (Procfile, run by honcho), on PostgreSQL and Redis (DATABASE_URL,
## REDIS_URL; local defaults). Needs Debian's nginx. docs/deployment.md
## (the table servers on FIRST_PORT and up; DEMO=0: no demo in a new database)
SERVERS ?= 2
LISTEN ?= 127.0.0.1:8080
FIRST_PORT ?= 8001
DEMO ?= 1
deploy-local: $(VENV)/.base
	$(BIN)/python config/deploy/local.py --servers $(SERVERS) --listen $(LISTEN) \
		--first-port $(FIRST_PORT) $(if $(filter 0,$(DEMO)),--no-demo,)

## test: install the dev requirements and run the whole suite
test: $(VENV)/.dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

## lint: ruff lint and format check, then the import contracts (pyproject.toml, [tool.importlinter])
lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## worker: a Celery worker for both queues, the default one and `bots` (needs REDIS_URL;
## without it tasks run inline and bots think in processes beside the server)
worker: $(VENV)/.base
	$(BIN)/celery -A config worker -Q celery,bots --loglevel=info

## beat: the Celery scheduler for the periodic tasks (CELERY_BEAT_SCHEDULE), one per deployment
## with a broker (without one, the server runs the schedule itself)
beat: $(VENV)/.base
	mkdir -p var
	$(BIN)/celery -A config beat --schedule var/celerybeat-schedule --loglevel=info

## requirements: recompile the pinned requirements/*.txt from the short *.in files
requirements: $(VENV)/.dev
	$(BIN)/pip install --quiet uv
	cd requirements && ../$(BIN)/uv pip compile -q --python-version 3.11 base.in -o base.txt
	cd requirements && ../$(BIN)/uv pip compile -q --python-version 3.11 dev.in -o dev.txt
	cd requirements && ../$(BIN)/uv pip compile -q --python-version 3.11 bench.in -o bench.txt

## messages: extract every string to translate into locale/{de,it,ja}: templates and Python (the
## django domain) and static/js (djangojs), then compile them; needs GNU gettext (xgettext, msgfmt).
## Translate the new or changed entries, then `make compilemessages` (docs/translations.md).
LOCALES := -l de -l it -l ja
MESSAGES_IGNORE := --ignore=.venv --ignore=var --ignore=bench --ignore=staticfiles \
	--ignore=test-output --ignore=tests
messages: $(VENV)/.base
	$(BIN)/python manage.py makemessages $(LOCALES) $(MESSAGES_IGNORE) --add-location=file --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs $(LOCALES) $(MESSAGES_IGNORE) --add-location=file --no-obsolete
	$(MAKE) compilemessages

## compilemessages: locale/*/LC_MESSAGES/*.po -> .mo (the .mo files are committed, so a fresh clone
## runs translated without gettext; tests/i18n checks they match the .po files)
compilemessages: $(VENV)/.base
	$(BIN)/python manage.py compilemessages $(LOCALES) $(MESSAGES_IGNORE)

## bench: the self-contained benchmarks of bench/ (figures in docs/performance.md);
## bench/tables.py needs a running server on PostgreSQL + Redis, see docs/tables.md
bench: $(VENV)/.bench
	$(BIN)/python bench/engines.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/scheduling.py
	$(BIN)/python bench/ratings.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
