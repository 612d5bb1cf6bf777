"""The schedule's pages: a fixture's page (its window, the proposed times, its table) and the
organizer's form for a round's start and deadline. Times are typed and shown on the event's
clocks (`timezone.override` with the event's zone around the form and the page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from league.errors import LeagueError
from league.forms.schedule import ProposalForm, RoundScheduleForm
from league.models import Event, Fixture, FixtureProposal, Result, Round, Seat
from league.services import duplicate_scoring, schedule
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
