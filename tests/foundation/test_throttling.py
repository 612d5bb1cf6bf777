"""Log-in lockouts, API tokens and API throttles (lobby-api.md "API tokens").

Alice owns an account; mallory guesses her password from 203.0.113.5. The lockout is by the
pair (user name, address): alice from 198.51.100.7 still logs in while mallory's pair is locked.
"""

from __future__ import annotations

import base64
import logging
import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import AsyncClient, Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.client_address import client_address
from config.env import env_networks, env_rate
from league.models import Event

pytestmark = pytest.mark.django_db

MALLORY = "203.0.113.5"
ALICE_ELSEWHERE = "198.51.100.7"
PROXY = "10.0.0.9"
GUESSES = 40


def unmasked(page: bytes) -> bytes:
    """A page without its CSRF tokens' values (each response masks the token anew)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b'name="csrfmiddlewaretoken"', page)


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Throttle counts live in the cache, which outlives a test's database rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice", password="right-password")


@pytest.fixture
def rates(settings):
    """Set some throttle rates for one test (the test settings make them all generous)."""

    def set_rates(**scoped: str) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **scoped,
            },
        }

    return set_rates


def basic(username: str, password: str) -> dict[str, str]:
    pair = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {pair}"}


def log_in(client: Client, password: str, address: str, **extra: str):
    return client.post(
        "/login/", {"username": "alice", "password": password}, REMOTE_ADDR=address, **extra
    )


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def ask_token(client: APIClient, address: str, **data: str):
    return client.post("/api/token/", data, format="json", REMOTE_ADDR=address)


# --- the client's address -------------------------------------------------------------------


def test_forwarded_for_is_ignored_without_a_trusted_proxy():
    assert client_address(PROXY, "1.2.3.4", []) == PROXY
    assert client_address(PROXY, "1.2.3.4", ["10.0.0.10"]) == PROXY  # another proxy's


def test_forwarded_for_is_honoured_from_a_trusted_proxy_right_to_left():
    assert client_address(PROXY, "1.2.3.4", [PROXY]) == "1.2.3.4"
    # The left-hand entries are whatever the client wrote: the right-most untrusted hop counts.
    assert client_address(PROXY, "6.6.6.6, 1.2.3.4, 10.0.0.3", ["10.0.0.0/8"]) == "1.2.3.4"
    assert client_address(PROXY, "garbage", [PROXY]) == PROXY
    assert client_address(None, "1.2.3.4", [PROXY]) is None


def test_an_ipv6_client_counts_by_its_64_network():
    assert client_address("2001:db8:1:2::5", None) == client_address("2001:db8:1:2:ff::1", None)
    assert client_address("2001:db8:1:2::5", None) != client_address("2001:db8:1:3::5", None)
    assert client_address("::ffff:192.0.2.1", None) == "192.0.2.1"


def test_rates_and_proxies_from_the_environment_fail_loudly(monkeypatch):
    monkeypatch.setenv("R", "5/hour")
    assert env_rate("R", "1/second") == "5/hour"
    for wrong in ("ten/minute", "5/fortnight", "0/minute", "5"):
        monkeypatch.setenv("R", wrong)
        with pytest.raises(ImproperlyConfigured, match="R must be a rate"):
            env_rate("R", "1/second")
    monkeypatch.setenv("P", "10.0.0.9, 10.1.0.0/16,2001:db8::/32")
    assert env_networks("P") == ["10.0.0.9", "10.1.0.0/16", "2001:db8::/32"]
    monkeypatch.setenv("P", "10.0.0.300")
    with pytest.raises(ImproperlyConfigured, match="P must list IP addresses"):
        env_networks("P")


# --- log-in lockout: the form, HTTP Basic, the token endpoint -------------------------------


def test_forty_wrong_passwords_lock_the_form_for_that_pair_only(alice, settings):
    mallory = Client()
    first = log_in(mallory, "wrong", MALLORY)
    assert first.status_code == 200 and not logged_in(mallory)  # the form again, with its error
    for _ in range(GUESSES - 1):
        wrong = log_in(mallory, "wrong", MALLORY)
    right = log_in(mallory, "right-password", MALLORY)
    assert right.status_code == 429
    assert right["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    assert not logged_in(mallory)
    assert b"Too many failed log-in attempts" in right.content
    # The page is the same for the right password and a wrong one: it reveals nothing (but
    # the header's forms carry a CSRF token, masked afresh in every response).
    assert (wrong.status_code, unmasked(wrong.content)) == (
        right.status_code,
        unmasked(right.content),
    )
    elsewhere = Client()
    response = log_in(elsewhere, "right-password", ALICE_ELSEWHERE)
    assert response.status_code == 302
    assert logged_in(elsewhere)


def test_rotating_forwarded_for_does_not_escape_the_lockout_without_a_trusted_proxy(alice):
    mallory = Client()
    for n in range(GUESSES):
        log_in(mallory, "wrong", MALLORY, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    right = log_in(mallory, "right-password", MALLORY, HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert right.status_code == 429 and not logged_in(mallory)


def test_behind_a_trusted_proxy_the_forwarded_client_is_locked_not_the_proxy(alice, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    mallory = Client()
    for _ in range(GUESSES):
        log_in(mallory, "wrong", PROXY, HTTP_X_FORWARDED_FOR=MALLORY)
    assert log_in(mallory, "right-password", PROXY, HTTP_X_FORWARDED_FOR=MALLORY).status_code == 429
    elsewhere = Client()
    response = log_in(elsewhere, "right-password", PROXY, HTTP_X_FORWARDED_FOR=ALICE_ELSEWHERE)
    assert response.status_code == 302 and logged_in(elsewhere)


# The async client's requests run in another thread, on a connection of their own: their
# failures are committed, outside the test's transaction. A transactional test empties the tables
# afterwards, so they do not count in later tests (and SQLite does not lock the table meanwhile).
@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_is_served_under_asgi_too(alice, settings, close_thread_connections):
    # Axes' async middleware calls the lockout response with other arguments than its sync one.
    settings.AXES_FAILURE_LIMIT = 3
    client = AsyncClient()
    data = {"username": "alice", "password": "wrong"}
    statuses = [
        (await client.post("/login/", data, REMOTE_ADDR=MALLORY)).status_code for _ in range(4)
    ]
    assert statuses == [200, 200, 429, 429]


def test_forty_wrong_basic_passwords_lock_the_api_for_that_pair_only(alice, settings):
    mallory = APIClient()
    statuses = {
        mallory.get("/api/events/", REMOTE_ADDR=MALLORY, **basic("alice", "wrong")).status_code
        for _ in range(GUESSES)
    }
    assert statuses == {401, 429}
    right = mallory.get("/api/events/", REMOTE_ADDR=MALLORY, **basic("alice", "right-password"))
    assert right.status_code == 429
    assert right["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    assert "Too many failed log-in attempts" in right.json()["detail"]
    elsewhere = APIClient().get(
        "/api/events/", REMOTE_ADDR=ALICE_ELSEWHERE, **basic("alice", "right-password")
    )
    assert elsewhere.status_code == 200


# Each path's attempt as mallory (a fresh client each time), and whether it let him in.
ATTEMPTS = {
    "http-basic": lambda password: APIClient().get(
        "/api/events/", REMOTE_ADDR=MALLORY, **basic("alice", password)
    ),
    "log-in form": lambda password: log_in(Client(), password, MALLORY),
    "token endpoint": lambda password: ask_token(
        APIClient(), MALLORY, username="alice", password=password
    ),
}
LET_IN = {"http-basic": 200, "log-in form": 302, "token endpoint": 200}
# The form answers a wrong password with itself again, and its error.
WRONG = {"http-basic": 401, "log-in form": 200, "token endpoint": 400}


@pytest.mark.parametrize("path", list(ATTEMPTS))
@pytest.mark.parametrize("wrong", ["limit - 1", "limit"])
def test_each_wrong_password_counts_once_on_every_path(alice, settings, path, wrong):
    settings.AXES_FAILURE_LIMIT = limit = 4
    guesses = limit - 1 if wrong == "limit - 1" else limit
    statuses = [ATTEMPTS[path]("wrong").status_code for _ in range(guesses)]
    assert AccessAttempt.objects.get().failures_since_start == guesses
    assert statuses[: limit - 1] == [WRONG[path]] * (limit - 1)
    right = ATTEMPTS[path]("right-password")
    assert right.status_code == (LET_IN[path] if guesses < limit else 429)


def test_a_nul_in_basic_credentials_is_a_401_not_a_database_error(alice):
    response = APIClient().get("/api/events/", **basic("al\x00ice", "right-password"))
    assert response.status_code == 401


def test_forty_wrong_token_requests_lock_the_token_endpoint_for_that_pair_only(alice, settings):
    mallory = APIClient()
    statuses = [
        ask_token(mallory, MALLORY, username="alice", password="wrong").status_code
        for _ in range(GUESSES)
    ]
    limit = settings.AXES_FAILURE_LIMIT
    assert statuses == [400] * (limit - 1) + [429] * (GUESSES - limit + 1)
    right = ask_token(mallory, MALLORY, username="alice", password="right-password")
    assert right.status_code == 429
    assert "token" not in right.json()
    assert right["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    elsewhere = ask_token(APIClient(), ALICE_ELSEWHERE, username="alice", password="right-password")
    assert elsewhere.status_code == 200
    assert elsewhere.json()["token"]


def test_the_user_name_counts_without_regard_to_case(alice, settings):
    mallory = APIClient()
    for n in range(GUESSES):
        name = "alice".upper() if n % 2 else "Alice"
        ask_token(mallory, MALLORY, username=name, password="wrong")
    right = ask_token(mallory, MALLORY, username="alice", password="right-password")
    assert right.status_code == 429


# --- POST /api/token/ -----------------------------------------------------------------------


def test_the_token_is_the_accounts_own_and_the_same_on_every_call(alice):
    client = APIClient()
    first = ask_token(client, ALICE_ELSEWHERE, username="alice", password="right-password")
    second = ask_token(client, MALLORY, username="alice", password="right-password")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() == {"token": alice.auth_token.key}
    assert len(first.json()["token"]) >= 40
    assert first["Cache-Control"] == "no-store"


def test_wrong_credentials_or_a_missing_field_are_a_400(alice):
    client = APIClient()
    wrong = ask_token(client, MALLORY, username="alice", password="nope")
    assert wrong.status_code == 400
    assert set(wrong.json()) == {"detail"} and isinstance(wrong.json()["detail"], str)
    nobody = ask_token(client, MALLORY, username="nobody", password="right-password")
    assert (nobody.status_code, nobody.json()) == (400, wrong.json())
    missing = ask_token(client, MALLORY, username="alice")
    assert missing.status_code == 400 and "password" in missing.json()
    assert ask_token(client, MALLORY, password="right-password").status_code == 400
    assert client.post("/api/token/", "[1]", content_type="application/json").status_code == 400
    assert not Token.objects.exists()  # nothing made for a refused request


def test_every_api_endpoint_accepts_the_token(alice, caplog):
    draft = Event.objects.create(slug="alices-draft", name="Alice's Draft", game="saichugen")
    draft.organizers.add(alice)
    answer = ask_token(APIClient(), MALLORY, username="alice", password="right-password")
    key = answer.json()["token"]
    with caplog.at_level(logging.DEBUG):
        as_alice = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
        listed = as_alice.get("/api/events/").json()["results"]
        assert [e["name"] for e in listed] == ["Alice's Draft"]  # a draft only she may see
        anonymous = APIClient().get("/api/events/").json()["results"]
        assert anonymous == []
        wrong = APIClient(HTTP_AUTHORIZATION="Token " + "0" * 40).get("/api/events/")
        assert wrong.status_code == 401
        as_alice.get("/api/events/no-such-event/")
    assert key not in caplog.text


def test_the_token_endpoint_is_throttled_per_address(alice, rates, settings):
    rates(token="3/minute")
    client = APIClient()
    for _ in range(3):
        assert ask_token(client, MALLORY, username="alice", password="wrong").status_code == 400
    throttled = ask_token(client, MALLORY, username="alice", password="right-password")
    assert throttled.status_code == 429
    assert 0 < int(throttled["Retry-After"]) <= 60
    # Rotating X-Forwarded-For does not make a new client, unless a trusted proxy wrote it.
    spoofed = client.post(
        "/api/token/",
        {"username": "alice", "password": "right-password"},
        format="json",
        REMOTE_ADDR=MALLORY,
        HTTP_X_FORWARDED_FOR="192.0.2.1",
    )
    assert spoofed.status_code == 429
    settings.TRUSTED_PROXIES = [MALLORY]
    forwarded = client.post(
        "/api/token/",
        {"username": "alice", "password": "right-password"},
        format="json",
        REMOTE_ADDR=MALLORY,
        HTTP_X_FORWARDED_FOR="192.0.2.1",
    )
    assert forwarded.status_code == 200


# --- API writes -----------------------------------------------------------------------------


def test_writes_are_throttled_per_user_and_reads_are_not(django_user_model, rates):
    rates(user_write="2/minute")
    staff = django_user_model.objects.create_user("sam", password="pw", is_staff=True)
    client = APIClient()
    client.force_login(staff)
    bad = {"name": "X", "game": "bridge"}
    for _ in range(2):
        assert client.post("/api/events/", bad, format="json").status_code == 400
    throttled = client.post("/api/events/", bad, format="json")
    assert throttled.status_code == 429
    assert 0 < int(throttled["Retry-After"]) <= 60
    for _ in range(5):
        assert client.get("/api/events/").status_code == 200
    # Another account writes on.
    other = django_user_model.objects.create_user("tess", password="pw", is_staff=True)
    client.force_login(other)
    assert client.post("/api/events/", bad, format="json").status_code == 400


def test_the_schema_shows_the_token_endpoint_and_token_auth():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "post" in schema["paths"]["/api/token/"]
    schemes = schema["components"]["securitySchemes"]
    assert {"basicAuth", "tokenAuth", "cookieAuth"} <= set(schemes)
    assert schemes["basicAuth"] == {"type": "http", "scheme": "basic"}
    events = schema["paths"]["/api/events/"]["get"]["security"]
    assert {"tokenAuth": []} in events and {"basicAuth": []} in events
