"""Result pages: the organizer's result form (the game's score grid first; a record or a JSON
sheet as the other ways), the grid's live check (running totals and problems as it is typed),
and results from the table — a player's grid, the others' confirmations or rejections, and the
organizer's choice between disputed versions, side by side.

Every view authorizes before it reads or writes; the services authorize again.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from gameplay import api as gameplay
from games import catalogue
from league.errors import LeagueError, ResultChanged
from league.forms.events import ResultForm
from league.forms.result_entry import RejectForm, ResultDetailsForm, ScoreGrid
from league.models import Event, Fixture, Result, ResultSubmission, Round, Seat
from league.services import absences, table_results
from league.services import results as result_services
from league.services.permissions import can_manage, can_see

GET_OR_POST = ["GET", "HEAD", "POST"]


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event):
        raise Http404("no such event")
    return event


def _fixture(event: Event, fixture_id: int) -> tuple[Fixture, list[Seat]]:
    fixture = get_object_or_404(
        Fixture.objects.select_related("round").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
        ),
        pk=fixture_id,
        round__event=event,
    )
    fixture.round.event = event
    return fixture, list(fixture.seats.all())


def _names(seats: list[Seat]) -> list[str]:
    return [s.player.name for s in seats]


def _round_url(event: Event, fixture: Fixture) -> str:
    return reverse("league:round", args=[event.slug, fixture.round.number])


def _opening_grid(
    request: HttpRequest, event: Event, names: list[str], grid: Any, layout: str
) -> ScoreGrid:
    """The grid a page opens with: `grid` (a counting result's or a submission's) in its own
    layout, unless the page asks for another layout (`?layout=`), which opens blank."""
    asked = request.GET.get("layout") or layout
    if grid and asked == layout:
        return ScoreGrid(event, names, grid, layout=layout)
    return ScoreGrid(event, names, [], layout=asked)


def _grid_problems(grid: ScoreGrid, exc: LeagueError) -> None:
    """A refusal of the services, shown in the grid: beside its field if it names one."""
    problems = getattr(exc, "problems", None)
    whole = {"deal": None, "field": None, "seat": None, "reason": str(exc), "message": str(exc)}
    grid.add_problems(problems or [whole])


# --- the organizer's result form --------------------------------------------------------------


def _versions(submissions: list[ResultSubmission], event: Event, names: list[str]) -> Any:
    """Open grids from the table side by side: per deal each version's fields and payouts,
    the cells where they differ marked."""
    grids = [ScoreGrid(event, names, s.grid, layout=s.grid_layout) for s in submissions]
    n = max((len(s.scored["deals"]) for s in submissions), default=0)
    rows = []
    for d in range(n):
        cells = []
        for sub, grid in zip(submissions, grids, strict=True):
            deals = sub.scored["deals"]
            cells.append(
                {
                    "lines": grid.describe_row(d),
                    "payouts": deals[d]["payouts"] if d < len(deals) else None,
                }
            )
        differs = (
            len({json.dumps(c["payouts"]) for c in cells}) > 1
            or len({tuple(c["lines"]) for c in cells}) > 1
        )
        rows.append({"number": d + 1, "cells": cells, "differs": differs})
    return rows


def _submission_rows(submissions: list[ResultSubmission]) -> list[dict[str, Any]]:
    return [
        {
            "submission": s,
            "agree": [v.player.name for v in s.votes.all() if v.agrees],
            "reject": [(v.player.name, v.reason) for v in s.votes.all() if not v.agrees],
        }
        for s in submissions
    ]


@login_required
@require_http_methods(GET_OR_POST)
def result_enter(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """Enter or correct a table's result: the score grid (a correction opens filled in with
    the counting version), or a record, or a JSON sheet."""
    event = get_object_or_404(Event, slug=slug)
    if not can_manage(request.user, event):
        raise PermissionDenied(_("only this event's organizers may do that"))
    fixture, seats = _fixture(event, fixture_id)
    names = _names(seats)
    current = fixture.results.filter(current=True).first()
    version = current.version if current else 0
    initial = {"version": version}
    prefill_forfeits = [str(s) for s in (current.forfeited_seats if current else [])]
    grid = _opening_grid(
        request,
        event,
        names,
        current.grid if current else None,
        current.grid_layout if current and current.grid else catalogue.FULL_GRID,
    )
    details = ResultDetailsForm(
        initial={**initial, "forfeited": prefill_forfeits}, names=names, prefix="result"
    )
    other_initial = dict(initial)
    if current and current.sheet and not current.grid:
        other_initial["sheet_text"] = json.dumps(current.sheet)
    if current and current.forfeited_seats:
        other_initial["forfeited_seats"] = ", ".join(map(str, current.forfeited_seats))
    other = ResultForm(initial=other_initial)
    status = 200
    changed = None  # another result counted meanwhile (ResultChanged): shown, theirs kept
    if request.method == "POST" and request.POST.get("mode") == "grid":
        grid = ScoreGrid.from_data(event, names, request.POST)
        details = ResultDetailsForm(request.POST, names=names, prefix="result")
        if details.is_valid():
            try:
                if details.absent_seats():  # the deals typed are those played before
                    full = grid.layout == catalogue.FULL_GRID  # kept as typed, to reopen
                    absences.mark_absent(  # the short layout's deals go as their sheet
                        fixture,
                        by=request.user,
                        seats=details.absent_seats(),
                        after_deal=len(grid.rows),
                        grid=(grid.rows or None) if full else None,
                        sheet=None
                        if full or not grid.rows
                        else result_services.sheet_of_grid(
                            event, grid.rows, grid.layout, n_seats=len(names)
                        ),
                    )
                else:
                    result_services.record_result(
                        fixture,
                        by=request.user,
                        grid=grid.rows,
                        grid_layout=grid.layout,
                        forfeited_seats=details.forfeited_seats(),
                        reason=details.cleaned_data["reason"],
                        correction=current is not None,
                        expected_version=details.cleaned_data["version"],
                    )
            except ResultChanged as exc:
                changed = exc
                details = ResultDetailsForm(
                    _with_version(request.POST, "result-version", exc.version),
                    names=names,
                    prefix="result",
                )
            except LeagueError as exc:
                _grid_problems(grid, exc)
            else:
                text = _("Result of table %(n)s counted.") % {"n": fixture.number}
                messages.success(request, text)
                return redirect(_round_url(event, fixture))
        grid.run_check()
        status = 400
    elif request.method == "POST":
        other = ResultForm(request.POST or None, request.FILES or None)
        if other.is_valid():
            try:
                result_services.record_result(
                    fixture,
                    by=request.user,
                    record=other.cleaned_data["record"],
                    sheet=other.cleaned_data["sheet"],
                    forfeited_seats=other.cleaned_data["forfeited"],
                    reason=other.cleaned_data["reason"],
                    correction=current is not None,
                    expected_version=other.cleaned_data["version"],
                )
            except ResultChanged as exc:
                changed = exc
                posted = _with_version(request.POST, "version", exc.version)
                other = ResultForm(posted, request.FILES)
                other.is_valid()
            except LeagueError as exc:
                other.add_error(None, _other_message(exc))
            else:
                text = _("Result of table %(n)s counted.") % {"n": fixture.number}
                messages.success(request, text)
                return redirect(_round_url(event, fixture))
    else:
        grid.run_check()
        grid.problems = []  # a fresh form shows no "fill this in" before anything is typed
    if changed is not None:  # the form becomes a correction of the result counting now
        current = fixture.results.filter(current=True).first()
        status = 409
    submissions = table_results.open_submissions(fixture)
    context = {
        "changed": changed,
        **_online(fixture, current),
        "event": event,
        "fixture": fixture,
        "seats": seats,
        "grid": grid,
        "details": details,
        "form": other,
        "current": current,
        "other_open": request.method == "POST" and request.POST.get("mode") != "grid",
        "history": fixture.results.select_related("entered_by").order_by("-version"),
        "submissions": _submission_rows(submissions),
        "compare": _versions(submissions, event, names) if submissions else [],
        "config": grid.config(reverse("league:result_check", args=[event.slug, fixture.pk])),
        "needs_organizer": table_results.needs_organizer(seats),
        # over the table, before any result: absences go with the deals typed so far
        "takes_absence": current is None and table_results.over_the_table(event, fixture, seats),
    }
    return render(request, "league/result_form.html", context, status=status)


def _online(fixture: Fixture, current: Result | None) -> dict[str, Any]:
    """An online table's state beside a result typed here: still being played (its result
    would count by itself, and will not once one is entered here), or finished with payouts
    other than those that count (a conflict to settle by a correction). Nothing for a table
    played over the table."""
    if not fixture.table_ref:
        return {}
    finished = gameplay.table_result(fixture.table_ref)
    if finished is None:
        return {"online_playing": True}
    online = finished["result"].get("totals", {}).get("payouts")
    counting = current.scored["totals"]["payouts"] if current is not None else None
    if current is not None and current.source != Result.Source.ONLINE and online != counting:
        return {"online_differs": {"online": online, "counting": counting}}
    return {}


def _with_version(data: QueryDict, field: str, version: int) -> QueryDict:
    """The posted form as it was typed, at the version that counts now (so saving it again is
    a correction of that one, not a second refusal)."""
    data = data.copy()
    data[field] = str(version)
    return data


def _other_message(exc: LeagueError) -> str:
    """A refusal of a record or JSON sheet, its deal numbered from 1 (as pages number deals)."""
    problems = getattr(exc, "problems", None)
    if problems and problems[0].get("deal") is not None:
        p = problems[0]
        return _("Score sheet, deal %(n)s: %(reason)s") % {
            "n": p["deal"] + 1,
            "reason": p["reason"],
        }
    return str(exc)


# --- the live check -----------------------------------------------------------------------


@require_POST
def result_check(request: HttpRequest, slug: str, fixture_id: int) -> JsonResponse:
    """The grid as typed, checked: each deal's scores, payouts and running totals, and every
    problem by its input. Nothing is written. For the event's organizers, and for the seated
    players of a table that takes results from the table."""
    event = _event(request, slug)
    fixture, seats = _fixture(event, fixture_id)
    if not can_manage(request.user, event):
        if fixture.round.status != Round.Status.PUBLISHED:
            raise Http404("this round is not published yet")
        table_results.seat_of(seats, request.user)  # PermissionDenied for anyone else
        if not table_results.takes_table_results(event, fixture, seats):
            raise PermissionDenied(_("the organizer enters the results of this table"))
    grid = ScoreGrid.from_data(event, _names(seats), request.POST)
    grid.run_check()
    return JsonResponse(grid.as_json())


# --- results from the table -----------------------------------------------------------------


def _player_context(
    request: HttpRequest, event: Event, fixture: Fixture, seats: list[Seat]
) -> dict[str, Any]:
    mine = next(
        (s for s in seats if request.user.is_authenticated and s.player.user_id == request.user.pk),
        None,
    )
    submissions = table_results.open_submissions(fixture)
    rows = _submission_rows(submissions)
    for row in rows:
        sub = row["submission"]
        row["mine"] = mine is not None and sub.submitted_by_id == mine.player_id
        voted = {v.player_id: v.agrees for v in sub.votes.all()}
        row["my_vote"] = voted.get(mine.player_id) if mine else None
        row["waiting"] = [
            s.player.name
            for s in table_results.persons(seats)
            if voted.get(s.player_id) is not True
        ]
    return {"mine": mine, "submissions": rows}


@login_required
@require_http_methods(GET_OR_POST)
def table_submit(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """A seated player's page: the grid to submit, and the grids waiting at this table."""
    event = _event(request, slug)
    fixture, seats = _fixture(event, fixture_id)
    if fixture.round.status != Round.Status.PUBLISHED:
        raise Http404("this round is not published yet")
    table_results.seat_of(seats, request.user)  # 403 for anyone not seated here
    if not table_results.takes_table_results(event, fixture, seats):
        raise PermissionDenied(_("the organizer enters the results of this table"))
    names = _names(seats)
    context = _player_context(request, event, fixture, seats)
    start = next((r["submission"] for r in context["submissions"] if r["mine"]), None)
    start = start or next((r["submission"] for r in context["submissions"]), None)
    grid = _opening_grid(
        request,
        event,
        names,
        start.grid if start else None,
        start.grid_layout if start else catalogue.FULL_GRID,
    )
    status = 200
    if request.method == "POST":
        grid = ScoreGrid.from_data(event, names, request.POST)
        try:
            if grid.problems:
                raise LeagueError(_("check the fields marked"))
            submission = table_results.submit_grid(
                fixture, by=request.user, grid=grid.rows, layout=grid.layout
            )
        except LeagueError as exc:
            _grid_problems(grid, exc)
            grid.run_check()
            status = 400
        else:
            messages.success(request, _submitted_message(submission))
            return redirect(reverse("league:table_submit", args=[event.slug, fixture.pk]))
    else:
        grid.run_check()
        grid.problems = []
    context.update(
        {
            "event": event,
            "fixture": fixture,
            "seats": seats,
            "grid": grid,
            "result": fixture.results.filter(current=True).first(),
            "needs_organizer": table_results.needs_organizer(seats),
            "reject_form": RejectForm(),
            "config": grid.config(reverse("league:result_check", args=[event.slug, fixture.pk])),
        }
    )
    return render(request, "league/table_submit.html", context, status=status)


