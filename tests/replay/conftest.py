"""Finished tables to replay: bots-only matches through the real service path, or people's
tables played out with random legal moves."""

from __future__ import annotations

import random

from gameplay.models import Table
from gameplay.services import matches, play
from games.core.bots.common import expand_random
from tests.gameplay.conftest import quick_tables  # noqa: F401  (autouse: bots at once, no sweeper, fresh cache)


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
