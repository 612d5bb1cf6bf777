"""What a seat sees: the protocol's `state` message, live or replayed after a gap."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from django.utils import timezone

from gameplay import clock
from gameplay.engines import Match, registry
from gameplay.models import Action, Table
from gameplay.services.cache import Snapshot, seats_of
from gameplay.services.errors import SeatsChanged
from gameplay.services.matches import get_table, load_match, new_match

FINISHED = Table.Status.FINISHED
WAITING = Table.Status.WAITING
CANCELLED = Table.Status.CANCELLED


def state_payload(
    snap: Snapshot, match: Match, seat: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """The protocol's `state` message for one receiver (`seat=None`: a spectator).

    It carries the deal's `commitment` (the same for every receiver and every state of the
    deal: the match computes it once a deal), never its salt, which only the record reveals.
    A seat to act in a phase that chooses cards also gets `why_not` (its unusable cards and
    why); nobody else does, a spectator least of all: it names cards of the seat's hand.
    `last_action` says who took the last action and how (`by`: the player, a bot or the clock);
    `clock_starts_in`, while a seat due has not connected yet, when its clock starts anyway.
    """
    finished = snap.status == FINISHED
    to_act = [] if finished else match.to_act()
    acting = seat is not None and seat in to_act
    now = now or timezone.now()
    starts_by = snap.clock_starts_by(to_act, now) if snap.deadline is not None else None
    payload = {
        "type": "state",
        "table": snap.id,
        "seq": snap.seq,
        "seat": seat,
        "game": snap.game,
        "status": snap.status,
        "to_act": to_act,
        "legal": match.legal(seat) if acting else [],
        "view": match.view(seat),
        "clock": clock.clock_view(
            to_act, snap.deadline, snap.seconds_per_move, match.SEATS, now, starts_by
        ),
        "result": snap.result if finished else None,
        "players": [s.name for s in seats_of(snap.id, snap.seats_rev)],
        "last_action": last_action(match, snap.last_kind, seat),
    }
    if starts_by is not None:
        payload["clock_starts_in"] = round((starts_by - now).total_seconds(), 1)
    if acting:
        why_not = match.why_not(seat)  # a few microseconds: only for the seats to act
        if why_not is not None:  # None: bidding, trump, announcements (no card is chosen)
            payload["why_not"] = why_not
    commitment = match.commitment()
    if commitment is not None:  # None only for an explicit deal without a salt: no table has one
        payload["commitment"] = commitment
    return payload


# `Action.Kind` as a state says it: who took the last action.
BY = {Action.Kind.PLAYER: "player", Action.Kind.BOT: "bot", Action.Kind.TIMEOUT: "clock"}


def last_action(match: Match, kind: str, receiver: int | None) -> dict[str, Any] | None:
    """The last action applied (`None` before any): its seat, the action and `by` whom it was
    taken ("player", "bot" or "clock"; None for a table from before this was kept). Only its own
    seat gets the whole action, while its deal goes on; everyone else gets its `act` alone,
    since an action may hold cards they may not see (a Saichugen commit, a discard) until the
    view shows them (and a card of the last deal may be in anyone's hand in the next one)."""
    for deal in reversed(match.log):
        if deal[2]:
            entry = deal[2][-1]
            break
    else:
        return None
    seat = entry["seat"]
    if receiver == seat and deal is match.log[-1] and not match.finished:
        action = {k: v for k, v in entry.items() if k != "seat"}
    else:
        action = {"act": entry["act"]}
    return {"seat": seat, "action": action, "by": BY.get(kind)}


def waiting_payload(
    snap: Snapshot, seat: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """The `state` of a table that waits for players: nothing is dealt yet (the seed is not
    even drawn), so there is no card to show; `players` is null for an open seat."""
    n_seats = registry.get_game(snap.game).seats
    names = {
        s.number: s.name if (s.user_id or s.bot) else None
        for s in seats_of(snap.id, snap.seats_rev)
    }
    return {
        "type": "state",
        "table": snap.id,
        "seq": snap.seq,
        "seat": seat,
        "game": snap.game,
        "status": snap.status,
        "to_act": [],
        "legal": [],
        "view": {"hand": []},
        "clock": clock.clock_view([], None, snap.seconds_per_move, n_seats, now or timezone.now()),
        "result": None,
        "players": [names.get(n) for n in range(n_seats)],
        "last_action": None,
    }


def states_since(
    table_id: str, seat: int | None, after_seq: int, seats_rev: int | None = None
) -> list[dict[str, Any]]:
    """The state messages a receiver that last saw `after_seq` is missing, up to now.

    When it has seen the current seq (or nothing yet), that is just the current state; after a
    gap, one state per missed seq, replayed from the log (the log up to now is immutable).
    `seats_rev`: the seats' revision the receiver was identified at; `SeatsChanged` when the
    table's is newer (the receiver must be identified again first). A waiting or cancelled
    table has no deal: its one state shows no cards.
    """
    table = get_table(table_id)
    if seats_rev is not None and table.seats_rev > seats_rev:
        raise SeatsChanged(table.seats_rev)
    snap = Snapshot.of(table)
    if table.status in (WAITING, CANCELLED):  # never dealt (only a waiting table is cancelled)
        return [waiting_payload(snap, seat)]
    if after_seq < 0 or after_seq >= table.seq - 1:
        return [state_payload(snap, load_match(table), seat)]
    match = new_match(table)
    out = []
    actions = Action.objects.filter(table_id=table_id, seq__lte=table.seq).order_by("seq")
    rows = actions.values_list("seat", "action", "kind")
    for step, (a_seat, action, kind) in enumerate(rows, start=1):
        match.apply(a_seat, action)
        if step <= after_seq:
            continue
        if step == table.seq:
            out.append(state_payload(snap, match, seat))
        else:
            # A past state: the match was still being played, its clock is not known.
            past = replace(
                snap,
                seq=step,
                status=Table.Status.PLAYING,
                deadline=None,
                result=None,
                finished_at=None,
                forfeited_seats=[],
                last_kind=kind,
            )
            out.append(state_payload(past, match, seat))
    return out
