"""The league's side of the one door: what a finished table becomes, decided once.

gameplay announces a finished match (`match_finished`, after commit); the league's one receiver
(league/receivers.py) queues one task with the table's reference (`league.queue.finish_table`),
which runs here, never on the move's path: the table's outcome is read once through
`gameplay.api.table_result`, and it becomes either the counted result of its fixture (then
standings, ratings and notices follow from that result) or a rated friendly match. A task that
never ran (the process died, the broker was down) is made up by `catch_up`, from the sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from gameplay import api as gameplay
from league.errors import LeagueError
from league.models import Fixture, RatedMatch, Result, Round
from league.ratings.services import record_friendly_match
from league.services.results import record_result

log = logging.getLogger(__name__)

# How far back the sweep looks for finished tables whose task was lost.
CATCH_UP = timedelta(days=1)


def finish_table(table_ref: str) -> None:
    """Count a finished table (the task's body); running it again changes nothing."""
    finished = gameplay.table_result(table_ref)
    if finished is None:
        log.error("table %s announced its end but has no result", table_ref)
        return
    count_table(table_ref, finished)


def count_table(table_ref: str, finished: dict[str, Any]) -> None:
    """The table of a fixture gives the fixture its result; any other table may be rated.

    An organizer may have entered a fixture's result by hand (say the players met over the
    table after all); that one stands, and correcting it stays the organizer's decision.
    """
    fixture = Fixture.objects.filter(table_ref=table_ref).select_related("round__event").first()
    if fixture is None:
        record_friendly_match(
            table_ref=table_ref,
            result=finished["result"],
            seats=finished["seats"],
            rated=finished["rated"],
            finished_at=finished["finished_at"],
            forfeited_seats=finished["forfeited_seats"],
        )
        return
    if fixture.results.filter(current=True).exists():
        log.info("table %s finished, but %s already has a result", table_ref, fixture)
        return
    try:
        record_result(
            fixture,
            by=None,
            record=finished["record"],
            forfeited_seats=list(finished.get("forfeited_seats") or []),
            source=Result.Source.ONLINE,
        )
    except LeagueError:
        log.exception("the record of table %s was refused for %s", table_ref, fixture)


def catch_up(since: datetime, until: datetime) -> int:
    """Count the tables that finished in [since, until] whose task never ran: fixtures' tables
    without a result, and rated friendly tables without a rated match; returns how many.
    Each is read once and decided by `count_table`, as the task would have."""
    waiting = set(
        Fixture.objects.exclude(table_ref="")
        .exclude(results__current=True)
        .filter(round__status=Round.Status.PUBLISHED)
        .values_list("table_ref", flat=True)
    )
    known = set(
        RatedMatch.objects.filter(finished_at__gte=since, finished_at__lte=until).values_list(
            "table_ref", flat=True
        )
    )
    waiting |= {
        t["table_ref"]
        for t in gameplay.finished_rated_tables(since, until)
        if t["table_ref"] not in known
    }
    counted = 0
    for table_ref in sorted(waiting):
        finished = gameplay.table_result(table_ref)  # None while it is being played
        if finished is not None and since <= finished["finished_at"] <= until:
            count_table(table_ref, finished)
            counted += 1
    return counted


def sweep(grace_seconds: float = 60.0) -> int:
    """`catch_up` over the last day, but for the last `grace_seconds` (their task may be on
    its way). Run by beat before the ratings' sweep (league.tasks.sweep_ratings)."""
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    return catch_up(cutoff - CATCH_UP, cutoff)
