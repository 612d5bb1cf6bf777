"""Whose move it is at turn-based tables ("by the day", docs/tables.md "Turn-based tables").

After every committed change of a turn-based table (`after_commit`), `mark_turns` brings the
seats' `due_since` up to date: set when a person's turn begins, cleared when it ends. A seat set
now is a new turn, so its person is told once (`turn_due`, which the league makes a notice of,
and the header's count on their open pages); the same turn is never announced twice, since the
set is a conditional UPDATE (two processes cannot both win it).

A person on vacation (`gameplay.services.vacation`) whose turn begins gets a clock that starts
when the vacation ends: the table's deadline is moved there (on the committed seq only).

`your_turns` is the "Your turn" list of My games; the header's count is `User.turns_waiting`,
which `recount` keeps (no query on every page); `count_your_turns` counts afresh.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from gameplay import clock
from gameplay.models import Seat, Table
from gameplay.runtime import cache
from gameplay.services import live
from gameplay.signals import announce, turn_due
from games import Match

PLAYING = Table.Status.PLAYING


def mark_turns(snap: cache.Snapshot, match: Match, now: datetime | None = None) -> cache.Snapshot:
    """Update the seats' turns after a committed change of a turn-based table, tell the people
    whose turn began, and return the snapshot (its deadline moved when a person on vacation
    became due). Nothing at a live table."""
    if not clock.is_turn_based(snap.seconds_per_move):
        return snap
    now = now or timezone.now()
    playing = snap.status == PLAYING and not match.finished
    due = set(match.to_act()) if playing else set()
    rows = list(
        Seat.objects.filter(table_id=snap.id).values_list(
            "pk", "number", "user_id", "bot", "due_since", "user__vacation_until"
        )
    )
    changed: set[int] = set()
    began: list[tuple[int, datetime | None]] = []
    for pk, number, user_id, bot, since, away_until in rows:
        person = user_id is not None and not bot
        if person and number in due:
            if since is None and Seat.objects.filter(pk=pk, due_since=None).update(due_since=now):
                began.append((user_id, away_until))
                changed.add(user_id)
        elif since is not None:
            Seat.objects.filter(pk=pk).update(due_since=None)
            if user_id is not None:
                changed.add(user_id)
    snap = _after_vacation(snap, [until for _, until in began], now)
    for user_id, _ in began:
        _announce(snap, user_id)
    for user_id in changed:
        live.to_user(user_id, {"type": "turns", "count": recount(user_id)})
    return snap


def recount(user_id: int) -> int:
    """Store the account's count of turn-based tables waiting for its move (`User.turns_waiting`,
    read by the header without a query) and return it. One statement computes and writes it, so
    two tables changing at once leave the count of the later statement, which saw both."""
    due = (
        Seat.objects.filter(user_id=OuterRef("pk"), due_since__isnull=False, table__status=PLAYING)
        .order_by()
        .values("user_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    accounts = get_user_model().objects.filter(pk=user_id)
    accounts.update(turns_waiting=Coalesce(Subquery(due), 0))
    return accounts.values_list("turns_waiting", flat=True).first() or 0


def _after_vacation(
    snap: cache.Snapshot, away_until: list[datetime | None], now: datetime
) -> cache.Snapshot:
    """The snapshot with its clock starting when the vacation of a person whose turn began ends
    (the latest of them), if that makes the deadline later; the row moved on this seq only."""
    ends = [u for u in away_until if u is not None and u > now]
    if not ends or snap.deadline is None:
        return snap
    deadline = max(ends) + timedelta(seconds=snap.seconds_per_move)
    if deadline <= snap.deadline:
        return snap
    moved = Table.objects.filter(
        pk=snap.id, seq=snap.seq, status=PLAYING, deadline=snap.deadline
    ).update(deadline=deadline)
    return replace(snap, deadline=deadline) if moved else snap


def _announce(snap: cache.Snapshot, user_id: int) -> None:
    """`turn_due` to the site (the league's notice); a receiver that fails is only logged."""
    announce(
        turn_due,
        "turn_due",
        snap.id,
        user_id=user_id,
        game=snap.game,
        seq=snap.seq,
        deadline=snap.deadline,
    )


def _due_seats(user: Any) -> QuerySet[Seat]:
    user_id = getattr(user, "pk", user)
    return Seat.objects.filter(user_id=user_id, due_since__isnull=False, table__status=PLAYING)


def count_your_turns(user: Any) -> int:
    """How many turn-based tables wait for this account's move (one query)."""
    return _due_seats(user).count()


def your_turns(user: Any, limit: int = 100) -> list[Table]:
    """The turn-based tables waiting for this account's move, the nearest deadline first (one
    query; each table carries its `seats` prefetched: two in all; none when the account's
    stored count says there are none)."""
    if getattr(user, "turns_waiting", 1) == 0:
        return []
    seats = _due_seats(user).values_list("table_id", flat=True)
    return list(
        Table.objects.filter(pk__in=seats, status=PLAYING)
        .defer("state", "record")
        .prefetch_related("seats")
        .order_by("deadline", "id")[:limit]
    )
