"""Settings come from the environment and refuse bad values loudly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import env
from tests.procs import ROOT

PROBE = (
    "import django, json; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'],"
    "'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'eager': s.CELERY_TASK_ALWAYS_EAGER,"
    "'broker': s.CELERY_BROKER_URL}))"
)


def settings_under(**variables: str) -> subprocess.CompletedProcess:
    """Load config.settings in a fresh interpreter with exactly these variables set."""
    base = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, **variables},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_embedded_defaults_need_no_services(tmp_path):
    done = settings_under(DEBUG="1", MEDIANA_VAR_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded == {
        "db": "django.db.backends.sqlite3",
        "layer": "channels.layers.InMemoryChannelLayer",
        "eager": True,
        "broker": "memory://",
    }


def test_urls_switch_to_postgres_and_redis():
    done = settings_under(
        SECRET_KEY="k",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/mediana",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded["db"] == "django.db.backends.postgresql"
    assert loaded["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert loaded["eager"] is False
    assert loaded["broker"] == "redis://127.0.0.1:6379/0"


def test_a_deployment_must_set_its_secret_key():
    done = settings_under(DATABASE_URL="postgres://postgres@127.0.0.1:5432/mediana")
    assert done.returncode != 0
    assert "SECRET_KEY must be set when DATABASE_URL is" in done.stderr


KEY_PROBE = (
    "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
)


def test_embedded_mode_makes_its_own_key_once_and_keeps_it(tmp_path):
    def key() -> str:
        done = subprocess.run(
            [sys.executable, "-c", KEY_PROBE],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
                 "MEDIANA_VAR_DIR": str(tmp_path / "var")},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    first = key()
    assert len(first) >= 50 and key() == first
    stored = tmp_path / "var" / "secret_key"
    assert stored.read_text() == first
    assert stored.stat().st_mode & 0o077 == 0  # owner only


def test_score_record_needs_no_configuration_at_all():
    done = subprocess.run(
        [sys.executable, "manage.py", "score_record", "-"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"},
        input="{}",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("record: ") and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG must be a boolean"),
        ("DATABASE_URL", "mysql://x/y", "DATABASE_URL must be a URL with scheme"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL must be a URL with scheme"),
        ("API_PAGE_SIZE", "ten", "API_PAGE_SIZE must be an integer"),
    ],
)
def test_bad_values_stop_start_up(name, value, message):
    done = settings_under(SECRET_KEY="k", **{name: value})
    assert done.returncode != 0
    assert message in done.stderr


def test_typed_helpers(monkeypatch):
    monkeypatch.setenv("X_BOOL", "Yes")
    monkeypatch.setenv("X_INT", "3")
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert env.env_bool("X_BOOL", False) is True
    assert env.env_bool("X_UNSET", True) is True
    assert env.env_int("X_INT", 0) == 3
    assert env.env_list("X_LIST", []) == ["a", "b", "c"]
    with pytest.raises(ImproperlyConfigured, match="at least 5"):
        env.env_int("X_INT", 0, minimum=5)
