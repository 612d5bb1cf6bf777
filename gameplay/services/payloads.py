"""What a seat sees: the protocol's `state` message, live or replayed after a gap."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.utils import timezone

from gameplay import clock
from gameplay.models import Action, Table
from gameplay.runtime.cache import Snapshot, seats_of
from gameplay.runtime.notify import json_text as dumps
from gameplay.services.errors import SeatsChanged
from gameplay.services.matches import get_table, load_match, new_match
from games import Match

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
    return _payload(_Shared.of(snap, match, now), match, seat, match.seat_view(seat))


def state_payloads(
    snap: Snapshot, match: Match, receivers: Iterable[int | None], now: datetime | None = None
) -> dict[int | None, dict[str, Any]]:
    """`state_payload` for each receiver of one change: what they all see (the public view,
    the clock, the players…) is made once and shared, not once per receiver."""
    shared = _Shared.of(snap, match, now)
    return {seat: _payload(shared, match, seat, match.seat_view(seat)) for seat in receivers}


def state_messages(
    snap: Snapshot, match: Match, receivers: Iterable[int | None], now: datetime | None = None
) -> tuple[dict[int | None, dict[str, Any]], dict[int | None, str]]:
    """`state_payloads` and each one's JSON text, exactly `notify.state_text(payload)`, made
    cheaper: a move's 3 to 5 states of a few kilobytes differ in a few hundred bytes, so what they
    share is serialized once and each receiver's own parts (`seat`, `legal`, its part of the
    view, `last_action`, `why_not`) are spliced in. No text carries a seat's secret its payload
    does not: the shared text is of shared values, the engine's `public_view` takes no seat."""
    shared = _Shared.of(snap, match, now)
    pieces = _Pieces.of(shared)
    payloads: dict[int | None, dict[str, Any]] = {}
    texts: dict[int | None, str] = {}
    for seat in receivers:
        own_view = match.seat_view(seat)
        payloads[seat] = payload = _payload(shared, match, seat, own_view)
        texts[seat] = pieces.text(payload, own_view)
    return payloads, texts


@dataclass(frozen=True)
class _Shared:
    """What every receiver of one change sees the same."""

    snap: Snapshot
    to_act: list[int]
    clock: dict[str, float]
    result: dict[str, Any] | None
    players: list[str]
    resigned: list[int]  # seats whose person resigned: a bot plays them out (docs/tables.md)
    last_action: dict[str, Any] | None  # everyone's form; `actor` gets `own_last` instead
    actor: int | None
    own_last: dict[str, Any] | None
    starts_in: float | None
    commitment: str | None
    public_view: dict[str, Any]

    @classmethod
    def of(cls, snap: Snapshot, match: Match, now: datetime | None) -> _Shared:
        finished = snap.status == FINISHED
        to_act = [] if finished else match.to_act()
        now = now or timezone.now()
        starts_by = (
            snap.clock_starts_by(to_act, now, match.deal_no) if snap.deadline is not None else None
        )
        seats = seats_of(snap.id, snap.seats_rev)
        return cls(
            snap,
            to_act,
            clock.clock_view(
                to_act, snap.deadline, snap.seconds_per_move, match.SEATS, now, starts_by
            ),
            snap.result if finished else None,
            [s.name for s in seats],
            [s.number for s in seats if s.resigned_user_id is not None],
            *_last_actions(match, snap.last_kind),
            None if starts_by is None else round((starts_by - now).total_seconds(), 1),
            match.commitment(),
            match.public_view(),
        )


def _payload(
    shared: _Shared, match: Match, seat: int | None, own_view: dict[str, Any]
) -> dict[str, Any]:
    """One receiver's state: the shared values and its own (`seat_view` is its part of the
    view). Its key order is `_Pieces.text`'s."""
    snap = shared.snap
    acting = seat is not None and seat in shared.to_act
    payload = {
        "type": "state",
        "table": snap.id,
        "seq": snap.seq,
        "seat": seat,
        "game": snap.game,
        "status": snap.status,
        "to_act": shared.to_act,
        "legal": match.legal(seat) if acting else [],
        "view": {**shared.public_view, **own_view},
        "clock": shared.clock,
        "result": shared.result,
        "players": shared.players,
        **({"resigned": shared.resigned} if shared.resigned else {}),
        "last_action": shared.own_last
        if seat is not None and seat == shared.actor
        else shared.last_action,
    }
    if shared.starts_in is not None:
        payload["clock_starts_in"] = shared.starts_in
    if acting:
        why_not = match.why_not(seat)  # a few microseconds: only for the seats to act
        if why_not is not None:  # None: bidding, trump, announcements (no card is chosen)
            payload["why_not"] = why_not
    if shared.commitment is not None:  # None only for an explicit deal without a salt
        payload["commitment"] = shared.commitment
    return payload


