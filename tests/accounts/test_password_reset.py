"""Password resets mail only accounts, and only a few times (ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS,
ACCOUNT_RATE_LIMITS["reset_password"]: 10 an hour from one client address, 3 an hour for one
e-mail address).

Alice owns an account; mallory, at 203.0.113.5, would use our reset page to mail anyone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tests.language import text
from tests.procs import ROOT

pytestmark = pytest.mark.django_db

User = get_user_model()
RESET = "/accounts/password/reset/"
MALLORY = "203.0.113.5"
ALICE_ELSEWHERE = "198.51.100.7"
SENT = "We have sent you an email."  # allauth's page after a reset request
REFUSED = "Be patient, you are sending too many requests."  # allauth's message


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's rate limits count in the cache, which outlives a test's database rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice() -> Any:
    return User.objects.create_user("alice", email="alice@example.org", password="right-password")


def ask_reset(email: str, address: str = MALLORY) -> Any:
    return Client().post(RESET, {"email": email}, REMOTE_ADDR=address)


def mailed() -> list[list[str]]:
    return [message.to for message in mail.outbox]


def test_a_reset_for_an_unknown_address_mails_nothing_but_says_sent(alice):
    known = ask_reset("alice@example.org")
    unknown = ask_reset("nobody@example.org")
    # The same answer either way: the page does not tell who has an account.
    assert known.status_code == unknown.status_code == 302
    assert known.url == unknown.url
    assert text(SENT) in Client().get(unknown.url).content.decode()
    assert mailed() == [["alice@example.org"]]


def test_the_fourth_reset_for_one_address_within_an_hour_is_refused_and_sends_nothing(alice):
    with time_machine.travel(datetime(2026, 3, 1, 12, 0, tzinfo=UTC), tick=False) as clock:
        for n in range(3):  # from three addresses: the limit is the inbox's
            assert ask_reset("alice@example.org", f"192.0.2.{n}").status_code == 302
        refused = ask_reset("Alice@Example.org", ALICE_ELSEWHERE)  # any case: the same inbox
        assert refused.status_code == 429
        page = refused.content.decode()
        assert text(REFUSED) in page and 'class="site-header"' in page
        assert mailed() == [["alice@example.org"]] * 3
        clock.shift(3601)
        assert ask_reset("alice@example.org", ALICE_ELSEWHERE).status_code == 302
        assert len(mail.outbox) == 4


def test_the_eleventh_reset_from_one_client_address_within_an_hour_is_refused(alice):
    for n in range(10):  # addresses nobody has: no mail, but they count
        assert ask_reset(f"someone{n}@example.org").status_code == 302
    assert ask_reset("alice@example.org").status_code == 429
    assert mailed() == []
    assert ask_reset("alice@example.org", ALICE_ELSEWHERE).status_code == 302
    assert mailed() == [["alice@example.org"]]


# --- the cache the limits count in -------------------------------------------------------------

CACHES_PROBE = (
    "import django, json; django.setup(); from django.core.cache import caches;"
    "from django.conf import settings;"
    "print(json.dumps([type(caches['default']).__name__, settings.CACHES['default']]))"
)


def caches_under(**variables: str) -> tuple[str, dict[str, Any]]:
    """The default cache config.settings gives with exactly these variables set."""
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings", **variables}
    done = subprocess.run(
        [sys.executable, "-c", CACHES_PROBE],
        cwd=ROOT,
        env={"SECRET_KEY": "k", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    backend, config = json.loads(done.stdout)
    return backend, config


def test_the_limits_count_in_memory_in_the_embedded_mode(tmp_path, settings):
    # allauth counts in Django's default cache; a dummy cache would let every request through.
    backend, _config = caches_under(MEDIANA_VAR_DIR=str(tmp_path))
    assert backend == "LocMemCache"
    assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")  # the tests' own


@pytest.mark.redis
def test_the_limits_count_in_redis_shared_by_every_process(alice, settings):
    backend, config = caches_under(REDIS_URL=os.environ["REDIS_URL"])
    assert backend == "RedisCache"
    prefix = f"test-{uuid.uuid4().hex}"  # this test's keys only, in a Redis others may share
    settings.CACHES = {"default": {**config, "KEY_PREFIX": prefix}}
    redis = cache._cache.get_client()
    try:
        statuses = [ask_reset("alice@example.org", f"192.0.2.{n}").status_code for n in range(4)]
        assert statuses == [302, 302, 302, 429]
        assert len(mail.outbox) == 3
        assert redis.keys(f"{prefix}:*:allauth:rl:*")  # counted where every process looks
    finally:
        for key in redis.keys(f"{prefix}:*"):
            redis.delete(key)
