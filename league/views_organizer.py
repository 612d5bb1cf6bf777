"""Organizer pages. Each view authorizes first (only the event's organizers and staff pass; creating
an event needs the organizer role), and the services authorize again whoever calls them."""

from __future__ import annotations

from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gameplay import api as gameplay
from league.errors import LeagueError
from league.forms import EntryForm, EventForm, ResultForm
from league.models import Entry, Event, Fixture, Round
from league.services import claims as claim_services
from league.services import events as event_services
from league.services import results as result_services
from league.services import rounds as round_services
from league.services.permissions import can_manage, check_can_organize


def organizer_view(view: Any) -> Any:
    """Load the event by slug and refuse (403) anyone who may not manage it."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        event = get_object_or_404(Event, slug=slug)
        if not can_manage(request.user, event):
            raise PermissionDenied(_("only this event's organizers may do that"))
        return view(request, event, *args, **kwargs)

    return wrapper


def _done(request: HttpRequest, event: Event, text: str, to: str | None = None) -> HttpResponse:
    messages.success(request, text)
    return redirect(to or event.get_absolute_url())


def _refused(request: HttpRequest, event: Event, exc: Exception, to: str | None = None) -> Any:
    messages.error(request, str(exc))
    return redirect(to or event.get_absolute_url())


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    check_can_organize(
        request.user, _("creating an event needs the organizer role (staff grant it)")
    )
    game = request.GET.get("game") or request.POST.get("game")
    if game not in dict(gameplay.game_choices()):
        return render(request, "league/event_pick_game.html", {"games": gameplay.games()})
    form = EventForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.create_event(request.user, **form.service_fields())
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(request, event, "Event created (a draft until you publish it).")
    return render(request, "league/event_form.html", {"form": form, "game": gameplay.game(game)})


@organizer_view
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event, game=event.game)
    if request.method == "POST" and form.is_valid():
        fields = form.service_fields()
        fields.pop("game")
        try:
            event_services.update_event(Event.objects.get(pk=event.pk), by=request.user, **fields)
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return _done(request, event, "Event saved.")
    context = {"form": form, "game": gameplay.game(event.game), "event": event}
    return render(request, "league/event_form.html", context)


@require_POST
@organizer_view
def event_publish(request: HttpRequest, event: Event) -> HttpResponse:
    event_services.publish_event(event, by=request.user)
    return _done(request, event, "Event published.")


@require_POST
@organizer_view
def event_close(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        event_services.close_event(event, by=request.user)
    except LeagueError as exc:
        return _refused(request, event, exc)
    return _done(request, event, "Event closed: no more rounds or results.")


@organizer_view
def entries(request: HttpRequest, event: Event) -> HttpResponse:
    form = EntryForm(request.POST or None)
    here = reverse("league:entries", args=[event.slug])
    if request.method == "POST" and form.is_valid():
        try:
            entry = event_services.enter_player(
                event,
                by=request.user,
                name=form.cleaned_data["player"],
                checked_in=form.cleaned_data["checked_in"],
            )
        except LeagueError as exc:
            return _refused(request, event, exc, here)
        return _done(request, event, f"{entry.player.name} entered.", here)
    context = {
        "event": event,
        "form": form,
        "entries": Entry.objects.filter(event=event).select_related("player"),
        "claim_days": claim_services.invitation_days(),
    }
    return render(request, "league/entries.html", context)


@require_POST
@organizer_view
def entry_action(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "event"), pk=entry_id, event=event
    )
    here = reverse("league:entries", args=[event.slug])
    action = request.POST.get("action")
    try:
        if action == "check_in":
            event_services.check_in(entry, True, by=request.user)
        elif action == "check_out":
            event_services.check_in(entry, False, by=request.user)
        elif action == "withdraw":
            event_services.withdraw(entry, by=request.user)
        else:
            raise LeagueError(f"unknown action {action!r}")
    except LeagueError as exc:
        return _refused(request, event, exc, here)
    return _done(request, event, f"{entry.player.name}: done.", here)


@require_POST
@organizer_view
def claim_invite(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """Make a one-time link that lets a person claim this entry's player (who has no account):
    shown once, on this page only, for the organizer to pass on (league.services.claims)."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    here = reverse("league:entries", args=[event.slug])
    try:
        made = claim_services.invite_to_claim(entry.player, by=request.user)
    except LeagueError as exc:
        return _refused(request, event, exc, here)
    link = request.build_absolute_uri(f"{reverse('claim')}?{urlencode({'token': made.token})}")
    context = {
        "event": event,
        "player": entry.player,
        "link": link,
        "expires_at": made.invitation.expires_at,
    }
    response = render(request, "league/claim_invite.html", context)
    response["Cache-Control"] = "no-store"  # the link is a secret: no cache keeps a copy
    return response


@require_POST
@organizer_view
def round_generate(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        round_ = round_services.generate_round(event, by=request.user)
    except LeagueError as exc:
        return _refused(request, event, exc)
    url = reverse("league:round", args=[event.slug, round_.number])
    return _done(request, event, f"Round {round_.number} planned: check it, then publish.", url)


@require_POST
@organizer_view
def round_action(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, event=event, number=number)
    here = reverse("league:round", args=[event.slug, number])
    action = request.POST.get("action")
    try:
        if action == "publish":
            round_services.publish_round(round_, by=request.user)
            return _done(request, event, f"Round {number} published.", here)
        if action == "swap":
            try:
                first, second = int(request.POST["first"]), int(request.POST["second"])
            except (KeyError, ValueError):
                raise LeagueError("choose the two players to swap") from None
            round_services.swap_players(
                round_, first, second, by=request.user, seen=request.POST.get("draft") or None
            )
            return _done(request, event, "Players swapped.", here)
        if action == "discard":
            round_services.discard_draft(round_, by=request.user)
            return _done(request, event, f"Draft round {number} discarded.")
        raise LeagueError(f"unknown action {action!r}")
    except LeagueError as exc:
        return _refused(request, event, exc, here)


@organizer_view
def result_enter(request: HttpRequest, event: Event, fixture_id: int) -> HttpResponse:
    fixture = get_object_or_404(
        Fixture.objects.select_related("round"), pk=fixture_id, round__event=event
    )
    current = fixture.results.filter(current=True).first()
    form = ResultForm(
        request.POST or None,
        request.FILES or None,
        initial={"version": current.version if current else 0},
    )
    if request.method == "POST" and form.is_valid():
        try:
            result_services.record_result(
                fixture,
                by=request.user,
                record=form.cleaned_data["record"],
                sheet=form.cleaned_data["sheet"],
                forfeited_seats=form.cleaned_data["forfeited"],
                reason=form.cleaned_data["reason"],
                correction=current is not None,
                expected_version=form.cleaned_data["version"],
            )
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            url = reverse("league:round", args=[event.slug, fixture.round.number])
            return _done(request, event, f"Result of table {fixture.number} counted.", url)
    context = {
        "event": event,
        "fixture": fixture,
        "seats": fixture.seats.select_related("player"),
        "form": form,
        "current": current,
        "history": fixture.results.select_related("entered_by").order_by("-version"),
    }
    return render(request, "league/result_form.html", context)
