"""Every API body is read by one JSON parser (config.rest, REST_FRAMEWORK's first parser): JSON
that is malformed or nested deeper than Python's stack is a clear 400, and nothing changes.

Alice owns an account; sam is staff (he may create events).
"""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from gameplay.models import Table
from league.models import Event
from tests.language import text

pytestmark = pytest.mark.django_db

# `json` recurses once per level: DRF's own parser let this through as a RecursionError (a 500).
DEEP = "[" * 100_000 + "]" * 100_000
TOO_DEEP = text("The JSON in the request is nested too deeply.")
AT = "The request is not valid JSON (line %(line)d, column %(column)d)."
NOT_JSON = text("The request is not valid JSON.")


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice", password="right-password")


@pytest.fixture
def sam(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("sam", password="pw", is_staff=True)


def client_of(user: Any = None) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False  # a 500 is an answer to look at, not a test error
    if user is not None:
        client.force_authenticate(user)
    return client


def post(client: APIClient, url: str, body: str | bytes) -> Any:
    return client.post(url, body, content_type="application/json")


def test_deeply_nested_json_for_a_token_is_a_400_that_makes_nothing(alice):
    answer = post(client_of(), "/api/token/", DEEP)
    assert answer.status_code == 400
    assert answer.json() == {"detail": TOO_DEEP}
    assert not Token.objects.exists()
    assert not AccessAttempt.objects.exists()  # not a log-in attempt at all


def test_deeply_nested_json_to_other_api_writes_is_a_400_that_changes_nothing(alice, sam):
    deep_object = '{"game": ' + DEEP + "}"
    tables = post(client_of(alice), "/api/tables/", deep_object)
    assert (tables.status_code, tables.json()) == (400, {"detail": TOO_DEEP})
    events = post(client_of(sam), "/api/events/", deep_object)
    assert (events.status_code, events.json()) == (400, {"detail": TOO_DEEP})
    assert not Table.objects.exists() and not Event.objects.exists()


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ('{"username": "alice",', text(AT, line=1, column=22)),
        ('{\n  "username": }', text(AT, line=2, column=15)),
        ('{"username": "alice", "password": NaN}', NOT_JSON),
        (b'{"username": "al\xffice"}', NOT_JSON),
    ],
)
def test_malformed_json_is_a_400_that_says_where(alice, body, detail):
    answer = post(client_of(), "/api/token/", body)
    assert (answer.status_code, answer.json()) == (400, {"detail": detail})
    assert not Token.objects.exists()
