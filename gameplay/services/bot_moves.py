"""A bot seat's move in three steps: read the table (`prepare`), think
(`gameplay.runtime.bot_jobs`, anywhere but the table server's process), apply the action
(`apply_choice`).

`play_bot` runs the three in this process: the Celery task `gameplay.bot_move` does so in a
worker of the `bots` queue, and so do management commands and tests. Inside a table server
(the embedded mode) `play_bot_beside` reads and applies on the server and thinks in the process
pool beside it (`gameplay.runtime.thinkers`), so a search never holds the server's
interpreter lock.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from channels.db import database_sync_to_async
from django.conf import settings

from gameplay.models import Action, Table
from gameplay.runtime import metrics, thinkers
from gameplay.runtime.bot_jobs import BotJob, think
from gameplay.runtime.cache import seats_of
from gameplay.services.errors import TableError
from gameplay.services.matches import get_table, load_match
from gameplay.services.play import play_action
from games import bots
from games.ask import past_deals
from games.core.bots.search import Budget

logger = logging.getLogger(__name__)

DEFAULT_SECONDS = 0.3  # a searching level's CPU time per move unless GAMEPLAY_BOT_SECONDS says


def bot_rng(seed: str, seq: int, seat: int) -> random.Random:
    """The generator of a bot's (or a clock's) choice at `seq`: from the table's secret seed,
    so a replayed table chooses the same, and nobody without the seed can predict it."""
    return random.Random(rng_seed(seed, seq, seat))


def rng_seed(seed: str, seq: int, seat: int) -> str:
    return f"{seed}/{seq}/{seat}"


def budget_for(game: str, level: str) -> Budget | None:
    """How long a level may think a move at a table (`GAMEPLAY_BOT_SECONDS`, per level); None
    for a level that does not search."""
    if not bots.get_bot(game, level).searches:
        return None
    seconds = getattr(settings, "GAMEPLAY_BOT_SECONDS", {}).get(level, DEFAULT_SECONDS)
    return Budget(seconds=float(seconds))


def prepare(table_id: str, seq: int) -> BotJob | None:
    """The decision of the first bot seat due at `seq`; None when the table moved on (the task
    ran late or twice) or no bot is to act."""
    table = get_table(table_id)
    if table.status != Table.Status.PLAYING or table.seq != seq:
        return None
    match = load_match(table)
    levels = {s.number: s.bot_level for s in seats_of(table_id, table.seats_rev) if s.bot}
    for seat in match.to_act():
        if seat in levels:
            level = levels[seat] or bots.DEFAULT_LEVEL
            budget = budget_for(match.GAME, level)
            past = past_deals(match) if budget is not None and match.deal_no else []
            return BotJob(
                table_id=table_id,
                seq=seq,
                seat=seat,
                game=match.GAME,
                level=level,
                view=match.view(seat),
                legal=match.legal(seat),
                rng_seed=rng_seed(table.seed, seq, seat),
                past=past,
                budget=budget,
                due=table.bot_due.timestamp() if table.bot_due else None,
            )
    return None


def apply_choice(job: BotJob, action: dict) -> bool:
    """Play the job's action through the one write path; False when the table moved on while
    the bot thought, or the action was refused (logged: a bot must not choose an illegal one)."""
    try:
        applied = play_action(job.table_id, job.seat, action, job.seq, kind=Action.Kind.BOT).applied
    except TableError as exc:
        if exc.code == "illegal":
            logger.error("bot %r chose %r: %s", job, action, exc)
        return False
    if applied and job.due is not None:
        metrics.BOT_LAG.labels(job.level).observe(max(0.0, time.time() - job.due))
    return applied


def play_bot(table_id: str, seq: int) -> bool:
    """Let the first bot seat due at `seq` move, at its seat's level, thinking in this process.
    False when the table moved on or the bot's action was refused."""
    job = prepare(table_id, seq)
    return job is not None and apply_choice(job, think(job))


async def play_bot_beside(table_id: str, seq: int, delay: float) -> bool:
    """`play_bot` for a table server: the thinking goes to the process pool, and the move is
    played `delay` seconds after it was due at the earliest (thinking counts towards it)."""
    loop = asyncio.get_running_loop()
    due = loop.time() + delay
    job = await database_sync_to_async(prepare)(table_id, seq)
    if job is None:
        return False
    action = await thinkers.think_beside(job)
    wait = due - loop.time()
    if wait > 0:
        await asyncio.sleep(wait)
    return await database_sync_to_async(apply_choice)(job, action)
