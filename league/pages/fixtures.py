"""The schedule's pages: a fixture's page (its window, the proposed times, its table) and the
organizer's form for a round's start and deadline. Times are typed and shown on the event's
clocks (`timezone.override` with the event's zone around the form and the page)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from league.errors import LeagueError
from league.forms.absences import AbsenceForm
from league.forms.schedule import ProposalForm, RoundScheduleForm
from league.models import Event, Fixture, FixtureProposal, Result, Round, Seat
from league.services import absences, actions, duplicate_scoring, schedule
from league.services.event_times import zone
from league.services.permissions import can_manage, can_see
from league.services.rounds import fixture_is_online
from league.services.table_links import table_link, with_watchable


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event):
        raise Http404("no such event")
    return event


def _fixture(request: HttpRequest, event: Event, fixture_id: int) -> tuple[Fixture, bool]:
    """The fixture with everything its page shows, loaded in a fixed number of queries."""
    fixture = get_object_or_404(
        with_watchable(Fixture.objects.select_related("round")).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
            Prefetch("results", queryset=Result.objects.filter(current=True), to_attr="counting"),
            Prefetch(
                "proposals",
                queryset=FixtureProposal.objects.select_related("proposed_by").order_by(
                    "starts_at", "pk"
                ),
            ),
        ),
        pk=fixture_id,
        round__event=event,
    )
    manager = can_manage(request.user, event)
    if fixture.round.status != Round.Status.PUBLISHED and not manager:
        raise Http404("this round is not published yet")
    fixture.round.event = event
    return fixture, manager


@require_http_methods(["GET", "HEAD"])
def fixture_detail(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    event = _event(request, slug)
    fixture, manager = _fixture(request, event, fixture_id)
    return _render_fixture(request, event, fixture, manager, ProposalForm())


def _render_fixture(
    request: HttpRequest,
    event: Event,
    fixture: Fixture,
    manager: bool,
    form: ProposalForm,
    status: int = 200,
) -> HttpResponse:
    seats = list(fixture.seats.all())
    user = request.user
    mine = next((s for s in seats if user.is_authenticated and s.player.user_id == user.pk), None)
    now = timezone.now()
    persons = [s for s in seats if not s.player.is_builtin_bot]
    proposals = [
        {
            "proposal": p,
            "accepted": [s for s in persons if s.accepted_proposal_id == p.pk],
            "mine": mine is not None and mine.accepted_proposal_id == p.pk,
            "past": p.starts_at <= now,
        }
        for p in fixture.proposals.all()
    ]
    result = fixture.counting[0] if fixture.counting else None
    # Duplicate: nothing of a table of a section still being played reaches anyone not seated
    # there (league.services.duplicate_scoring).
    withheld = fixture.pk in duplicate_scoring.withheld_fixtures(user, event, round_=fixture.round)
    if withheld:
        result = None
    problem = None
    if event.asynchronous and mine is not None:
        try:
            schedule.check_playable(fixture, seats, now)
        except LeagueError as exc:
            problem = str(exc)
    context = {
        "event": event,
        "round": fixture.round,
        "fixture": fixture,
        "seats": seats,
        "mine": mine,
        "manager": manager,
        "result": result,
        "withheld": withheld,
        "proposals": proposals,
        "agreed": next((p for p in reversed(proposals) if p["proposal"].agreed_at), None),
        "deadline": schedule.effective_deadline(fixture),
        "online": event.play_online and fixture_is_online(seats),
        # The online table: for anyone when it may be watched, else for its players only.
        "table_link": table_link(user, fixture, seats),
        "problem": problem,
        "form": form,
        "absence_form": absence_form(event, fixture, seats) if manager else None,
        "absent_names": [seats[s].player.name for s in result.absent_seats if s < len(seats)]
        if result is not None
        else [],
        # the page numbers seats from 1 and names players: forfeits by name too
        "forfeited_names": [seats[s].player.name for s in result.forfeited_seats if s < len(seats)]
        if result is not None
        else [],
    }
    with timezone.override(zone(event.time_zone)):
        return render(request, "league/fixture_detail.html", context, status=status)


@require_POST
@login_required
def fixture_action(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """A player's step at an asynchronous fixture: propose a time, accept one, open the table."""
    event = _event(request, slug)
    fixture, manager = _fixture(request, event, fixture_id)
    here = reverse("league:fixture", args=[event.slug, fixture.pk])
    action = request.POST.get("action")
    try:
        if action == "open":
            table_ref = schedule.open_table(fixture, by=request.user)
            return redirect(f"/tables/{table_ref}/")
        if action == "accept":
            try:
                proposal_id = int(request.POST.get("proposal", ""))
            except ValueError:
                raise LeagueError(_("choose a proposed time")) from None
            proposal = get_object_or_404(FixtureProposal, pk=proposal_id, fixture=fixture)
            schedule.accept_time(proposal, by=request.user)
            messages.success(request, _("You accepted that time."))
            return redirect(here)
        if action == "propose":
            with timezone.override(zone(event.time_zone)):
                form = ProposalForm(request.POST)
                valid = form.is_valid()
            if not valid:
                return _render_fixture(request, event, fixture, manager, form, status=400)
            schedule.propose_time(
                fixture, by=request.user, starts_at=form.cleaned_data["starts_at"]
            )
            messages.success(request, _("Your time is proposed: the others get a notice."))
            return redirect(here)
        raise LeagueError(_("unknown action %(action)r") % {"action": action})
    except PermissionDenied:
        raise
    except LeagueError as exc:
        messages.error(request, str(exc))
        return redirect(here)


# --- absences (league.services.absences): the organizer's "Mark absent" and its undo ----------


