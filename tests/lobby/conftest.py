"""The lobby's personas: ana makes tables, ben and cleo join them, olga only looks.

Each has a personal API token; `api(user)` is a client sending `Authorization: Token <key>`,
the way a third-party program calls lobby-api.md.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from gameplay.models import Seat, Table
from gameplay.services import matches, play
from games.core.bots.common import expand_random
from tests.gameplay.conftest import match_cache, quick_tables  # noqa: F401  (fixtures)

TABLES = "/api/tables/"


def api(user: Any | None = None) -> APIClient:
    """A client with the user's personal token (none: anonymous)."""
    client = APIClient()
    if user is not None:
        key = Token.objects.get_or_create(user=user)[0].key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def make_user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password=f"{name}-password")


@pytest.fixture
def ana() -> Any:
    return make_user("ana")


@pytest.fixture
def ben() -> Any:
    return make_user("ben")


@pytest.fixture
def cleo() -> Any:
    return make_user("cleo")


@pytest.fixture
def olga() -> Any:
    return make_user("olga")


def create(user: Any, **body: Any) -> dict[str, Any]:
    """POST /api/tables/ as `user`; the 201 body."""
    response = api(user).post(TABLES, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def join(user: Any, table_id: str) -> Any:
    return api(user).post(f"{TABLES}{table_id}/join/")


def leave(user: Any, table_id: str) -> Any:
    return api(user).post(f"{TABLES}{table_id}/leave/")


def contains_key(obj: Any, key: str) -> bool:
    """Whether `key` is a key anywhere in a JSON value."""
    if isinstance(obj, dict):
        return key in obj or any(contains_key(v, key) for v in obj.values())
    if isinstance(obj, list):
        return any(contains_key(v, key) for v in obj)
    return False


def play_out(table_id: str, limit: int = 5000) -> Table:
    """Play every person's turn with a legal action until the match ends (bots move by
    themselves, inline after each commit); the finished table."""
    for _ in range(limit):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        match = matches.load_match(table)
        people = set(
            Seat.objects.filter(table_id=table_id, bot="").values_list("number", flat=True)
        )
        due = [s for s in match.to_act() if s in people]
        assert due, f"table {table_id} waits for a bot at seq {table.seq}: nobody moved it"
        seat = due[0]
        action = expand_random(match.legal(seat)[0], random.Random(table.seq))
        play.play_action(table_id, seat, action, table.seq)
    raise AssertionError(f"table {table_id} did not finish in {limit} moves")
