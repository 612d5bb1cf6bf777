"""Turn clocks at tables: timeouts (a default action or a forfeit), and the sweep that finds
them. The deadline rules themselves are pure (`gameplay/clock.py`).

Every change here is claimed on the table's seq like an action, so two sweepers, or a sweeper
and a late move, apply a timeout once.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from gameplay.clock import DAY
from gameplay.models import Action, Table
from gameplay.runtime import runner
from gameplay.runtime.cache import Snapshot, seats_of
from gameplay.services import turn_timeouts
from gameplay.services.after_commit import after_commit
from gameplay.services.bot_moves import bot_rng
from gameplay.services.errors import TableError
from gameplay.services.matches import get_table, load_match
from gameplay.services.outcome import forfeit_result
from gameplay.services.play import play_action
from games import Match, bots

PLAYING = Table.Status.PLAYING
FINISHED = Table.Status.FINISHED
SWEPT_AT = "gameplay:clocks-swept-at"  # the cache key of the last sweep's time (epoch seconds)
log = logging.getLogger(__name__)


def sweep_age() -> float | None:
    """Seconds since turn clocks were last swept anywhere (beat's heartbeat: the cache is
    shared by every process with Redis); None when no sweep is on record."""
    swept = cache.get(SWEPT_AT)
    return None if swept is None else max(0.0, time.time() - swept)


def _record_sweep() -> None:
    try:
        cache.set(SWEPT_AT, time.time(), None)
    except Exception:  # the cache down: /healthz says so; the sweep itself was done
        log.warning("could not record the clocks' sweep", exc_info=True)


def default_action(
    match: Match, seat: int, rng: random.Random, level: str = bots.DEFAULT_LEVEL
) -> dict[str, Any]:
    """What a seat that ran out of time does: pass when it may, else what the `level` bot
    would do (a bot seat's own level; the basic bot for a person). A level that searches is
    answered by the basic bot: the clock runs where the server does, and a lost move is no
    reason to think there."""
    legal = match.legal(seat)
    if {"act": "pass"} in legal:
        return {"act": "pass"}
    if bots.get_bot(match.GAME, level).searches:
        level = bots.DEFAULT_LEVEL
    return bots.choose_action(match.GAME, match.view(seat), legal, rng, level)


def apply_timeouts(table_id: str, now: datetime | None = None) -> int:
    """Apply every timeout due at a table (idempotent: each is claimed on its seq)."""
    now = now or timezone.now()
    applied = 0
    for _ in range(8):  # at most one per seat of the decision
        table = get_table(table_id)
        if table.status != PLAYING or table.deadline is None or table.deadline > now:
            break
        match = load_match(table)
        to_act = match.to_act()
        if not to_act:
            break
        seat = to_act[0]
        if table.on_timeout == Table.OnTimeout.FORFEIT:
            applied += forfeit(table_id, seat, table.seq, now)
            break
        seats = seats_of(table_id, table.seats_rev)
        level = next((s.bot_level for s in seats if s.number == seat), "")
        action = default_action(
            match, seat, bot_rng(table.seed, table.seq, seat), level or bots.DEFAULT_LEVEL
        )
        try:
            played = play_action(
                table_id, seat, action, table.seq, kind=Action.Kind.TIMEOUT, due_by=now
            )
        except TableError:
            break  # someone acted (or another sweeper claimed it) first
        if not played.applied:
            break
        applied += 1
    return applied


def forfeit(table_id: str, seat: int, seq: int, now: datetime) -> int:
    """End the match: `seat` forfeits on time. Claimed on `seq` like an action (idempotent)."""
    with transaction.atomic():
        table = get_table(table_id)
        if table.seq != seq:
            return 0
        match = load_match(table)
        result = match.result()
        # With the seats that resigned before (lobby.leave), which forfeit the same way.
        forfeited = sorted({*(table.forfeited_seats or []), seat})
        resigned = {s.number for s in seats_of(table_id, table.seats_rev) if s.resigned_user_id}
        result = forfeit_result(result, forfeited, resigned, timed_out=seat)
        claimed = Table.objects.filter(
            pk=table_id, seq=seq, status=PLAYING, deadline__lte=now, seats_rev=table.seats_rev
        ).update(
            status=FINISHED,
            result=result,
            record=match.export(),
            forfeited_seats=forfeited,
            deadline=None,
            bot_due=None,
            finished_at=now,
            updated_at=now,
        )
        if not claimed:
            return 0
        table.status, table.result, table.finished_at = FINISHED, result, now
        table.forfeited_seats, table.deadline = forfeited, None
        snap = Snapshot.of(table)
        transaction.on_commit(lambda: after_commit(snap, match, False, final=True))
    return 1


def sweep_clocks(
    now: datetime | None = None, limit: int = 500, bot_grace: float | None = None
) -> int:
    """Apply due timeouts at every table, and re-queue bot moves that are long overdue.

    Run by Celery beat at scale and by a background task in the embedded server; safe to run
    in several places at once (every change is claimed on its seq).
    """
    now = now or timezone.now()
    applied = 0
    # A turn-based table's timeout waits for a claim, or the grace (`turn_timeouts`); an
    # event's turn-based table then takes its own `on_timeout` here.
    by_day = now - timedelta(seconds=turn_timeouts.claim_grace())
    due = Table.objects.filter(status=PLAYING, deadline__lte=now).filter(
        Q(seconds_per_move__lt=DAY) | Q(origin=Table.Origin.EVENT, deadline__lte=by_day)
    )
    for table_id in due.order_by("deadline").values_list("id", flat=True)[:limit]:
        applied += apply_timeouts(table_id, now)
    applied += turn_timeouts.sweep_turn_based(now, limit)
    if bot_grace is None:
        bot_grace = float(getattr(settings, "GAMEPLAY_BOT_REQUEUE_AFTER", 30))
    grace = timedelta(seconds=bot_grace)
    stuck = Table.objects.filter(status=PLAYING, bot_due__lte=now - grace)
    for table_id, seq in stuck.values_list("id", "seq")[:limit]:
        # Claim the re-queue on seq so two sweepers do not both kick the same bot.
        if Table.objects.filter(pk=table_id, seq=seq, bot_due__lte=now - grace).update(bot_due=now):
            runner.schedule_bot(table_id, seq)
    _record_sweep()
    return applied
