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
from django.db.models import Q, Subquery
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from gameplay import queue
from gameplay.models import Action, Seat, Table, TableAnalysis
from gameplay.services import analysts
from gameplay.services import replay as replays
from games import analysis as evaluator
from games import registry
from games.core import replay as steps
from games.core.errors import RecordError

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


def _people(table: Table) -> tuple[list[int], list[int]]:
    """The seats of people (a resigned one too) that made a decision, and the record's places
    (from 0) of the actions they chose themselves: the log's `player` actions, not a bot's
    after a resignation nor a timeout's default. One query."""
    people = Seat.objects.filter(table_id=table.id).filter(
        Q(bot="") | Q(resigned_user__isnull=False)
    )
    made = Action.objects.filter(
        table_id=table.id, kind=Action.Kind.PLAYER, seat__in=Subquery(people.values("number"))
    ).values_list("seat", "seq")
    rows = list(made)
    return sorted({seat for seat, _ in rows}), [seq - 1 for _, seq in rows]


def has_decision(table: Table) -> bool:
    """Whether a person made a decision at the table with something to choose: without one
    there is nothing to analyse (no job, no quota)."""
    seats, made = _people(table)
    if not seats or not made:
        return False
    try:
        record = replays.record_of(table)
        return evaluator.choices(record, seats, made, n_deals=table.n_deals) > 0
    except RecordError:  # a record that does not replay: the job says so (failed), not the page
        logger.warning("table %s: its record does not replay", table.id)
        return True


def _nothing(table: Table) -> dict[str, Any]:
    """The result of a table with no decision of a person: kept like a done analysis, so the
    page says so and nobody is offered to ask again."""
    return {"version": evaluator.VERSION, "game": table.game, "nothing": True, "decisions": []}


def request(table: Table, user: Any) -> TableAnalysis:
    """Queue the table's analysis unless it is done or under way (then the row as it is).
    A table without a decision of a person is answered at once (`_nothing`) without counting
    against the account. `Throttled` when the account is over its hourly limit."""
    with transaction.atomic():
        row = TableAnalysis.objects.select_for_update().filter(table_id=table.id).first()
        if row is not None and not _stale(row):
            return row
        if not has_decision(table):
            row = row or TableAnalysis(table_id=table.id)
            row.status = TableAnalysis.Status.DONE
            row.result, row.summary, row.requested_by = _nothing(table), {}, None
            row.save()
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
    people, made = _people(table)
    return {
        "record": replays.record_of(table),
        "seats": people,
        "made": made,
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
    template, params = steps.proposal_label({**entry["best"], "seat": entry["seat"]})
    return steps.label_parts(gettext(template), params)


def _number(x: float, places: int | None = None) -> str:
    """A number in the reader's language: at most two decimals, or `places` exactly."""
    if places is not None:
        return number_format(x, places)
    x = round(x, 2) + 0.0  # + 0.0: no "-0"
    return number_format(int(x) if x.is_integer() else x)


def amount(game: str, x: float) -> str:
    """`x` payout units of `game` in words: "21,2 Strafpunkte", "1 trick", "0.55 tricks" (the
    game's `PAYOUT_UNIT`). A fraction takes the plural form, as in every language served."""
    singular, plural = registry.get_game(game).engine.PAYOUT_UNIT
    x = round(x, 2)
    count = int(x) if float(x).is_integer() else 2
    return ngettext(singular, plural, abs(count)) % {"n": _number(x)}


def _texts(result: dict[str, Any]) -> dict[str, Any]:
    """The result with the figures a person reads, worded in the reader's language (units,
    plurals, decimals); `%(who)s` stays for the page, which names the seats."""
    game = result["game"]
    who = {"who": "%(who)s"}
    out = dict(result)
    entries = []
    for e in result["decisions"]:
        e = dict(e)
        if e.get("mark"):
            e["best_label"] = _best_label(e)
            e["cost_text"] = gettext("costs %(cost)s on average") % {
                "cost": amount(game, e["loss"])
            }
        if e.get("dd_loss"):
            e["dd_text"] = gettext("With all cards open: %(cost)s below the best card") % {
                "cost": amount(game, e["dd_loss"])
            }
        entries.append(e)
    out["decisions"] = entries
    deals = []
    for d in result.get("deals", []):
        seats = {}
        for seat, v in d["seats"].items():
            v = dict(v)
            v["loss_text"] = gettext(
                "This deal, %(who)s: ?! %(i)s · ? %(m)s · ?? %(b)s — together they cost %(cost)s"
            ) % {**who, "cost": amount(game, v["loss"]), **_counts(v["marks"])}
            dd = v.get("dd")
            if dd:
                line = (
                    gettext(
                        "With all cards open from trick %(trick)s on, the most %(who)s and their"
                        " partner could be sure of against the other side: %(best)s; made:"
                        " %(made)s"
                    )
                    if dd.get("partners")
                    else gettext(
                        "With all cards open from trick %(trick)s on, the most %(who)s could be"
                        " sure of against all the others together: %(best)s; made: %(made)s"
                    )
                )
                v["dd_text"] = line % {
                    **who,
                    "trick": dd.get("from_trick", "?"),
                    "best": amount(game, dd["best"]),
                    "made": amount(game, dd["made"]),
                }
            elif result.get("double_dummy") and v.get("decisions"):
                v["dd_text"] = gettext(
                    "With all cards open: not worked out for this deal (too many cards left to"
                    " search)."
                )
            seats[seat] = v
        deals.append({**d, "seats": seats})
    out["deals"] = deals
    players = {}
    for seat, p in result.get("players", {}).items():
        pct = "\u2013" if p["accuracy"] is None else f"{_number(p['accuracy'], 1)} %"
        match_line = gettext(
            "Whole match, %(who)s: accuracy %(pct)s — ?! %(i)s · ? %(m)s · ?? %(b)s — together"
            " they cost %(cost)s"
        )
        players[seat] = {
            **p,
            "accuracy_text": pct,
            "text": match_line
            % {**who, "pct": pct, "cost": amount(game, p["loss"]), **_counts(p["marks"])},
        }
    out["players"] = players
    return out


def _counts(marks: dict[str, int]) -> dict[str, int]:
    return {"i": marks["inaccuracy"], "m": marks["mistake"], "b": marks["blunder"]}


def state(table: Table, user: Any = None) -> dict[str, Any]:
    """The analysis as the replay page reads it: its status, and once done the result worded in
    the reader's language (`_texts`). `may_request`: whether this reader may ask for it
    (again); `nothing`: the table has no decision of a person, there is nothing to analyse."""
    row = TableAnalysis.objects.filter(table_id=table.id).first()
    status = "none" if row is None else row.status
    out: dict[str, Any] = {"status": status}
    if row is not None and row.status == TableAnalysis.Status.DONE and row.result:
        result = evaluator.upgrade(row.result)
        if result.get("nothing") or not result["decisions"]:
            out["nothing"] = True
        else:
            out["result"] = _texts(result)
    may = (row is None or _stale(row)) and may_request(table, user)
    if may and row is None and not has_decision(table):
        may, out["nothing"] = False, True
    if out.get("nothing"):
        out["detail"] = gettext("Nothing to analyse: no decision of a person at this table.")
    out["may_request"] = may
    return out


def accuracies(user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The account's accuracy per analysed public game, newest first (the player page)."""
    rows = (
        Seat.objects.filter(
            Q(user_id=user_id) | Q(resigned_user_id=user_id),
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
