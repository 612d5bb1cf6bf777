"""`POST /play/now/` (fields `game`, `pace`): one click from the home page to a table against bots.

The pace (`gameplay/paces.py`) is the one question Play now asks; left out, the account's last
one (relaxed the first time), and the one chosen is remembered (`lobby.play_now`).

The table starts at once (`lobby.play_now`) and the browser goes to its page, where the session
identifies the player's seat: no link carries a seat token. An anonymous visitor is offered
"Play as a guest" beside log-in and sign-up (gameplay/guest_entry.py); as a guest the same
request goes on to the table.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from gameplay import guest_entry
from gameplay.post_only import post_form
from gameplay.services import lobby


def _back_to(request: HttpRequest) -> str:
    """Where to come back after logging in: the form's `next` if it is ours, else home."""
    wanted = request.POST.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("home")


@post_form("home")
def play_now(request: HttpRequest) -> HttpResponse:
    """Make the table and open it; a bad game or pace is a 400 that says why (nothing is made).
    A visitor not logged in chooses first: as a guest, or log in, or sign up."""
    if guest_entry.wants_guest(request):
        refused = guest_entry.become_guest(request)
        if refused is not None:
            return refused
    if not request.user.is_authenticated:
        return guest_entry.offer(
            request,
            action=reverse("gameplay:play-now"),
            back=_back_to(request),
            what=gettext("Play now"),
        )
    try:
        joined = lobby.play_now(
            request.user, request.POST.get("game", ""), request.POST.get("pace") or None
        )
    except lobby.LobbyError as exc:
        return HttpResponse(exc.detail, status=exc.status, content_type="text/plain; charset=utf-8")
    return redirect(reverse("gameplay:table", args=[joined.table.id]))