def _submitted_message(submission: ResultSubmission) -> str:
    if submission.status == ResultSubmission.Status.COUNTED:
        return _("Everyone at the table agrees: the result counts.")
    if submission.status == ResultSubmission.Status.DISPUTED:
        return _("The grids at this table differ: the organizer will pick one.")
    return _("Your grid is in: it counts once the others at the table confirm it.")


@require_POST
@login_required
def submission_action(request: HttpRequest, slug: str, submission_id: int) -> HttpResponse:
    """Confirm, reject or withdraw a grid (the table's players); approve or set it aside (the
    event's organizers)."""
    event = _event(request, slug)
    submission = get_object_or_404(
        ResultSubmission.objects.select_related("fixture__round__event"),
        pk=submission_id,
        fixture__round__event=event,
    )
    fixture = submission.fixture
    action = request.POST.get("action", "")
    organizer = action in ("approve", "set_aside")
    here = (
        reverse("league:result", args=[event.slug, fixture.pk])
        if organizer
        else reverse("league:table_submit", args=[event.slug, fixture.pk])
    )
    try:
        if action == "confirm":
            done = table_results.confirm_submission(submission, by=request.user)
            text = _submitted_message(done) if done.status != "pending" else _("You confirmed it.")
        elif action == "reject":
            form = RejectForm(request.POST)
            reason = form.cleaned_data["reason"] if form.is_valid() else ""
            table_results.reject_submission(submission, by=request.user, reason=reason)
            text = _("You rejected it: the organizer will decide.")
        elif action == "withdraw":
            table_results.withdraw_submission(submission, by=request.user)
            text = _("Your grid is withdrawn.")
        elif action == "approve":
            table_results.approve_submission(submission, by=request.user)
            text = _("That grid counts as the result of table %(n)s.") % {"n": fixture.number}
            here = _round_url(event, fixture)
        elif action == "set_aside":
            table_results.set_aside_submission(submission, by=request.user)
            text = _("The grid is set aside.")
        else:
            raise LeagueError(_("unknown action %(action)r") % {"action": action})
    except LeagueError as exc:
        messages.error(request, str(exc))
        return redirect(here)
    messages.success(request, text)
    return redirect(here)
