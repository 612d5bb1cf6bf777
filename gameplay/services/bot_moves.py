"""A bot seat's move: the bot task's work (`gameplay.bot_move`)."""

from __future__ import annotations

import logging
import random

from gameplay import bots
from gameplay.models import Action, Table
from gameplay.services.cache import seats_of
from gameplay.services.errors import TableError
from gameplay.services.matches import get_table, load_match
from gameplay.services.play import play_action

logger = logging.getLogger(__name__)


def bot_rng(seed: str, seq: int, seat: int) -> random.Random:
    """The generator of a bot's (or a clock's) choice at `seq`: from the table's secret seed,
    so a replayed table chooses the same, and nobody without the seed can predict it."""
    return random.Random(f"{seed}/{seq}/{seat}")


def play_bot(table_id: str, seq: int) -> bool:
    """Let the first bot seat due at `seq` move, at its seat's level. False when the table
    moved on (the task ran late or twice) or the bot's action was refused."""
    table = get_table(table_id)
    if table.status != Table.Status.PLAYING or table.seq != seq:
        return False
    match = load_match(table)
    levels = {s.number: s.bot_level for s in seats_of(table_id, table.seats_rev) if s.bot}
    for seat in match.to_act():
        if seat in levels:
            action = bots.choose_action(
                match.GAME,
                match.view(seat),
                match.legal(seat),
                bot_rng(table.seed, seq, seat),
                levels[seat] or bots.DEFAULT_LEVEL,
            )
            try:
                return play_action(table_id, seat, action, seq, kind=Action.Kind.BOT).applied
            except TableError as exc:
                if exc.code == "illegal":
                    logger.error("bot at %s seat %s chose %r: %s", table_id, seat, action, exc)
                return False
    return False
