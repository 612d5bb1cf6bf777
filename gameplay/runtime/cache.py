"""What a table server process keeps in memory: each table's seats, and its live match.

Seats are read once per process and revision: they change only through the lobby (join, leave,
resign), which bumps the table's `seats_rev`, and a caller holding a newer revision (from a
snapshot or the row) reads them again. The live match
cache maps a table id to (seq, match, snapshot): the engine state after `seq` actions and the
table row's fields at that seq (when known). An entry is *taken* by the writer (exclusively: the
engine mutates in place) and put back after commit, so a rolled-back transaction can never
leave a changed match behind; readers get a clone. With a snapshot, `play_action` need not read
the row at all: its claim checks the seq anyway.

`GAMEPLAY_MATCH_CACHE = False` (read on every call) turns the match cache off: every move then
reads the row and the state column. The service tests run both ways.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from gameplay import clock
from gameplay.models import Seat, Table
from games import Match


# ------------------------------------------------------------------ seats (per revision)
@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str
    user_id: int | None
    bot: str
    bot_level: str  # "" for a person's seat
    resigned_user_id: int | None = None  # a person who resigned; the bot plays on for them
    connected_at: datetime | None = None  # the person's first connection (gameplay/clock.py)
    ready_deal: int = 0  # the last deal whose start the person is ready for (`ready`)

    @property
    def connected(self) -> bool:
        """Whether the seat's clock may run: a bot at once, a person from their first
        connection to the table."""
        return bool(self.bot) or self.connected_at is not None


_seats: dict[str, tuple[int, tuple[SeatInfo, ...]]] = {}


def seats_of(table_id: str, rev: int | None = None) -> tuple[SeatInfo, ...]:
    """A table's seats in seat order, read once per process and seats revision: `rev` (the
    table's `seats_rev` as the caller knows it) newer than the cached one reads them again;
    `None` takes whatever is cached."""
    cached = _seats.get(table_id)
    if cached is not None and (rev is None or cached[0] >= rev):
        return cached[1]
    seats = tuple(
        SeatInfo(*row)
        for row in Seat.objects.filter(table_id=table_id)
        .order_by("number")
        .values_list(
            "number",
            "name",
            "user_id",
            "bot",
            "bot_level",
            "resigned_user_id",
            "connected_at",
            "ready_deal",
        )
    )
    if len(_seats) > 10_000:
        _seats.clear()
    _seats[table_id] = (rev if rev is not None else -1, seats)
    return seats


def bot_seats(table_id: str, rev: int | None = None) -> set[int]:
    return {s.number for s in seats_of(table_id, rev) if s.bot}


def resigned_seats(table_id: str, rev: int | None = None) -> set[int]:
    """Seats whose person resigned: a bot plays them, nobody else may act for them."""
    return {s.number for s in seats_of(table_id, rev) if s.resigned_user_id is not None}


def unseen_seats(table_id: str, rev: int | None = None) -> set[int]:
    """Seats whose person has never connected to the table (their clock waits for them)."""
    return {s.number for s in seats_of(table_id, rev) if not s.connected}


def unready_seats(table_id: str, deal: int, rev: int | None = None) -> set[int]:
    """Seats whose person has not dismissed the summary before `deal` (their first decision's
    clock waits for them, up to the table's `summary_until`)."""
    return clock.unready(
        ((s.number, bool(s.bot), s.ready_deal) for s in seats_of(table_id, rev)), deal
    )


# ------------------------------------------------------------------ the table row at a seq
@dataclass(frozen=True)
class Snapshot:
    """The table fields a move and a state message need, as committed at `seq`."""

    id: str
    game: str
    seq: int
    status: str
    deadline: datetime | None
    seconds_per_move: int
    allow_spectators: bool
    rated: bool
    result: dict[str, Any] | None
    finished_at: datetime | None
    forfeited_seats: list[int]
    seats_rev: int = 0
    # The end of the connect grace (the deal + `connect_grace`): until then the clock of a seat
    # that has not connected yet waits for it (gameplay/clock.py). None: no clock, or no deal.
    grace_until: datetime | None = None
    last_kind: str = ""  # the kind of the action at `seq` (`Action.Kind`; "" before any)
    # Until when the last deal's summary may hold the clock of a person who has not dismissed it
    # (`Table.summary_until`; gameplay/clock.py). None: no clock, or no deal has ended.
    summary_until: datetime | None = None

    @classmethod
    def of(cls, table: Table) -> Snapshot:
        grace_until = None
        if table.dealt_at is not None and table.seconds_per_move > 0:
            grace_until = table.dealt_at + timedelta(seconds=table.connect_grace)
        return cls(
            table.id,
            table.game,
            table.seq,
            table.status,
            table.deadline,
            table.seconds_per_move,
            table.allow_spectators,
            table.rated,
            table.result,
            table.finished_at,
            list(table.forfeited_seats or []),
            table.seats_rev,
            grace_until,
            table.last_kind,
            table.summary_until if table.seconds_per_move > 0 else None,
        )

    def clock_starts_by(self, to_act: list[int], now: datetime, deal: int = 0) -> datetime | None:
        """When the clock of the seats `to_act` starts at the latest, if one of them has not
        connected yet, or (at `deal` > 0) has not dismissed the last deal's summary
        (`clock.clock_starts_by` of each hold, the later); None: it runs. Reads no row: the
        seats come from this process's cache, and only while a hold lasts."""
        grace = held = None
        if self.grace_until is not None and now < self.grace_until:
            unseen = unseen_seats(self.id, self.seats_rev)
            grace = clock.clock_starts_by(to_act, unseen, self.grace_until, now)
        if self.summary_until is not None and now < self.summary_until and deal > 0:
            unready = unready_seats(self.id, deal, self.seats_rev)
            held = clock.clock_starts_by(to_act, unready, self.summary_until, now)
        return clock.later(grace, held)


# ------------------------------------------------------------------ live matches
_SIZE = 4096
_live: OrderedDict[str, tuple[int, Match, Snapshot | None]] = OrderedDict()
_lock = threading.Lock()


def enabled() -> bool:
    """Whether this process keeps live matches (`GAMEPLAY_MATCH_CACHE`, default on)."""
    return getattr(settings, "GAMEPLAY_MATCH_CACHE", True)


def take(table_id: str, seq: int) -> Match | None:
    """Take the table's match if it is cached at exactly `seq` (any other entry is dropped)."""
    with _lock:
        item = _live.pop(table_id, None)
    return item[1] if item is not None and item[0] == seq else None


def take_live(table_id: str, seq: int) -> tuple[int, Match, Snapshot] | None:
    """Take the match cached at `seq` or before it, with its seq and snapshot (None: not
    cached as such, and the entry stays)."""
    if not enabled():
        return None
    with _lock:
        item = _live.get(table_id)
        if item is None or item[0] > seq or item[2] is None:
            return None
        del _live[table_id]
    return item[0], item[1], item[2]


def peek(table_id: str, seq: int) -> Match | None:
    """A clone of the match cached at exactly `seq`."""
    with _lock:
        item = _live.get(table_id)
        if item is None or item[0] != seq:
            return None
        return item[1].clone()


def put(table_id: str, seq: int, match: Match, snap: Snapshot | None = None) -> None:
    """Cache `match` at `seq` (never over a later seq: writers of another thread may be ahead)."""
    if not enabled():
        return
    with _lock:
        current = _live.get(table_id)
        if current is not None and current[0] > seq:
            return
        _live[table_id] = (seq, match, snap)
        _live.move_to_end(table_id)
        while len(_live) > _SIZE:
            _live.popitem(last=False)


def forget(table_id: str | None = None) -> None:
    """Drop cached matches, and with no table id the seats too (tests simulate a restart)."""
    with _lock:
        if table_id is None:
            _live.clear()
            _seats.clear()
        else:
            _live.pop(table_id, None)
