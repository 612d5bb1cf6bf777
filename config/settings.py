"""Mediana settings, read from the environment.

With nothing set the project runs embedded: SQLite in var/, an in-memory channel layer and
eager Celery. DATABASE_URL switches to PostgreSQL; REDIS_URL switches on the Redis Pub/Sub
channel layer and a real Celery broker (and result backend) for worker processes.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    embedded_secret_key,
    env_bool,
    env_int,
    env_list,
    env_networks,
    env_rate,
    env_seconds_map,
    env_str,
    env_url,
)
from config.vapid import embedded_private_key, public_from_private
from config.websocket_frames import MAX_FRAME_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("MEDIANA_VAR_DIR") or BASE_DIR / "var")
# Made here in every process: it is not in git, and a fresh checkout's beat keeps its schedule
# there (the Procfile's `--schedule var/...`), SQLite its database, `make run` its keys.
with contextlib.suppress(OSError):
    VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "insecure-development-key-only-for-DEBUG"
    elif env_str("DATABASE_URL"):
        # A deployment: its processes (and machines) must share one key, so say so.
        raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is (or DEBUG=1)")
    else:
        # Embedded, no configuration: a random key made once and kept in var/, so commands
        # (`create_table` beside `make run`, `score_record`) work as they are.
        SECRET_KEY = embedded_secret_key(VAR_DIR)

# This machine's own names by default (also without DEBUG: a server started by hand answers
# on localhost); a deployment lists its public names.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "csp",  # the Content Security Policy (below) and its system checks
    "django_countries",  # Player.country: ISO 3166 codes, their names in every language
    "allauth",
    "allauth.account",
    "accounts",
    "gameplay",
    "league",
]

MIDDLEWARE = [
    "config.metrics.request_metrics",  # each request's time for /metrics (first: it sees all)
    "django.middleware.security.SecurityMiddleware",
    # The Content Security Policy on every response (CONTENT_SECURITY_POLICY below).
    "config.security_policy.ContentSecurityPolicyMiddleware",
    "config.malformed.RefuseNulMiddleware",  # a NUL in a URL: 404/400, not a database error
    "config.busy.PoolBusyMiddleware",  # no database connection free in time: 503, not 500
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's language: the switcher's cookie, else Accept-Language, else English
    # (after sessions, before CommonMiddleware, as Django asks).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.ProfileLanguageMiddleware",  # a logged-in player's profile language wins
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.not_allowed.FriendlyNotAllowedMiddleware",  # a form address opened: a page, not blank
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes asks: turns a locked-out log-in into accounts.lockout's 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "accounts.User"
# Axes first: it refuses a locked-out pair (user name, address) before a password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, finding the user name without regard to case (names are unique so).
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "login"  # /login/ forwards to allauth's /accounts/login/, keeping ?next=
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The site's templates, the apps', and each game's own pages (games/<game>/site/,
            # gameplay/game_site.py); cached as Django does by default.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "gameplay.game_site.GameTemplates",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.context_processors.notices",  # the bell: one query, when shown
                "gameplay.context_processors.your_turns",  # by the day: one query, when shown
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
# Several ASGI/Celery threads write to SQLite: wait for the lock instead of failing at once, and
# take the write lock when a transaction begins so two writers never deadlock on an upgrade.
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
# PostgreSQL: one bounded pool per process (psycopg_pool; Django makes it on first use, so each
# uvicorn, Celery child or command process has its own). Under ASGI every request runs in a
# thread of its own: a persistent connection (CONN_MAX_AGE > 0) stayed open in each finished
# thread until the garbage collector found it, and ~100 requests used up max_connections.
# With the pool (which needs CONN_MAX_AGE = 0) every request and every table service call hands
# its connection back when it ends, so a process holds at most DB_POOL_SIZE, and a caller waits
# at most DB_POOL_TIMEOUT seconds for a free one, then fails (OperationalError) instead of hanging.
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 10, minimum=1)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 10, minimum=1)
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = dict(SQLITE_OPTIONS)
    else:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            # Opened on demand, one at a time, and closed again when idle (psycopg_pool's
            # max_idle, 10 minutes): a command or a Celery task opens just the one it uses.
            "min_size": 0,
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "mediana.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery ---------------------------------------------------------
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss", "unix"))
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The Pub/Sub layer: no per-channel polling, scales across ASGI processes.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py's defaults (a 100-connection pool that raises when full,
                        # idle connections dropped) do not suit thousands of sockets.
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=10),
                        "socket_connect_timeout": 5,
                        "socket_timeout": None,
                        "socket_keepalive": True,
                        "health_check_interval": 30,
                    }
                ]
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_EAGER", False)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Bot moves have their own queue: a burst of searching never delays clocks or standings
# (`celery -A config worker -Q bots`, see README "Scaling out").
CELERY_TASK_ROUTES = {
    "gameplay.bot_move": {"queue": "bots"},
    # Game analysis (docs/bots.md, "Game analysis"): searching too, so the bots' workers.
    "gameplay.analyse_table": {"queue": "bots"},
    # The fair-play judging of finished tables (docs/fair-play.md, "Collusion"): rollouts too.
    "league.judge_tables": {"queue": "bots"},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# The periodic tasks: run by one beat process with a real broker, and by the server process
# itself in the embedded mode (GAMEPLAY_EMBEDDED_SWEEPER, below). The one list of both.
# Turn clocks: due timeouts applied (claimed once per seq, so overlap is safe).
CELERY_BEAT_SCHEDULE = {
    # Finished tables of people judged for the collusion analytics, a few at a time.
    "league-judge-tables": {
        "task": "league.judge_tables",
        "schedule": 120.0,
        "options": {"expires": 110},
    },
    "gameplay-sweep-clocks": {
        "task": "gameplay.sweep_clocks",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
    # Ratings whose task was lost (broker down, worker killed): rated a minute later.
    "league-sweep-ratings": {
        "task": "league.sweep_ratings",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Lobby tables that waited unfilled longer than LOBBY_WAITING_EXPIRY: cancelled.
    "gameplay-expire-waiting": {
        "task": "gameplay.expire_waiting",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Quick pairing (docs/lobby.md, "Seeks"): bots fill a seek's table once its wait has
    # passed; old seeks and challenges expire.
    "gameplay-sweep-seeks": {
        "task": "gameplay.sweep_seeks",
        "schedule": 2.0,
        "options": {"expires": 5},
    },
    # Notices whose mail task was lost; deadline reminders; asynchronous events' deadline
    # policies (docs/league.md, "Notifications", "Schedule"). Each is idempotent.
    "league-sweep-notice-mail": {
        "task": "league.sweep_notice_mail",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    "league-deadline-reminders": {
        "task": "league.deadline_reminders",
        "schedule": 300.0,
        "options": {"expires": 250},
    },
    "league-apply-deadline-policies": {
        "task": "league.apply_deadline_policies",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Notices held in a player's quiet hours: pushed and mailed when they end; the daily
    # digests that are due, each at its player's hour (docs/notices.md).
    "league-notice-timers": {
        "task": "league.notice_timers",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Guests idle for GUEST_IDLE_DAYS with no seat at a table in play: deleted (docs/accounts.md).
    "league-delete-idle-guests": {
        "task": "league.delete_idle_guests",
        "schedule": 3600.0,
        "options": {"expires": 3000},
    },
}

# --- Tables ---------------------------------------------------------------------------------
GAMEPLAY_BOT_DELAY = float(env_str("GAMEPLAY_BOT_DELAY") or 0.8)  # seconds before a bot moves
GAMEPLAY_BOT_REQUEUE_AFTER = env_int("GAMEPLAY_BOT_REQUEUE_AFTER", 30, minimum=1)
# CPU seconds a searching bot level may think per move (docs/bots.md, "The strong bot").
GAMEPLAY_BOT_SECONDS = env_seconds_map("GAMEPLAY_BOT_SECONDS", {"strong": 0.3})
# Embedded mode: the processes beside the server where its bots think (never the server's own).
GAMEPLAY_BOT_PROCESSES = env_int("GAMEPLAY_BOT_PROCESSES", 1, minimum=1)
GAMEPLAY_RATE_PER_SECOND = env_int("GAMEPLAY_RATE_PER_SECOND", 20, minimum=1)
GAMEPLAY_RATE_BURST = env_int("GAMEPLAY_RATE_BURST", 40, minimum=1)
# Bytes a table connection may send (gameplay/runtime/limits.py): a burst of two of the largest
# frames, then 16 KiB a second; an action is ~100 bytes, and applied ones are given back.
GAMEPLAY_BYTES_PER_SECOND = env_int("GAMEPLAY_BYTES_PER_SECOND", 16_384, minimum=1)
GAMEPLAY_BYTES_BURST = env_int("GAMEPLAY_BYTES_BURST", 2 * MAX_FRAME_BYTES, minimum=1)
# Daphne (`manage.py runserver`) refuses larger WebSocket frames and messages (closes with 1009);
# uvicorn gets the same cap on its command line, `--ws-max-size` (config/websocket_frames.py).
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = MAX_FRAME_BYTES
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = MAX_FRAME_BYTES
# Game analysis (docs/bots.md, "Game analysis"): worlds the strong evaluator samples per
# decision; analyses one account may ask for per hour; seconds after which a queued or running
# job counts as lost and may be asked for again; embedded mode: run it in a process beside the
# server (off in the tests, which run it inline).
GAMEPLAY_ANALYSIS_ITERATIONS = env_int("GAMEPLAY_ANALYSIS_ITERATIONS", 60, minimum=1)
GAMEPLAY_ANALYSIS_PER_HOUR = env_int("GAMEPLAY_ANALYSIS_PER_HOUR", 10, minimum=1)
GAMEPLAY_ANALYSIS_STALE = env_int("GAMEPLAY_ANALYSIS_STALE", 900, minimum=1)
GAMEPLAY_ANALYSIS_BESIDE = env_bool("GAMEPLAY_ANALYSIS_BESIDE", True)
# Embedded mode (eager Celery, no beat): the server process runs CELERY_BEAT_SCHEDULE itself,
# from the moment it starts serving (gameplay/runtime/beat.py): clocks, reminders, deadline
# policies, sweeps. Off in the tests, which run the tasks themselves.
GAMEPLAY_EMBEDDED_SWEEPER = env_bool("GAMEPLAY_EMBEDDED_SWEEPER", True)
# Embedded mode: the league's work at the end of a match runs on a thread beside the server,
# not inline on the final move's (league/queue.py, `run_beside`).
LEAGUE_EMBEDDED_BESIDE = env_bool("LEAGUE_EMBEDDED_BESIDE", True)
# The longest a finished deal's summary holds the clock of a person's first decision of the next
# deal while they have not dismissed it (docs/tables.md, "End of a deal"; 0: no hold).
GAMEPLAY_DEAL_SUMMARY_SECONDS = env_int("GAMEPLAY_DEAL_SUMMARY_SECONDS", 60, minimum=0)
# A person's turn clock starts when they first connect to the table, or this many seconds after
# the deal at the latest (a table's default, `Table.connect_grace`; docs/tables.md, "Clocks").
GAMEPLAY_CONNECT_GRACE = env_int("GAMEPLAY_CONNECT_GRACE", 60, minimum=0)
# Turn-based tables ("by the day", docs/tables.md "Turn-based tables"): when a deadline has
# passed, the other people may claim the timeout at once; nobody claiming, the clock sweep
# applies it this many seconds after the deadline (default a day).
GAMEPLAY_TURN_TIMEOUT_GRACE = env_int("GAMEPLAY_TURN_TIMEOUT_GRACE", 86400, minimum=0)
# Days of vacation a year an account may take: its turn-based clocks are paused meanwhile.
GAMEPLAY_VACATION_DAYS_PER_YEAR = env_int("GAMEPLAY_VACATION_DAYS_PER_YEAR", 14, minimum=0)
# A turn-based lobby table waits this long for its players, and a turn-based challenge for its
# answer (seconds; default a week), rather than LOBBY_WAITING_EXPIRY and CHALLENGE_EXPIRY.
LOBBY_TURN_BASED_EXPIRY = env_int("LOBBY_TURN_BASED_EXPIRY", 7 * 86400, minimum=1)
# The table's chat (docs/chat.md): the longest line in characters, how many lines one writer may
# send in CHAT_RATE_SECONDS at one table, and how many earlier lines a connection gets on joining.
CHAT_MAX_CHARS = env_int("CHAT_MAX_CHARS", 200, minimum=1)
CHAT_RATE_LINES = env_int("CHAT_RATE_LINES", 5, minimum=1)
CHAT_RATE_SECONDS = env_int("CHAT_RATE_SECONDS", 10, minimum=1)
CHAT_HISTORY_LINES = env_int("CHAT_HISTORY_LINES", 100, minimum=0)

# --- Web Push (docs/notices.md, README "Running at scale") --------------------------------------
# The VAPID key pair that signs pushes to players' browsers (`manage.py vapid_keys` prints a new
# one). Unset in the embedded mode: a key made once and kept in var/ (owner-only). Unset with
# DATABASE_URL: no push (the settings page offers none); every process must share one key.
VAPID_PRIVATE_KEY = (env_str("VAPID_PRIVATE_KEY") or "").strip()
if not VAPID_PRIVATE_KEY and not env_str("DATABASE_URL"):
    VAPID_PRIVATE_KEY = embedded_private_key(VAR_DIR)
VAPID_PUBLIC_KEY = public_from_private(VAPID_PRIVATE_KEY) if VAPID_PRIVATE_KEY else ""
if env_str("VAPID_PUBLIC_KEY") and env_str("VAPID_PUBLIC_KEY", "").strip() != VAPID_PUBLIC_KEY:
    raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
# Who runs the site, for the push services (a mailto: or https: URL).
VAPID_SUBJECT = env_str("VAPID_SUBJECT") or "mailto:mediana@localhost"
# The push services a browser's subscription may name (host names; their subdomains too): the
# server posts to a subscription's endpoint, so no other address is accepted.
WEBPUSH_ENDPOINT_HOSTS = env_list(
    "WEBPUSH_ENDPOINT_HOSTS",
    [
        "fcm.googleapis.com",
        "push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    ],
)
# Only https: endpoints (the tests' local push service turns plain http on).
WEBPUSH_ALLOW_HTTP = False
# Seconds a push service may take to answer one push.
WEBPUSH_TIMEOUT = env_int("WEBPUSH_TIMEOUT", 10, minimum=1)

# --- HTTPS and the Content Security Policy (README "Running at scale", docs/browser.md) ------
# HTTPS=1: the site is served over HTTPS by a TLS-terminating proxy that sets (overwrites)
# X-Forwarded-Proto on every request it passes on. Django then knows a request came over HTTPS,
# redirects plain HTTP there, sends cookies only over HTTPS and tells browsers to use nothing
# else for a year (HSTS).
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # A health check and Prometheus's scrape reach each process directly, over plain HTTP:
    # answered, not redirected.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    # No `preload` in the HSTS header (check --deploy's W021): it asks browsers' makers to build
    # HTTPS-only into every browser for the whole registrable domain (example.org, not only
    # mediana.example.org), which is the domain owner's decision and takes months to undo. An
    # owner who wants it adds it at the proxy and submits the domain at hstspreload.org.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Enforced in every mode, so every test and browser test runs under it. Scripts and style
# sheets come from our own static files only; an inline <script> or <style> needs the
# request's nonce and no element has an inline handler (onclick=) or a style= attribute
# (docs/browser.md, "Content Security Policy"). The table's socket is same-origin: 'self'
# covers ws:/wss: in current browsers, config.security_policy names it for older ones.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "upgrade-insecure-requests": HTTPS,
    }
}

# --- Operations: metrics and error reports (docs/deployment.md) ---------------------------------
# METRICS_TOKEN switches /metrics on (config/metrics.py): Prometheus sends it as a bearer token.
# With PROMETHEUS_MULTIPROC_DIR (read by prometheus-client itself) every process of a machine
# writes its figures there and any uvicorn's /metrics adds them up.
METRICS_TOKEN = (env_str("METRICS_TOKEN") or "").strip()
# /healthz reports the schedule `late` when beat has not swept the turn clocks for this long.
SCHEDULE_LATE_AFTER = env_int("SCHEDULE_LATE_AFTER", 30, minimum=5)
# SENTRY_DSN switches error reports on (config/sentry.py: nothing personal, secrets redacted);
# SENTRY_TRACES_SAMPLE_RATE (0 to 1, default 0) samples requests' timings too.
SENTRY_DSN = (env_str("SENTRY_DSN") or "").strip()
if SENTRY_DSN:
    try:
        _traces = float(env_str("SENTRY_TRACES_SAMPLE_RATE") or 0)
    except ValueError:
        _traces = -1.0
    if not 0 <= _traces <= 1:
        raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1")
    from config.sentry import start as start_sentry

    start_sentry(SENTRY_DSN, env_str("SENTRY_ENVIRONMENT"), _traces)

# --- Throttling -----------------------------------------------------------------------------
# The client's address (accounts/client_address.py) for log-in lockouts, API throttles and the
# spectator cap: the connection's peer, or from X-Forwarded-For only when the peer is one of
# these proxies (addresses or networks).
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
# Log-in lockout (django-axes, accounts/lockout.py): LOGIN_FAILURE_LIMIT failures of one user
# name from one address lock that pair (never the name everywhere) for LOGIN_COOLOFF_SECONDS,
# counted again from each refused attempt. Attempts are kept in the database (every process).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(seconds=env_int("LOGIN_COOLOFF_SECONDS", 900, minimum=1))
AXES_RESET_ON_SUCCESS = True  # a log-in forgets that pair's earlier failures
AXES_USERNAME_FORM_FIELD = "username"
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"
AXES_CLIENT_IP_CALLABLE = "accounts.client_address.request_client_address"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # no row per successful log-in: only failures are needed
AXES_VERBOSE = False  # no start-up banner; failures are still logged (names and addresses masked)
# API throttle counts (accounts/authentication.py) live in the default cache: Redis when there
# is one, so every process shares them; otherwise each process counts alone (local memory).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "mediana",
        }
    }
# Spectator sockets per client address and ASGI process (gameplay/runtime/limits.py).
GAMEPLAY_SPECTATORS_PER_ADDRESS = env_int("GAMEPLAY_SPECTATORS_PER_ADDRESS", 20, minimum=1)
# Seconds a lobby table may wait for players before it is cancelled (docs/lobby.md).
LOBBY_WAITING_EXPIRY = env_int("LOBBY_WAITING_EXPIRY", 1800, minimum=1)

# --- Accounts and e-mail --------------------------------------------------------------------
# django-allauth's account views at /accounts/ (docs/accounts.md). Log in by user name only: the
# lockout counts failures per user name (accounts/lockout.py), and a second name for the same
# account (its e-mail) would give a guesser a second count.
ACCOUNT_ADAPTER = "league.profile.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupExtras"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION") or "none"
if ACCOUNT_EMAIL_VERIFICATION not in ("none", "optional", "mandatory"):
    raise ImproperlyConfigured(
        "ACCOUNT_EMAIL_VERIFICATION must be none, optional or mandatory, "
        f"got {ACCOUNT_EMAIL_VERIFICATION!r}"
    )
# An address is optional unless it must be verified.
_EMAIL_FIELD = "email*" if ACCOUNT_EMAIL_VERIFICATION == "mandatory" else "email"
ACCOUNT_SIGNUP_FIELDS = ["username*", _EMAIL_FIELD, "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# allauth's own log-in limits count failures per user name from anywhere (anyone could lock the
# owner out) and per address: django-axes already locks the pair instead. Its other limits
# (sign-ups, changes of password and e-mail) stay as allauth has them. Password-reset requests:
# 10 an hour from one client address, 3 an hour for one e-mail address (allauth's own 20 and 5 a
# minute would let anyone send 7,200 mails a day to one inbox through us). They count in the
# default cache: Redis with REDIS_URL, shared by every process; else each process alone.
ACCOUNT_RATE_LIMITS = {
    "login": None,
    "login_failed": None,
    "reset_password": "10/h/ip,3/h/key",
}
# A reset asked for an address no account has sends nothing (allauth would mail "unknown
# account" there: anyone could mail anyone through us). The page says "sent" all the same, so it
# does not tell whether an address has an account.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
# Mail: printed to the console in the embedded mode (a reset link shows there); a deployment
# (DATABASE_URL) or an EMAIL_HOST sends it over SMTP.
EMAIL_HOST = env_str("EMAIL_HOST") or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "mediana@localhost"
# The site's public address, for the links in e-mailed notices (a Celery task has no request);
# `make run` sets it to the address it serves (HOST, PORT) unless it is set.
SITE_URL = env_str("SITE_URL") or "http://127.0.0.1:8000"
# How many hours before a round's deadline its players without a result are reminded.
LEAGUE_DEADLINE_REMINDER_HOURS = env_int("LEAGUE_DEADLINE_REMINDER_HOURS", 24, minimum=1)
if DATABASE_URL or env_str("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# --- The rest of an account's life, and provisional ratings (docs/accounts.md, ratings.md) ----
# A leaderboard row is provisional until the player has both this many rated games and met this
# many distinct opponents in them.
RATING_PROVISIONAL_GAMES = env_int("RATING_PROVISIONAL_GAMES", 10, minimum=1)
RATING_PROVISIONAL_OPPONENTS = env_int("RATING_PROVISIONAL_OPPONENTS", 5, minimum=1)
# A rated friendly table counts only when every account at it has a verified e-mail address, or
# is this many days old and has played this many tables to their end (docs/ratings.md).
RATING_ACCOUNT_MIN_DAYS = env_int("RATING_ACCOUNT_MIN_DAYS", 7, minimum=0)
RATING_ACCOUNT_MIN_GAMES = env_int("RATING_ACCOUNT_MIN_GAMES", 10, minimum=0)
# The k-th rated friendly table of the same accounts within this many days counts with weight
# 1/2^(k-1) (docs/ratings.md); 0 counts every table fully.
RATING_REPEAT_WINDOW_DAYS = env_int("RATING_REPEAT_WINDOW_DAYS", 7, minimum=0)
# How long an organizer's invitation to claim a player works.
CLAIM_INVITATION_DAYS = env_int("CLAIM_INVITATION_DAYS", 14, minimum=1)
# Every account may organize events; those whose owner lacks the organizer role are never rated
# (docs/league.md, "Who may organize").
LEAGUE_OPEN_ORGANIZING = env_bool("LEAGUE_OPEN_ORGANIZING", False)
# Reports about players one account may send in any 24 hours.
PLAYER_REPORTS_PER_DAY = env_int("PLAYER_REPORTS_PER_DAY", 10, minimum=1)
# Guests (docs/accounts.md, "Guests"): how many one client address may make in an hour, and after
# how many idle days a guest with no seat at a table in play is deleted.
GUEST_ACCOUNTS_PER_HOUR = env_int("GUEST_ACCOUNTS_PER_HOUR", 30, minimum=1)
GUEST_IDLE_DAYS = env_int("GUEST_IDLE_DAYS", 30, minimum=1)

# --- Internationalisation, static files ----------------------------------------------------
# docs/translations.md: a logged-in player's profile language, else the switcher's cookie or the
# browser's Accept-Language, else English. No /de/ prefixes: the URLs (protocol, API) are fixed.
LANGUAGE_CODE = "en"
LANGUAGES = [  # each in its own language, as the switcher in the header shows them
    ("en", "English"),
    ("de", "Deutsch"),
    ("it", "Italiano"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # the switcher's choice is remembered for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Each game's browser code is served from its package (games/<game>/site/, gameplay/game_site.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "gameplay.game_site.GameStatic",
]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    # DRF's three, with our JSON parser: a malformed or too deeply nested body is a 400.
    "DEFAULT_PARSER_CLASSES": [
        "config.rest.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 50, minimum=1),
    # Basic first: a script without credentials is asked for them (401 + WWW-Authenticate).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BasicAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Writes only: reads (pages, standings, the lobby) are read by many and stay unthrottled.
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.authentication.AnonWriteThrottle",
        "accounts.authentication.UserWriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon_write": env_rate("API_ANON_WRITE_RATE", "30/minute"),
        "user_write": env_rate("API_USER_WRITE_RATE", "120/minute"),
        "token": env_rate("API_TOKEN_RATE", "10/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Mediana API",
    "DESCRIPTION": "Tournaments, leagues and tables for trick-taking card games.",
    "VERSION": "1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # An event's `status` (its stage: docs/league.md, "The end of an event") beside the other
    # `status` fields (rounds, tables): named, so no enum name collides.
    "ENUM_NAME_OVERRIDES": {"EventStatusEnum": "league.models.Event.Stage"},
}

# No secret in any log line (seat tokens ride in URLs, which every server logs): LOGGING is
# applied by config.logging.configure, which also filters the handlers uvicorn, Daphne and
# Celery set up themselves (config/logging.py says why a handler filter alone is not enough).
LOGGING_CONFIG = "config.logging.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "config.logging.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
    # Django's default config gives "django" a handler of its own; one line per record is enough.
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # One line per task run is noise in eager mode; failures are still logged.
        "celery.app.trace": {"level": "WARNING"},
    },
}
