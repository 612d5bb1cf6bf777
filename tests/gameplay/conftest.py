"""Personas and helpers for the table tests: ana, ben and cleo sit down; olga only watches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from gameplay.models import Seat, Table
from gameplay.runtime import cache
from gameplay.services import create, matches
from gameplay.services.create import SeatSpec
from games.core.bots.common import expand_random


@pytest.fixture(autouse=True)
def quick_tables(settings):
    """Bots move at once, no background sweeper (tests sweep explicitly), a fresh cache."""
    settings.GAMEPLAY_BOT_DELAY = 0
    settings.GAMEPLAY_EMBEDDED_SWEEPER = False
    cache.forget()
    yield
    cache.forget()


@pytest.fixture(params=[True, False], ids=["match-cache", "no-match-cache"])
def match_cache(request, settings):
    """Run the test with this process's match cache and without it (`GAMEPLAY_MATCH_CACHE`):
    the cached way into `play_action` only supplies the snapshot, so every answer is the same."""
    settings.GAMEPLAY_MATCH_CACHE = request.param
    cache.forget()
    return request.param


def make_users(*names: str) -> list[Any]:
    User = get_user_model()
    return [User.objects.create_user(username=n, password="pw") for n in names]


def make_table(
    game: str = "three_five_eight",
    people: list[Any] | None = None,
    bots: list[str] | None = None,
    **options: Any,
) -> Table:
    """A table with people (users) in the first seats and bots in the rest."""
    people = people or []
    seats = [SeatSpec(u.username, user_id=u.pk) for u in people]
    seats += [SeatSpec(name, bot=name) for name in bots or []]
    options.setdefault("seed", 7)
    return create.create_table(game, seats, **options)


def token(table: Table, seat: int) -> str:
    return Seat.objects.get(table=table, number=seat).token


def current(table: Table):
    """The table row and its match, as the server sees them now."""
    table.refresh_from_db()
    return table, matches.load_match(table)


def some_legal(match, seat: int) -> dict[str, Any]:
    """A legal action of `seat`: its first legal entry, templates filled the same way each time."""
    return expand_random(match.legal(seat)[0], random.Random(0))


def illegal_for(match, seat: int) -> dict[str, Any]:
    """An action the engine refuses for `seat` although it is its turn."""
    return {"act": "play", "card": "ZZ"}
