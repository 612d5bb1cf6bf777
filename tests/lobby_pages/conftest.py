"""Personas and helpers for the lobby's pages: ana creates tables, ben and cleo join, olga only
looks. The browser module uses the browser suite's real server and Chromium."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameplay.models import Table
from gameplay.services import matches, play
from games.core.bots.common import expand_random
from tests.browser.conftest import browser, desktop, phone, screenshots, server  # noqa: F401
from tests.gameplay.conftest import make_users
from tests.gameplay.conftest import quick_tables as quick_tables  # autouse

# The invitation to a waiting table its seated players see (gameplay/lobby/_invite.html).
SHARE = "Share this link: whoever opens it can take an open seat."


@pytest.fixture
def people() -> list[Any]:
    return make_users("ana", "ben", "cleo", "olga")


def play_out(table: Table, seed: int = 1) -> Table:
    """Play every seat's moves at random until the match is over (bots move by themselves)."""
    rng = random.Random(seed)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == "finished":
            return table
        match = matches.load_match(table)
        seat = match.to_act()[0]
        action = expand_random(rng.choice(match.legal(seat)), rng)
        play.play_action(table.id, seat, action, table.seq)
    raise AssertionError("the match did not end")
