"""Game analysis of a finished table (docs/bots.md, "Game analysis"): who may ask for it, the
per-account throttle, the job on the bots queue and the cached result.

One `TableAnalysis` row per table: asked for once (by a player of the table, or by anyone signed
in for a public table), computed once by `run` on the bots queue, and shown to everyone who may
watch the replay. A failed job, or one stuck longer than `GAMEPLAY_ANALYSIS_STALE` seconds, may
be asked for again. The evaluation itself is pure (`games.analysis`); in the embedded mode
(eager Celery) it runs in a process beside the server (`gameplay.services.analysts`), never on
the request's thread.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from gameplay import queue
from gameplay.models import Seat, Table, TableAnalysis
from gameplay.services import analysts
from gameplay.services import replay as replays
from games import analysis as evaluator
from games.core import replay as steps

logger = logging.getLogger(__name__)


class Throttled(Exception):
    """The account asked for more analyses this hour than `GAMEPLAY_ANALYSIS_PER_HOUR`."""


def may_request(table: Table, user: Any) -> bool:
    """A finished table's players may ask for its analysis, and anyone signed in may for a
    public one (spectators allowed, not private, not embargoed)."""
    if table.status != Table.Status.FINISHED or not getattr(user, "is_authenticated", False):
        return False
    if table.allow_spectators and not table.private and not table.embargoed:
        return True
    return Seat.objects.filter(table_id=table.id, user_id=user.pk).exists()


def _stale(row: TableAnalysis) -> bool:
    if row.status == TableAnalysis.Status.FAILED:
        return True
    if row.status == TableAnalysis.Status.DONE:
        return False
    limit = timedelta(seconds=settings.GAMEPLAY_ANALYSIS_STALE)
    return row.updated_at < timezone.now() - limit


def _throttled(user: Any) -> bool:
    since = timezone.now() - timedelta(hours=1)
    used = TableAnalysis.objects.filter(requested_by_id=user.pk, requested_at__gte=since).count()
    return used >= settings.GAMEPLAY_ANALYSIS_PER_HOUR


def request(table: Table, user: Any) -> TableAnalysis:
    """Queue the table's analysis unless it is done or under way (then the row as it is).
    `Throttled` when the account is over its hourly limit."""
    with transaction.atomic():
        row = TableAnalysis.objects.select_for_update().filter(table_id=table.id).first()
        if row is not None and not _stale(row):
            return row
        if _throttled(user):
            raise Throttled(
                gettext("You asked for %(n)s analyses in the last hour; try again later.")
                % {"n": settings.GAMEPLAY_ANALYSIS_PER_HOUR}
            )
        if row is None:
            row = TableAnalysis(table_id=table.id)
        row.status = TableAnalysis.Status.QUEUED
        row.result = None
        row.requested_by_id = user.pk
        row.requested_at = timezone.now()
        row.save()
        transaction.on_commit(lambda: _send(table.id))
    return row


def _send(table_id: str) -> None:
    if current_app.conf.task_always_eager and settings.GAMEPLAY_ANALYSIS_BESIDE:
        analysts.run_beside(table_id, job, store)
    else:
        queue.send(queue.ANALYSE_TABLE, table_id)


def _claim(table_id: str) -> bool:
    """Mark the job running; False when another worker runs it or nothing is queued."""
    stale = timezone.now() - timedelta(seconds=settings.GAMEPLAY_ANALYSIS_STALE)
    due = Q(status=TableAnalysis.Status.QUEUED) | Q(
        status=TableAnalysis.Status.RUNNING, updated_at__lt=stale
    )
    claimed = TableAnalysis.objects.filter(due, table_id=table_id).update(
        status=TableAnalysis.Status.RUNNING, updated_at=timezone.now()
    )
    return claimed == 1


def job(table_id: str) -> dict[str, Any] | None:
    """What the evaluation needs (record, the people's seats, budget), once claimed."""
    if not _claim(table_id):
        return None
    table = Table.objects.defer("state").get(pk=table_id)
    people = list(
        Seat.objects.filter(table_id=table_id, bot="")
        .order_by("number")
        .values_list("number", flat=True)
    )
    return {
        "record": replays.record_of(table),
        "seats": people,
        "iterations": settings.GAMEPLAY_ANALYSIS_ITERATIONS,
        "seed": table_id,
        "n_deals": table.n_deals,
    }


def compute(work: dict[str, Any]) -> dict[str, Any]:
    """The pure evaluation of a `job` (picklable in, JSON out: runs in any process)."""
    return evaluator.analyse_job(work)


def store(table_id: str, result: dict[str, Any] | None) -> None:
    """Keep the result (None: the job failed and may be asked for again)."""
    if result is None:
        TableAnalysis.objects.filter(table_id=table_id).update(
            status=TableAnalysis.Status.FAILED, updated_at=timezone.now()
        )
        return
    summary = {
        seat: {"accuracy": p["accuracy"], "marks": p["marks"], "decisions": p["decisions"]}
        for seat, p in result["players"].items()
    }
    TableAnalysis.objects.filter(table_id=table_id).update(
        status=TableAnalysis.Status.DONE, result=result, summary=summary, updated_at=timezone.now()
    )


def run(table_id: str) -> bool:
    """The bots queue's task: evaluate the table here and keep the result."""
    work = job(table_id)
    if work is None:
        return False
    try:
        result = compute(work)
    except Exception:
        logger.exception("analysis of table %s failed", table_id)
        store(table_id, None)
        return False
    store(table_id, result)
    return True


# ------------------------------------------------------------------ what a viewer reads
def _best_label(entry: dict[str, Any]) -> list[dict[str, Any]]:
    template, params = steps.action_label({**entry["best"], "seat": entry["seat"]})
    return steps.label_parts(gettext(template), params)


def state(table: Table, user: Any = None) -> dict[str, Any]:
    """The analysis as the replay page reads it: its status, and once done the result with the
    better decision's label in the reader's language. `may_request`: whether this reader may
    ask for it (again)."""
    row = TableAnalysis.objects.filter(table_id=table.id).first()
    status = "none" if row is None else row.status
    out: dict[str, Any] = {"status": status}
    if row is not None and row.status == TableAnalysis.Status.DONE and row.result:
        result = dict(row.result)
        result["decisions"] = [
            {**e, "best_label": _best_label(e)} if e.get("mark") else e for e in result["decisions"]
        ]
        out["result"] = result
    out["may_request"] = (row is None or _stale(row)) and may_request(table, user)
    return out


def accuracies(user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The account's accuracy per analysed public game, newest first (the player page)."""
    rows = (
        Seat.objects.filter(
            user_id=user_id,
            table__analysis__status=TableAnalysis.Status.DONE,
            table__allow_spectators=True,
            table__private=False,
            table__embargoed=False,
        )
        .values(
            "number", "table_id", "table__game", "table__finished_at", "table__analysis__summary"
        )
        .order_by("-table__finished_at")[:limit]
    )
    out = []
    for row in rows:
        mine = (row["table__analysis__summary"] or {}).get(str(row["number"]))
        if not mine or mine.get("accuracy") is None:
            continue
        out.append(
            {
                "table": row["table_id"],
                "game": row["table__game"],
                "finished_at": row["table__finished_at"],
                "accuracy": mine["accuracy"],
                "marks": mine["marks"],
                "decisions": mine["decisions"],
            }
        )
    return out
