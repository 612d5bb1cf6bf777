"""Timeouts at turn-based tables (docs/tables.md, "Turn-based tables"): claimed, or swept.

A live clock that runs out plays a default move at once (`clocks.py`). By the day that would
drag a table on for days a move behind an absent player, so a deadline that passed is settled as
a card table settles an absent player: the other people may **claim the timeout** (the table
page's button, `POST /api/tables/<id>/claim-timeout/`), and the late players' seats are handed
to a built-in bot, as if they had resigned (`lobby.resign_seat`): the match plays on for those
who stayed, and counts as a forfeit for those who timed out. Nobody claiming, the clock sweep
does the same `GAMEPLAY_TURN_TIMEOUT_GRACE` seconds after the deadline. At a three- or
four-player table one late player never ends the match for the others.

An event's turn-based table (origin `event`) is its organizers' to settle: its clock keeps the
table's `on_timeout` (a forfeit or a default move), applied by the sweep after the same grace.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from gameplay import clock
from gameplay.models import Seat, Table
from gameplay.services import lobby
from gameplay.services.lobby import LobbyError
from gameplay.services.matches import load_match

PLAYING = Table.Status.PLAYING


def claim_grace() -> int:
    """Seconds after a turn-based deadline before the sweep applies the timeout itself."""
    return int(getattr(settings, "GAMEPLAY_TURN_TIMEOUT_GRACE", clock.DAY))


def late_seats(table: Table, seats: list[Seat], now: datetime) -> list[Seat]:
    """The seats of people whose turn-based deadline has passed (none before it)."""
    if table.status != PLAYING or table.deadline is None or table.deadline > now:
        return []
    due = set(load_match(table).to_act())
    return [s for s in seats if s.number in due and s.user_id is not None and not s.bot]


def claimable(table: Table, user: Any, now: datetime | None = None) -> bool:
    """Whether `user` may claim a timeout at this table now (the table page's button)."""
    if not _claimable_table(table) or not getattr(user, "is_authenticated", False):
        return False
    if table.deadline is None or table.deadline > (now or timezone.now()):
        return False
    seats = list(table.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    late = late_seats(table, seats, now or timezone.now())
    return mine is not None and bool(late) and all(s.pk != mine.pk for s in late)


def _claimable_table(table: Table) -> bool:
    return (
        clock.is_turn_based(table.seconds_per_move)
        and table.status == PLAYING
        and table.origin != Table.Origin.EVENT
    )


def claim_timeout(user: Any, table_id: Any) -> list[int]:
    """Claim the timeout of the late players at a turn-based table you sit at: their seats go
    to a bot (a forfeit for them), the match plays on. Returns the seats timed out; a
    `LobbyError` (403, 404, 409) changes nothing."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyError(403, gettext("Log in to play at a table."))
    now = timezone.now()
    with transaction.atomic():
        table = lobby.locked_table(table_id)
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise LobbyError(403, gettext("You do not sit at this table."))
        if not clock.is_turn_based(table.seconds_per_move):
            raise LobbyError(
                409, gettext("Only a turn-based table's timeout is claimed; a live clock acts.")
            )
        if table.origin == Table.Origin.EVENT:
            raise LobbyError(409, gettext("An event's table is settled by its organizers."))
        if table.status != PLAYING:
            raise LobbyError(409, gettext("This table is over; there is nothing to claim."))
        late = late_seats(table, seats, now)
        if not late:
            raise LobbyError(409, gettext("Nobody's time has run out at this table."))
        if any(s.pk == mine.pk for s in late):
            raise LobbyError(409, gettext("Your own time has run out: make your move."))
        return _time_out(table, late)


def _time_out(table: Table, late: list[Seat]) -> list[int]:
    """Hand the late seats to a bot (inside the transaction that locked the table)."""
    for seat in late:
        lobby.resign_seat(table, seat)
    return [s.number for s in late]


def sweep_turn_based(now: datetime | None = None, limit: int = 500) -> int:
    """Apply the timeouts nobody claimed, `claim_grace()` after their deadline (the clock
    sweep). Returns how many seats timed out. Safe beside a claim (the row is locked and
    re-read)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=claim_grace())
    due = Table.objects.filter(
        status=PLAYING, deadline__lte=cutoff, seconds_per_move__gte=clock.DAY
    ).exclude(origin=Table.Origin.EVENT)
    timed_out = 0
    for table_id in due.order_by("deadline").values_list("id", flat=True)[:limit]:
        with transaction.atomic():
            table = lobby.locked_table(table_id)
            seats = list(Seat.objects.filter(table=table).order_by("number"))
            if table.deadline is None or table.deadline > cutoff:
                continue
            timed_out += len(_time_out(table, late_seats(table, seats, now)))
    return timed_out