def _managed_fixture(request: HttpRequest, slug: str, fixture_id: int) -> tuple[Event, Fixture]:
    event = _event(request, slug)
    fixture, manager = _fixture(request, event, fixture_id)
    if not manager:
        raise PermissionDenied(_("only this event's organizers may do that"))
    return event, fixture


def absence_form(
    event: Event, fixture: Fixture, seats: list[Seat], data: Any = None
) -> AbsenceForm:
    """The table's "Mark absent" form: after which deal only where the table's deals can be
    read (its online table); over the table they are typed in the score grid."""
    deals = event.deals_for(len(seats)) if fixture.table_ref else 1
    return AbsenceForm(data, seats=seats, deals=deals)


def _confirm(request: HttpRequest, event: Event, fixture: Fixture, **context: Any) -> HttpResponse:
    """The confirmation step (`league/confirm.html`, as the organizer pages' `confirm_page`):
    what will happen, and the POST that does it."""
    here = reverse("league:fixture", args=[event.slug, fixture.pk])
    return render(request, "league/confirm.html", {"event": event, "cancel": here, **context})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def fixture_absent(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """Mark seats of the table absent: GET confirms what will happen, POST does it."""
    event, fixture = _managed_fixture(request, slug, fixture_id)
    here = reverse("league:fixture", args=[event.slug, fixture.pk])
    allowed = actions.may(request.user, event, "mark_absent", fixture)
    if not allowed:
        messages.error(request, allowed.reason)
        return redirect(here)
    seats = list(fixture.seats.all())
    form = absence_form(
        event, fixture, seats, request.POST if request.method == "POST" else request.GET
    )
    if not form.is_valid():
        messages.error(request, _("Tick the absent players, and say since when."))
        return redirect(here)
    absent, after = form.absent_seats(), form.cleaned_data["after_deal"]
    if request.method == "POST":
        try:
            absences.mark_absent(fixture, by=request.user, seats=absent, after_deal=after)
        except LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request, _("Table %(n)s: the absence counts as its result.") % {"n": fixture.number}
            )
        return redirect(here)
    names = ", ".join(seats[s].player.name for s in absent)
    lines = [
        _("Table %(n)s: %(names)s absent before the first deal.")
        % {"n": fixture.number, "names": names}
        if not after
        else _("Table %(n)s: %(names)s absent after deal %(k)s.")
        % {"n": fixture.number, "names": names, "k": after},
        _("They forfeit the match and count below everyone at the table; the others win it."),
    ]
    if after:
        lines.append(
            _("Deals 1 to %(k)s count as played; the rest of the match pays nothing.")
            % {"k": after}
        )
    if fixture.table_ref:
        lines.append(_("The online table stops now: nobody plays on at it."))
    return _confirm(
        request,
        event,
        fixture,
        title=_("Mark absent"),
        lines=lines,
        action=reverse("league:fixture_absent", args=[event.slug, fixture.pk]),
        button=_("Mark absent"),
        fields=[("after_deal", after), *(("seats", s) for s in absent)],
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def fixture_absent_undo(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """Take a no-show's absence back (they arrived late): GET confirms, POST does it."""
    event, fixture = _managed_fixture(request, slug, fixture_id)
    here = reverse("league:fixture", args=[event.slug, fixture.pk])
    allowed = actions.may(request.user, event, "undo_absence", fixture)
    if not allowed:
        messages.error(request, allowed.reason)
        return redirect(here)
    if request.method == "POST":
        try:
            absences.undo_absence(fixture, by=request.user)
        except LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request, _("Table %(n)s: the absence is taken back.") % {"n": fixture.number}
            )
        return redirect(here)
    lines = [
        _(
            "The absence no longer counts (it stays in the result's history): the table is "
            "played as usual."
        ),
    ]
    if fixture.table_ref and not event.asynchronous:
        lines.append(_("A new online table is started for it."))
    elif fixture.table_ref:
        lines.append(_("Its players open the online table again."))
    later = event.round_set.filter(number__gt=fixture.round.number).count()
    if later:  # a league's rounds are planned ahead: they stay, this table reopens among them
        lines.append(
            ngettext(
                "Careful: %(n)s later round exists already. Round %(round)s is open again until "
                "this table has its result, and the standings change meanwhile.",
                "Careful: %(n)s later rounds exist already. Round %(round)s is open again until "
                "this table has its result, and the standings change meanwhile.",
                later,
            )
            % {"n": later, "round": fixture.round.number}
        )
    return _confirm(
        request,
        event,
        fixture,
        title=_("Undo the absence (arrived late)"),
        lines=lines,
        action=reverse("league:fixture_absent_undo", args=[event.slug, fixture.pk]),
        button=_("Undo the absence"),
        fields=[],
    )


@require_POST
@login_required
def round_schedule(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The organizer sets a round's start and deadline (on the event's clocks)."""
    event = get_object_or_404(Event, slug=slug)
    if not can_manage(request.user, event):
        raise PermissionDenied(_("only this event's organizers may do that"))
    round_ = get_object_or_404(Round, event=event, number=number)
    here = reverse("league:round", args=[event.slug, number])
    with timezone.override(zone(event.time_zone)):
        form = RoundScheduleForm(request.POST)
        valid = form.is_valid()
    if not valid:
        errors = "; ".join(str(e) for errs in form.errors.values() for e in errs)
        messages.error(request, errors)
        return redirect(here)
    try:
        schedule.set_round_schedule(
            round_,
            by=request.user,
            starts_at=form.cleaned_data["starts_at"],
            deadline=form.cleaned_data["deadline"],
        )
    except LeagueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The round's schedule is saved."))
    return redirect(here)
