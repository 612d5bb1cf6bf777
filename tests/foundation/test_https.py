"""HTTPS=1: the one switch for a site behind a TLS-terminating proxy. `check --deploy` has nothing
left to say, cookies travel only over HTTPS, plain HTTP is sent to HTTPS and browsers are told to
keep to it (HSTS); without the switch requests, headers and cookies are as they always were.

The settings are read from the environment at start-up, so each mode's are loaded in a fresh
interpreter (as a server would) and then applied to real requests here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management.utils import get_random_secret_key
from django.test import Client

from tests.procs import ROOT

# Every setting HTTPS=1 may change, with Django's default for the ones it leaves unset.
NAMES = [
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SECURE_REDIRECT_EXEMPT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "LANGUAGE_COOKIE_SECURE",
]
PROBE = (
    "import django, json; django.setup(); from django.conf import settings;"
    "from csp.utils import build_policy;"
    f"names = {NAMES!r};"
    "print(json.dumps({'settings': {n: getattr(settings, n) for n in names},"
    " 'policy': build_policy()}))"
)
YEAR = 365 * 24 * 3600


def deployment(var_dir: Path, **variables: str) -> dict[str, str]:
    """A deployment's environment without a database URL: a fresh key, a public host name, and
    its own var/ (the embedded SQLite file is never touched)."""
    return {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": get_random_secret_key(),  # 50 random characters
        "ALLOWED_HOSTS": "example.org",
        "MEDIANA_VAR_DIR": str(var_dir),
        **variables,
    }


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_has_nothing_to_say_with_https(tmp_path):
    done = run(["manage.py", "check", "--deploy"], deployment(tmp_path, HTTPS="1"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # Only the HSTS preload warning is silenced, on purpose (config/settings.py says why).
    assert done.stdout == "System check identified no issues (1 silenced).\n"


def test_check_deploy_still_warns_without_https(tmp_path):
    done = run(["manage.py", "check", "--deploy"], deployment(tmp_path))
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr


def loaded(var_dir: Path, **variables: str) -> dict:
    done = run(["-c", PROBE], deployment(var_dir, **variables))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def as_loaded(settings, tmp_path):
    """Apply the settings a server started with these variables has; returns its policy."""

    def apply(**variables: str) -> str:
        probe = loaded(tmp_path, **variables)
        for name, value in probe["settings"].items():
            setattr(settings, name, tuple(value) if isinstance(value, list) else value)
        settings.ALLOWED_HOSTS = ["testserver"]
        return probe["policy"]

    return apply


@pytest.fixture
def ana(db):
    return get_user_model().objects.create_user("ana", password="right-password")


def cookies_set(secure: bool) -> dict[str, object]:
    """A browser opens the log-in page, logs in and chooses a language: the response that set
    each cookie (CSRF, session, language)."""
    browser = Client()
    page = browser.get("/accounts/login/", secure=secure)
    assert page.status_code == 200
    login = browser.post(
        "/accounts/login/", {"login": "ana", "password": "right-password"}, secure=secure
    )
    language = browser.post("/i18n/setlang/", {"language": "it"}, secure=secure)
    assert login.status_code == 302 and language.status_code == 302
    return {"csrftoken": page, "sessionid": login, "django_language": language}


def test_https_makes_every_cookie_secure_and_sends_hsts(as_loaded, ana):
    policy = as_loaded(HTTPS="1")
    responses = cookies_set(secure=True)
    for cookie, response in responses.items():
        assert response.cookies[cookie]["secure"] is True, cookie
    hsts = responses["csrftoken"]["Strict-Transport-Security"]
    assert hsts == f"max-age={YEAR}; includeSubDomains"  # no preload (config/settings.py)
    assert "upgrade-insecure-requests" in policy.split("; ")


def test_https_believes_the_proxy_and_redirects_plain_http(as_loaded, db):
    as_loaded(HTTPS="1")
    browser = Client()
    # The proxy says the browser came over HTTPS: a secure request, with HSTS.
    behind_proxy = browser.get("/accounts/login/", headers={"X-Forwarded-Proto": "https"})
    assert behind_proxy.status_code == 200
    assert "Strict-Transport-Security" in behind_proxy
    plain = browser.get("/accounts/login/?next=/play/")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/accounts/login/?next=/play/"
    # A health check reaches a process directly, over plain HTTP: answered, not redirected.
    assert browser.get("/healthz").status_code == 200


def test_without_https_nothing_changes(as_loaded, ana):
    policy = as_loaded()
    responses = cookies_set(secure=False)
    for cookie, response in responses.items():
        assert not response.cookies[cookie]["secure"], cookie
        assert "Strict-Transport-Security" not in response
    # No redirect, and a client's X-Forwarded-Proto is not believed (no HSTS).
    forged = Client().get("/accounts/login/", headers={"X-Forwarded-Proto": "https"})
    assert forged.status_code == 200
    assert "Strict-Transport-Security" not in forged
    assert "upgrade-insecure-requests" not in policy
