"""Organizer pages for the people of an event: co-organizers, sign-up rules and the invitation
link, the self check-in window, the waiting list, and deleting a draft event.

Each view is an `organizer_view` (the event's organizers and staff; 403 for anyone else, the
log-in page for visitors) and each service authorizes again. Irreversible buttons go through a
confirmation page (`confirm_page`): its GET explains, its POST acts.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.errors import LeagueError
from league.forms.people import CoOrganizerForm, RegistrationForm
from league.models import Entry, Event
from league.pages.organizer import GET_OR_POST, confirm_page, organizer_view
from league.services import events as event_services
from league.services import organizers as organizer_services
from league.services import registration, waiting_list
from league.services.event_times import zone


def _back(request: HttpRequest, text: str, to: str, *, error: bool = False) -> HttpResponse:
    (messages.error if error else messages.success)(request, text)
    return redirect(to)


# --- co-organizers ----------------------------------------------------------------------------


@require_http_methods(GET_OR_POST)
@organizer_view
def organizers(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's organizers; add one by account or player name."""
    here = reverse("league:organizers", args=[event.slug])
    form = CoOrganizerForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                account = organizer_services.add_co_organizer(
                    event, form.cleaned_data["name"], by=request.user
                )
            except LeagueError as exc:
                form.add_error("name", str(exc))
            else:
                name = organizer_services.display_name(account)
                return _back(
                    request, _("%(name)s organizes this event now.") % {"name": name}, here
                )
    people = [
        {
            "user": user,
            "name": organizer_services.display_name(user),
            "owner": user.pk == event.owner_id,
        }
        for user in organizer_services.organizers(event)
    ]
    context = {"event": event, "form": form, "people": people}
    return render(request, "league/organizers.html", context, status=status)


@require_http_methods(GET_OR_POST)
@organizer_view
def organizer_remove(request: HttpRequest, event: Event, user_id: int) -> HttpResponse:
    here = reverse("league:organizers", args=[event.slug])
    if request.method != "POST":
        return confirm_page(
            request,
            event,
            title=_("Take this organizer off %(event)s?") % {"event": event.name},
            lines=[
                _("They no longer run the event (add them again to undo it)."),
                _("If it is you, you lose your rights here at once."),
            ],
            action=reverse("league:organizer_remove", args=[event.slug, user_id]),
            button=_("Take them off"),
            cancel=here,
        )
    try:
        organizer_services.remove_co_organizer(event, user_id, by=request.user)
    except LeagueError as exc:
        return _back(request, str(exc), here, error=True)
    if user_id == request.user.pk and not request.user.is_staff:
        return _back(request, _("You no longer organize %(event)s.") % {"event": event.name}, "/")
    return _back(request, _("Organizer taken off."), here)


# --- sign-up, the invitation link, check-in ---------------------------------------------------


@require_http_methods(GET_OR_POST)
@organizer_view
def registration_page(request: HttpRequest, event: Event) -> HttpResponse:
    """Sign-up rules (open, capacity, deadline on the event's clocks), the invitation link,
    the check-in window and the waiting list."""
    here = reverse("league:registration", args=[event.slug])
    status = 200
    with timezone.override(zone(event.time_zone)):
        initial = {
            "signup_open": event.signup_open,
            "capacity": event.capacity,
            "signup_deadline": (
                timezone.localtime(event.signup_deadline) if event.signup_deadline else None
            ),
        }
        form = RegistrationForm(request.POST or None, initial=initial)
        if request.method == "POST":
            status = 400
            if form.is_valid():
                try:
                    registration.configure(event, by=request.user, **form.cleaned_data)
                except LeagueError as exc:
                    form.add_error(None, str(exc))
                else:
                    return _back(request, _("Sign-up rules saved."), here)
        rows = Entry.objects.filter(event=event, withdrawn_after_round__isnull=True)
        context = {
            "event": event,
            "form": form,
            "waiting": waiting_list.waiting(event),
            "entered": rows.count(),
            "checked_in": rows.filter(checked_in=True).count(),
            "next_round": event.round_set.count() + 1,
            "signup_url": request.build_absolute_uri(reverse("league:signup", args=[event.slug])),
        }
        return render(request, "league/registration.html", context, status=status)


@require_http_methods(GET_OR_POST)
@organizer_view
def invitation(request: HttpRequest, event: Event) -> HttpResponse:
    """A new invitation link (shown once: only its hash is kept), or the link stopped."""
    here = reverse("league:registration", args=[event.slug])
    if request.method != "POST":
        return confirm_page(
            request,
            event,
            title=_("Make a new invitation link?"),
            lines=[
                _(
                    "Whoever has the link can sign up for %(event)s, even while it is a draft "
                    "or closed to public sign-up (the capacity and the deadline still apply)."
                )
                % {"event": event.name},
                _("The link is shown once. A link made before stops working."),
            ],
            action=reverse("league:invitation", args=[event.slug]),
            button=_("Make a new link"),
            fields={"action": "new"},
            cancel=here,
        )
    try:
        if request.POST.get("action") == "drop":
            registration.drop_invitation(event, by=request.user)
            return _back(request, _("The invitation link works no more."), here)
        token = registration.new_invitation(event, by=request.user)
    except LeagueError as exc:
        return _back(request, str(exc), here, error=True)
    path = reverse("league:signup", args=[event.slug])
    link = request.build_absolute_uri(f"{path}?{urlencode({'token': token})}")
    response = render(request, "league/invitation_link.html", {"event": event, "link": link})
    response["Cache-Control"] = "no-store"  # the link is a secret: no cache keeps a copy
    return response


@require_http_methods(GET_OR_POST)
@organizer_view
def check_in_window(request: HttpRequest, event: Event) -> HttpResponse:
    """Open (after a confirmation: everyone is checked out) or close self check-in."""
    here = reverse("league:registration", args=[event.slug])
    if request.method != "POST":
        return confirm_page(
            request,
            event,
            title=_("Open self check-in for round %(number)s?")
            % {"number": event.round_set.count() + 1},
            lines=[
                _(
                    "Every entrant is checked out until they check in again from the event's "
                    "page. Whoever has not checked in when you close check-in is left out of "
                    "the round."
                )
            ],
            action=reverse("league:check_in_window", args=[event.slug]),
            button=_("Open check-in"),
            fields={"action": "open"},
            cancel=here,
        )
    try:
        if request.POST.get("action") == "open":
            registration.open_check_in(event, by=request.user)
            return _back(request, _("Self check-in is open."), here)
        if request.POST.get("action") == "close":
            n = registration.close_check_in(event, by=request.user)
            return _back(request, _("Self check-in is closed: %(n)s checked in.") % {"n": n}, here)
        raise LeagueError(_("open or close check-in"))
    except LeagueError as exc:
        return _back(request, str(exc), here, error=True)


# --- deleting a draft -------------------------------------------------------------------------


@require_http_methods(GET_OR_POST)
@organizer_view
def event_delete(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method != "POST":
        return confirm_page(
            request,
            event,
            title=_("Delete %(name)s?") % {"name": event.name},
            lines=[
                _(
                    "The draft event goes, with its entries, draft rounds and waiting list (the "
                    "players stay). This cannot be undone."
                )
            ],
            action=reverse("league:event_delete", args=[event.slug]),
            button=_("Delete the event"),
        )
    name = event.name
    try:
        event_services.delete_event(event, by=request.user)
    except LeagueError as exc:
        return _back(request, str(exc), event.get_absolute_url(), error=True)
    return _back(request, _("%(name)s is deleted.") % {"name": name}, reverse("league:events"))
