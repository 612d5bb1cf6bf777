"""The player's side of registration: sign up (from the event's page, or an invitation link),
leave (withdraw, or give up a waiting place) and self check-in (league.services.registration).

`/events/<slug>/signup/` is the player's registration page: it answers for a draft event too
when the visitor holds its invitation link (`?token=`, kept out of every log), and shows where
the account stands — entered (with check-in, while the window is open), waiting, or why it may
not sign up.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from league.errors import LeagueError
from league.models import Event
from league.pages.organizer import GET_OR_POST, confirm_page
from league.services import registration
from league.services.permissions import can_see


def _event(request: HttpRequest, slug: str, token: str | None = None) -> Event:
    """The event, if the visitor may see it or holds its invitation link; else 404."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event) and not registration.invitation_matches(event, token):
        raise Http404("no such event")
    return event


def _own_event(request: HttpRequest, slug: str) -> Event:
    """The event, if the account may see it or has a place in it (a draft it entered through
    the invitation link); else 404: a draft's existence stays private."""
    event = get_object_or_404(Event, slug=slug)
    if can_see(request.user, event) or registration.has_place(event, request.user):
        return event
    raise Http404("no such event")


def _signup_path(event: Event, token: str | None) -> str:
    path = reverse("league:signup", args=[event.slug])
    return f"{path}?{urlencode({'token': token})}" if token else path


def _after(request: HttpRequest, event: Event, token: str | None) -> HttpResponse:
    """Back to the event's page, or (a draft the player cannot see) to their sign-up page."""
    if can_see(request.user, event):
        return redirect(event.get_absolute_url())
    return redirect(_signup_path(event, token))


@never_cache
@require_http_methods(GET_OR_POST)
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    token = (request.POST if request.method == "POST" else request.GET).get("token") or None
    event = _event(request, slug, token) if token else _own_event(request, slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(
                f"{reverse('account_login')}?{urlencode({'next': _signup_path(event, token)})}"
            )
        try:
            done = registration.sign_up(event, request.user, token=token)
        except LeagueError as exc:
            messages.error(request, str(exc))
            return redirect(_signup_path(event, token))
        if done.entry is not None:
            messages.success(request, _("You are entered in %(event)s.") % {"event": event.name})
        else:
            messages.success(
                request,
                _("%(event)s is full: you are number %(n)s on its waiting list.")
                % {"event": event.name, "n": done.waiting_position},
            )
        return _after(request, event, token)
    next_path = urlencode({"next": _signup_path(event, token)})
    context = {
        "event": event,
        "standing": registration.standing(event, request.user, token),
        "token": token or "",
        "next": next_path,
        "visible": can_see(request.user, event),
    }
    return render(request, "league/signup.html", context)


@login_required
@require_http_methods(GET_OR_POST)
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    """Withdraw from the event, or leave its waiting list: after a confirmation."""
    event = _own_event(request, slug)
    here = reverse("league:signup_leave", args=[event.slug])
    if request.method != "POST":
        return confirm_page(
            request,
            event,
            title=_("Withdraw from %(event)s?") % {"event": event.name},
            lines=[
                _(
                    "You play no more rounds of it; results you have stay. Your place goes to "
                    "the next player on the waiting list, and only the organizers can bring "
                    "you back."
                ),
                _("On the waiting list, you give up your place on it."),
            ],
            action=here,
            button=_("Withdraw"),
            cancel=_signup_path(event, None) if not can_see(request.user, event) else None,
        )
    try:
        left = registration.leave(event, request.user)
    except LeagueError as exc:
        messages.error(request, str(exc))
        return _after(request, event, None)
    if left == "waiting":
        messages.success(
            request, _("You left the waiting list of %(event)s.") % {"event": event.name}
        )
    else:
        messages.success(request, _("You withdrew from %(event)s.") % {"event": event.name})
    return _after(request, event, None)


@login_required
@require_POST
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Check yourself in (or out) for the next round while the organizers hold check-in open."""
    event = _own_event(request, slug)
    checked_in = request.POST.get("checked_in", "1") != "0"
    try:
        registration.check_in_self(event, request.user, checked_in)
    except LeagueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("You are checked in for the next round.")
            if checked_in
            else _("You are checked out: the next round goes on without you."),
        )
    return _after(request, event, None)