@dataclass(frozen=True)
class _Pieces:
    """The JSON text of what the receivers share, in pieces between which each receiver's
    own values go, in `_payload`'s key order (tests/gameplay/test_payload_sharing.py checks
    that every text is exactly `state_text` of its payload)."""

    head: str  # up to "seat":
    before_legal: str
    public_view: str
    after_view: str  # up to "last_action":
    last_action: str
    last_action_of: Any  # the shared `last_action` value
    starts_in: str
    end: str

    @classmethod
    def of(cls, shared: _Shared) -> _Pieces:
        snap = shared.snap
        middle = dumps({"game": snap.game, "status": snap.status, "to_act": shared.to_act})
        after = dumps(
            {
                "clock": shared.clock,
                "result": shared.result,
                "players": shared.players,
                **({"resigned": shared.resigned} if shared.resigned else {}),
            }
        )
        starts_in = shared.starts_in
        commitment = shared.commitment
        return cls(
            f'{{"type":"state","table":{dumps(snap.id)},"seq":{dumps(snap.seq)},"seat":',
            f',{middle[1:-1]},"legal":',
            dumps(shared.public_view),
            f',{after[1:-1]},"last_action":',
            dumps(shared.last_action),
            shared.last_action,
            "" if starts_in is None else f',"clock_starts_in":{dumps(starts_in)}',
            "}" if commitment is None else f',"commitment":{dumps(commitment)}}}',
        )

    def text(self, payload: dict[str, Any], own_view: dict[str, Any]) -> str:
        """`payload`'s JSON text (`own_view`: the receiver's part of its view)."""
        seat, legal, last = payload["seat"], payload["legal"], payload["last_action"]
        why_not = payload.get("why_not")
        return "".join(
            (
                self.head,
                "null" if seat is None else str(seat),  # a seat number: its JSON, cheaper
                self.before_legal,
                dumps(legal) if legal else "[]",
                ',"view":',
                _joined(self.public_view, dumps(own_view)),
                self.after_view,
                self.last_action if last is self.last_action_of else dumps(last),
                self.starts_in,
                "" if why_not is None else f',"why_not":{dumps(why_not)}',
                self.end,
            )
        )


def _joined(first: str, second: str) -> str:
    """The JSON text of one object with the keys of two, from their texts."""
    if first == "{}":
        return second
    if second == "{}":
        return first
    return f"{first[:-1]},{second[1:]}"


# `Action.Kind` as a state says it: who took the last action.
BY = {Action.Kind.PLAYER: "player", Action.Kind.BOT: "bot", Action.Kind.TIMEOUT: "clock"}


def last_action(match: Match, kind: str, receiver: int | None) -> dict[str, Any] | None:
    """The last action applied (`None` before any): its seat, the action and `by` whom it was
    taken ("player", "bot" or "clock"; None for a table from before this was kept). Only its own
    seat gets the whole action, while its deal goes on; everyone else gets its `act` alone,
    since an action may hold cards they may not see (a Saichugen commit, a discard) until the
    view shows them (and a card of the last deal may be in anyone's hand in the next one)."""
    public, actor, own = _last_actions(match, kind)
    return own if receiver is not None and receiver == actor else public


def _last_actions(
    match: Match, kind: str
) -> tuple[dict[str, Any] | None, int | None, dict[str, Any] | None]:
    """`last_action` for everyone, the seat that gets its own form instead (None: nobody, its
    deal or the match is over) and that form."""
    for deal in reversed(match.log):
        if deal[2]:
            entry = deal[2][-1]
            break
    else:
        return None, None, None
    seat = entry["seat"]
    by = BY.get(kind)
    public = {"seat": seat, "action": {"act": entry["act"]}, "by": by}
    if deal is match.log[-1] and not match.finished:
        own = {k: v for k, v in entry.items() if k != "seat"}
        return public, seat, {"seat": seat, "action": own, "by": by}
    return public, None, None


def waiting_payload(
    snap: Snapshot, seat: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """The `state` of a table that waits for players: nothing is dealt yet (the seed is not
    even drawn), so there is no card to show; `players` is null for an open seat."""
    seats = seats_of(snap.id, snap.seats_rev)
    n_seats = len(seats)  # a table's size is its seats (a three-player game at four: four)
    names = {s.number: s.name if (s.user_id or s.bot) else None for s in seats}
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
