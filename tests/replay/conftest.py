"""Finished tables to replay: bots-only matches through the real service path, or people's
tables played out with random legal moves."""

from __future__ import annotations

import random

import pytest

from gameplay.models import Table
from gameplay.runtime import cache
from gameplay.services import matches, play
from games.core.bots.common import expand_random


@pytest.fixture(autouse=True)
def quick_tables(settings):
    """Bots move at once, no background sweeper, a fresh match cache (as tests/gameplay)."""
    settings.GAMEPLAY_BOT_DELAY = 0
    settings.GAMEPLAY_EMBEDDED_SWEEPER = False
    cache.forget()
    yield
    cache.forget()


def play_out(table: Table, seed: int = 1) -> Table:
    """Play every seat's moves (random legal ones) until the table is finished."""
    rng = random.Random(seed)
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        match = matches.load_match(table)
        seat = match.to_act()[0]
        action = expand_random(rng.choice(match.legal(seat)), rng)
        play.play_action(table.id, seat, action, table.seq)
