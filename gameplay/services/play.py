"""`play_action`: the one way an action reaches a table, for people, bots and clocks alike.

One pipeline: get the table's snapshot (its fields and its match at seq N), check the turn,
let the engine apply the action, claim seq N+1 and append the action in one statement
(`claim.py`), and only after commit send the states and queue what follows
(`after_commit.py`). Where the snapshot comes from is the only difference between the two
ways in:

- **the cache** (the common case): this process holds the match at the client's seq with the
  table fields it was committed with, so nothing is read; the claim decides, and the id check
  is left to the unique (table, seat, client_id) constraint, which rolls the claim back;
- **the row**: read the table and check, in the protocol's order, the id already applied
  (acknowledged), `stale`, the clock's `due_by`, a finished match; then load the match.

Anything the cached attempt refuses (not this seat's turn, illegal, a lost claim) goes the row
way, which answers in the protocol's order, so the answers are the same either way; only their
cost differs.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from gameplay import clock
from gameplay.models import Action, Table
from gameplay.runtime import cache, claim, metrics
from gameplay.runtime.runner import bot_delay
from gameplay.services.after_commit import after_commit
from gameplay.services.errors import SeatsChanged, TableError
from gameplay.services.matches import get_table, load_match
from gameplay.services.outcome import forfeit_result
from gameplay.services.summaries import summary_seconds
from games import IllegalAction, Match

logger = logging.getLogger(__name__)

PLAYING = Table.Status.PLAYING
FINISHED = Table.Status.FINISHED


@dataclass(frozen=True)
class Played:
    """What `play_action` did: `applied` (a new seq), or `duplicate` (the id was known)."""

    seq: int
    applied: bool
    duplicate: bool = False


def play_action(
    table_id: str,
    seat: int | None,
    action: Any,
    seq: Any,
    *,
    client_id: str | None = None,
    kind: str = Action.Kind.PLAYER,
    due_by: datetime | None = None,
    seats_rev: int | None = None,
) -> Played:
    """Apply `seat`'s action at `seq`, or raise `TableError` and change nothing.

    The checks answer in the protocol's order: forbidden, id already applied (acknowledged,
    `duplicate`), stale, not_your_turn, illegal. `due_by` (clock timeouts): act only if the
    table's deadline has passed by then, else return without applying. `seats_rev`: the seats'
    revision the caller (a connection) was identified at; `SeatsChanged` when the table's is
    newer, since the seat may no longer be the caller's.
    """
    played = _play(table_id, seat, action, seq, client_id, kind, due_by, seats_rev)
    if played.applied:
        metrics.MOVES.labels(kind).inc()
    return played


def _play(
    table_id: str,
    seat: int | None,
    action: Any,
    seq: Any,
    client_id: str | None,
    kind: str,
    due_by: datetime | None,
    seats_rev: int | None,
) -> Played:
    if seat is None:
        raise TableError("forbidden", "spectators cannot act")
    try:
        if due_by is None:
            live = _from_cache(table_id, seq)
            if live is not None:
                with contextlib.suppress(TableError):  # refused: the row way answers
                    return _apply(*live, seat, action, client_id, kind, seats_rev)
        read = _from_row(table_id, seat, seq, client_id, due_by)
        if isinstance(read, Played):
            return read
        return _apply(*read, seat, action, client_id, kind, seats_rev)
    except IntegrityError:
        # The id was applied before: two requests with the same id raced past the id check (or
        # the cached way never made one), and the loser's insert failed on the unique
        # (table, seat, client_id) constraint; its claim was rolled back with it.
        if client_id is not None:
            applied = Action.objects.filter(table_id=table_id, seat=seat, client_id=client_id)
            if applied.exists():
                return Played(get_table(table_id).seq, applied=False, duplicate=True)
        raise


def _from_cache(table_id: str, seq: Any) -> tuple[cache.Snapshot, Match] | None:
    """The snapshot at `seq` from this process's cache, without reading the row; `None` when
    it is not cached at `seq` (or the match is over)."""
    if isinstance(seq, bool) or not isinstance(seq, int):
        return None
    live = cache.take_live(table_id, seq)
    if live is None:
        return None
    cached_seq, match, snap = live
    if cached_seq < seq:
        # Another process moved the table since (a table's seats may sit on different server
        # processes): catch the cached match up from the log rather than load the whole state.
        caught_up = _catch_up(table_id, seq, cached_seq, match, snap)
        if caught_up is None:
            return None
        snap = caught_up
    if snap.status != PLAYING:
        cache.put(table_id, seq, match, snap)
        return None
    return snap, match


def _from_row(
    table_id: str, seat: int, seq: Any, client_id: str | None, due_by: datetime | None
) -> tuple[cache.Snapshot, Match] | Played:
    """The snapshot from the table row, after the checks that need the row, in the protocol's
    order; a `Played` when the answer is already known (a known id, a clock not yet due)."""
    table = get_table(table_id)
    if (
        client_id is not None
        and Action.objects.filter(table_id=table_id, seat=seat, client_id=client_id).exists()
    ):
        return Played(table.seq, applied=False, duplicate=True)
    if seq != table.seq:
        raise TableError("stale", f"the table is at seq {table.seq}, not {seq}")
    if due_by is not None and (table.deadline is None or table.deadline > due_by):
        return Played(table.seq, applied=False)
    if table.status != PLAYING:
        raise TableError("not_your_turn", "the match is over")
    return cache.Snapshot.of(table), load_match(table, take=True)


def _apply(
    snap: cache.Snapshot,
    match: Match,
    seat: int,
    action: Any,
    client_id: str | None,
    kind: str,
    seats_rev: int | None = None,
) -> Played:
    """Check the turn, apply, claim seq N+1 with the log entry, and schedule the side effects.

    `match` is the writer's copy at `snap.seq`, taken out of the cache: it goes back unchanged
    when refused, and after commit when applied (a lost claim drops it: it was changed).
    """
    table_id, seq = snap.id, snap.seq
    if seats_rev is not None and seats_rev < snap.seats_rev:
        # The caller was identified before the seats changed. (An older snapshot than the
        # caller's cannot win the claim, which checks the row's revision.)
        cache.put(table_id, seq, match, snap)
        raise SeatsChanged(snap.seats_rev)
    if kind == Action.Kind.PLAYER and seat in cache.resigned_seats(table_id, snap.seats_rev):
        # The person resigned (lobby.leave): a built-in bot plays the seat out now.
        cache.put(table_id, seq, match, snap)
        raise TableError("forbidden", "this seat was resigned; a bot plays it now")
    old_to_act = match.to_act()
    if seat not in old_to_act:
        cache.put(table_id, seq, match, snap)
        waiting = " or ".join(str(s) for s in old_to_act)
        raise TableError("not_your_turn", f"not your turn (waiting for seat {waiting})")
    deal_no = match.deal_no
    try:
        match.apply(seat, action)
    except IllegalAction as exc:
        cache.put(table_id, seq, match, snap)  # unchanged: the engine checks before it acts
        raise TableError("illegal", str(exc), reason=exc.reason, params=exc.params) from None
    logged = {k: v for k, v in match.log[deal_no][2][-1].items() if k != "seat"}

    now = timezone.now()
    new_seq = seq + 1
    to_act = match.to_act()
    fields: dict[str, Any] = {}
    # A deal ended: its summary holds each person's first clock of the new deal until they
    # dismiss it, up to a cap (clock.py); the bots are not held.
    held_until = clock.summary_until(
        deal_no, match.deal_no, match.finished, now, summary_seconds(), snap.seconds_per_move
    )
    if held_until is not None:
        snap = replace(snap, summary_until=held_until)
        fields["summary_until"] = held_until
    # A person's clock waits for their first connection, up to the table's grace (clock.py).
    deadline = clock.next_deadline(
        old_to_act,
        to_act,
        snap.deadline,
        now,
        snap.seconds_per_move,
        actor=seat,
        starts_by=snap.clock_starts_by(to_act, now, match.deal_no),
    )
    bots_due = bool(cache.bot_seats(table_id, snap.seats_rev) & set(to_act))
    fields |= {
        "seq": new_seq,
        "state": claim.state_text(match),  # serialized once, straight into the statement
        "updated_at": now,
        "deadline": deadline,
        "bot_due": now + timedelta(seconds=bot_delay()) if bots_due else None,
        "last_kind": kind,  # states say who acted (the clock?) without reading the log
    }
    status, result, finished_at = PLAYING, None, None
    if match.finished:
        status, result, finished_at, deadline = FINISHED, match.result(), now, None
        if snap.forfeited_seats:  # resigned seats (lobby.leave) forfeit, as on the clock
            resigned = cache.resigned_seats(table_id, snap.seats_rev)
            result = forfeit_result(result, snap.forfeited_seats, resigned)
        fields.update(
            status=status, result=result, record=match.export(), finished_at=now, deadline=None
        )
    action_row = {
        "seq": new_seq,
        "seat": seat,
        "action": logged,
        "client_id": client_id,
        "kind": kind,
        "created_at": now,
    }
    # The claim: exactly one writer moves the table from seq N to N+1.
    claimed = claim.claim(table_id, seq, fields, action_row, seats_rev=snap.seats_rev)
    if claimed is None:
        raise TableError("stale", "another action was applied first")
    new_snap = replace(
        snap,
        seq=new_seq,
        status=status,
        deadline=deadline,
        result=result,
        finished_at=finished_at,
        last_kind=kind,
    )
    # The spectator count as of the claim: none, and nobody is sent a spectators' state.
    watchers = claimed.watchers
    transaction.on_commit(lambda: after_commit(new_snap, match, bots_due, watchers=watchers))
    return Played(new_seq, applied=True)


_CATCH_UP_LIMIT = 32  # actions; beyond that loading the state column is as cheap


def _catch_up(
    table_id: str, seq: int, cached_seq: int, match: Match, snap: cache.Snapshot
) -> cache.Snapshot | None:
    """Bring `match` (taken from the cache at `cached_seq`) to the table's current seq with the
    actions logged since, if that is `seq`; its snapshot from the row. `None`: not done; the
    entry is back in the cache, unchanged, or dropped if it was changed."""
    rows = claim.log_since(table_id, cached_seq) if seq - cached_seq <= _CATCH_UP_LIMIT else None
    if (
        not rows
        or rows[0][0] != seq
        or rows[0][1] != PLAYING
        or [r[3] for r in rows] != list(range(cached_seq + 1, seq + 1))
    ):
        cache.put(table_id, cached_seq, match, snap)  # a stale client, or the match is over
        return None
    deal_no = match.deal_no
    try:
        for _, _, _, _, seat, action in rows:
            match.apply(seat, json.loads(action) if isinstance(action, str) else action)
    except Exception:
        logger.exception("table %s: could not catch up from seq %s", table_id, cached_seq)
        return None  # the match is dropped from the cache; the row way loads the state
    if match.deal_no != deal_no:
        # A deal ended meanwhile: the row has its summary's hold (`summary_until`), which the
        # log does not; the row way reads it (once a deal). The caught-up match is dropped.
        return None
    return replace(snap, seq=seq, status=PLAYING, deadline=rows[0][2])
