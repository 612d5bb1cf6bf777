"""The side effects of a committed change: per-seat states, the end-of-match signal, bots.

Run by `transaction.on_commit`, carrying a snapshot of the table taken inside the transaction,
never the row: a rolled-back change has no side effects.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from gameplay.models import Table
from gameplay.runtime import cache, notify, runner
from gameplay.services import turns
from gameplay.services.payloads import state_messages
from gameplay.signals import announce, match_finished
from games import Match

logger = logging.getLogger(__name__)

FINISHED = Table.Status.FINISHED


def after_commit(
    snap: cache.Snapshot,
    match: Match,
    bots_due: bool,
    final: bool = False,
    *,
    watchers: int | None = None,
) -> None:
    """Send every receiver its state, put the match back in the cache, then announce the end of
    the match or queue the next bot. `final`: a change that kept the seq (a forfeit).
    `watchers`: the table's spectator count as of the claim (`watchers.py`); 0 sends the
    spectators nothing (each one's first read has this seq), None (not known) sends it."""
    # By the day: whose turn it is now, told once a turn (may move the clock: a vacation).
    snap = turns.mark_turns(snap, match)
    receivers: list[int | None] = [s.number for s in cache.seats_of(snap.id, snap.seats_rev)]
    if snap.allow_spectators and watchers != 0:
        receivers.append(None)
    # Built and serialized before the match goes back: the next writer may change it at once.
    payloads, texts = state_messages(snap, match, receivers, timezone.now())
    if not final:
        cache.put(snap.id, snap.seq, match, snap)
    try:
        notify.send_states(
            snap.id, snap.seq, payloads, final=final, seats_rev=snap.seats_rev, texts=texts
        )
    except Exception:  # the change is committed; consumers re-read on the next gap or sync
        logger.exception("could not notify table %s at seq %s", snap.id, snap.seq)
    if snap.status == FINISHED:
        announce_finished(snap)
    elif bots_due:
        runner.schedule_bot(snap.id, snap.seq)


def announce_finished(snap: cache.Snapshot) -> None:
    """Send `match_finished`; a receiver that fails is logged, the others still hear of it.
    A resigned seat is announced as its person's: the bot only played it out for them."""
    seats = [
        announced_seat(s.number, s.user_id, s.bot, s.bot_level, s.resigned_user_id)
        for s in cache.seats_of(snap.id, snap.seats_rev)
    ]
    announce(
        match_finished,
        "match_finished",
        snap.id,
        result=snap.result,
        seats=seats,
        rated=snap.rated,
        finished_at=snap.finished_at,
        forfeited_seats=snap.forfeited_seats,
    )


def announced_seat(
    number: int, user_id: int | None, bot: str, bot_level: str, resigned_user_id: int | None
) -> dict[str, Any]:
    """A seat as `match_finished` names it (`gameplay.signals`): the resigned person's account
    for a seat a bot played out after they resigned, so the forfeit counts against them; a
    built-in bot with its level, so each level is rated as its own player."""
    if resigned_user_id is not None:
        return {"seat": number, "user_id": resigned_user_id, "bot": None, "bot_level": None}
    return {"seat": number, "user_id": user_id, "bot": bot or None, "bot_level": bot_level or None}
