"""A visitor's way in at the lobby's doors: "Play as a guest" beside "Log in" and "Sign up".

`POST /play/now/` and the invitation's Join, sent by someone not logged in, answer with the page
`offer` makes: the same form again with `as_guest=1` (one click, nothing to fill in), or log in
or sign up and come back. Sent with `as_guest=1`, `become_guest` makes the guest and logs them in
(accounts/guests.py), and the view goes on as for anyone logged in — to the table.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from accounts.guests import GuestRefused, start_guest_session
from gameplay.paces import PACES
from games import catalogue

AS_GUEST = "as_guest"
# Fields of the form that are not carried over to the guest's one-click form.
_NOT_CARRIED = {"csrfmiddlewaretoken", AS_GUEST}


def wants_guest(request: HttpRequest) -> bool:
    """Whether an anonymous visitor's POST asks to go on as a guest."""
    return not request.user.is_authenticated and request.POST.get(AS_GUEST) == "1"


def offer(request: HttpRequest, *, action: str, back: str, what: str) -> HttpResponse:
    """The choice: play as a guest (this form again, its fields kept), log in, or sign up; the
    last two come back to `back`. `what` names what the visitor was about to do."""
    carried = [(k, v) for k, v in request.POST.items() if k not in _NOT_CARRIED]
    after = urlencode({"next": back})
    context = {
        "action": action,
        "carried": carried,
        "what": what,
        "choice": choice_text(request.POST.get("game", ""), request.POST.get("pace", "")),
        "login_url": f"{reverse('account_login')}?{after}",
        "signup_url": f"{reverse('account_signup')}?{after}",
    }
    return render(request, "gameplay/guest/offer.html", context)


def become_guest(request: HttpRequest) -> HttpResponse | None:
    """Make this visitor a guest and log them in; None when done, else the page that says why
    not (429: too many guests from their address)."""
    try:
        start_guest_session(request)
    except GuestRefused as refused:
        context = {"detail": refused.detail}
        return render(request, "gameplay/guest/refused.html", context, status=refused.status)
    return None


def choice_text(game: str, pace: str) -> str:
    """What the visitor chose, in words ("Schieberamsch · Relaxed (90 s a move)"), so the
    offer says what one click starts; "" when the form named neither."""
    games = dict(catalogue.game_choices())
    found = PACES.find(pace) if pace else None
    parts = [games.get(game, ""), str(found.label) if found else ""]
    return " · ".join(p for p in parts if p)
