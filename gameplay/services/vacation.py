"""Vacation (docs/tables.md, "Vacation"): an account's clocks at turn-based tables paused.

A person going away for a few days says so on their profile page: for that many days their
turn-based clocks stand still, up to `GAMEPLAY_VACATION_DAYS_PER_YEAR` days a calendar year.

- Starting: every turn-based table waiting for their move gets its deadline moved on by the
  vacation's length (they lose none of the time they had), and a turn that begins while they are
  away gets a clock that starts when the vacation ends (`turns.mark_turns`).
- The days are counted when the vacation starts; ending it early gives back the whole days not
  used, and the waiting tables' deadlines come back by the time not used (as if the vacation had
  been that long).
- Live tables are not paused: they are played in one sitting.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from gameplay import clock
from gameplay.models import Seat, Table
from gameplay.runtime import cache
from gameplay.services.lobby import LobbyError

PLAYING = Table.Status.PLAYING


def days_per_year() -> int:
    """`GAMEPLAY_VACATION_DAYS_PER_YEAR`: the days of vacation an account has a year."""
    return int(getattr(settings, "GAMEPLAY_VACATION_DAYS_PER_YEAR", 14))


@dataclass(frozen=True)
class Vacation:
    """An account's vacation as its profile shows it: `until` while away (else None), the days
    left this year and the year's allowance."""

    until: datetime | None
    days_left: int
    per_year: int

    @property
    def away(self) -> bool:
        return self.until is not None


def _used(user: Any, now: datetime) -> int:
    return user.vacation_days_used if user.vacation_year == now.year else 0


def status(user: Any, now: datetime | None = None) -> Vacation:
    """The account's vacation now (no query: its own fields)."""
    now = now or timezone.now()
    until = user.vacation_until if user.vacation_until and user.vacation_until > now else None
    return Vacation(until, max(0, days_per_year() - _used(user, now)), days_per_year())


def _account(user: Any) -> Any:
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyError(403, gettext("Log in to play at a table."))
    if getattr(user, "is_guest", False):
        raise LobbyError(403, gettext("Sign up to take a vacation from your tables."))
    return get_user_model().objects.select_for_update().get(pk=user.pk)


def start(user: Any, days: Any) -> Vacation:
    """Go on vacation for `days` whole days from now; `LobbyError(400/409)` changes nothing."""
    now = timezone.now()
    with transaction.atomic():
        account = _account(user)
        left = status(account, now).days_left
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise LobbyError(400, gettext("Give the vacation's length in whole days, 1 or more."))
        if status(account, now).away:
            raise LobbyError(409, gettext("You are on vacation already."))
        if days > left:
            raise LobbyError(
                409,
                gettext("You have %(left)d days of vacation left this year, not %(days)d.")
                % {"left": left, "days": days},
            )
        until = now + timedelta(days=days)
        account.vacation_days_used = _used(account, now) + days
        account.vacation_year = now.year
        account.vacation_from, account.vacation_until = now, until
        account.save(
            update_fields=["vacation_days_used", "vacation_year", "vacation_from", "vacation_until"]
        )
        _move_deadlines(account.pk, until - now)
    _copy(account, user)
    return status(account, now)


def end(user: Any) -> Vacation:
    """Come back early: the whole days not used are given back, the clocks run again."""
    now = timezone.now()
    with transaction.atomic():
        account = _account(user)
        if not status(account, now).away:
            raise LobbyError(409, gettext("You are not on vacation."))
        unused = account.vacation_until - now
        if account.vacation_year == now.year:
            account.vacation_days_used = max(0, account.vacation_days_used - unused.days)
        account.vacation_until = now
        account.save(update_fields=["vacation_days_used", "vacation_until"])
        _move_deadlines(account.pk, -unused)
    _copy(account, user)
    return status(account, now)


def _copy(account: Any, user: Any) -> None:
    for field in ("vacation_days_used", "vacation_year", "vacation_from", "vacation_until"):
        setattr(user, field, getattr(account, field))


def _move_deadlines(user_id: int, by: timedelta) -> int:
    """Move on (or back) the deadlines of the turn-based tables waiting for this person's move;
    each move is conditional on the deadline read, and the table leaves this process's cache so
    its next move reads the row."""
    waiting = Table.objects.filter(
        status=PLAYING,
        seconds_per_move__gte=clock.DAY,
        deadline__isnull=False,
        pk__in=Seat.objects.filter(user_id=user_id, due_since__isnull=False).values("table_id"),
    )
    moved = 0
    for table_id, seq, deadline in waiting.values_list("id", "seq", "deadline"):
        if Table.objects.filter(pk=table_id, seq=seq, deadline=deadline).update(
            deadline=deadline + by
        ):
            moved += 1
            transaction.on_commit(lambda table_id=table_id, seq=seq: cache.take(table_id, seq))
    return moved
