"""Turn-based tables ("by the day", docs/tables.md): three people at a 3-5-8 table with two
days a move, on a controlled clock (time-machine; `at(days)` is that many days after the start).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from gameplay.models import Seat, Table
from gameplay.services import lobby, matches, play
from games.core.bots.common import expand_random
from tests.gameplay.conftest import make_users, quick_tables  # noqa: F401  (fixture)

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def at(days: float) -> datetime:
    """`days` after the start of the test's story."""
    return START + timedelta(days=days)


@pytest.fixture
def clock():
    """The test's clock, stopped at START; `clock.move_to(at(n))` travels."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def people(transactional_db):
    return make_users("ana", "ben", "cleo", "olga")


@pytest.fixture
def table(clock, people, quick_tables) -> Table:  # noqa: F811
    """ana's 2-days-a-move 3-5-8 table, ben and cleo joined: dealt, playing."""
    ana, ben, cleo, _ = people
    made = lobby.create_friendly(ana, game="three_five_eight", pace="2-days", rated=False)
    lobby.join(ben, made.table.id)
    lobby.join(cleo, made.table.id)
    return Table.objects.get(pk=made.table.id)


def due_seat(table_id: str) -> int:
    """The (first) seat whose move it is."""
    return matches.load_match(Table.objects.get(pk=table_id)).to_act()[0]


def user_at(table_id: str, seat: int) -> Any:
    return Seat.objects.select_related("user").get(table_id=table_id, number=seat).user


def move(table_id: str, seat: int | None = None) -> int:
    """Play a legal move for `seat` (default: the one due); the seat that moved."""
    table = Table.objects.get(pk=table_id)
    match = matches.load_match(table)
    seat = match.to_act()[0] if seat is None else seat
    action = expand_random(match.legal(seat)[0], random.Random(table.seq))
    play.play_action(table_id, seat, action, table.seq)
    return seat
