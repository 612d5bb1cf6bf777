"""`POST /play/now/` (fields `game`, `pace`): one click from the home page to a table against bots.

The pace (`gameplay/paces.py`) is the one question Play now asks; left out, the account's last
one (relaxed the first time), and the one chosen is remembered (`lobby.play_now`).

The table starts at once (`lobby.play_now`) and the browser goes to its page, where the session
identifies the player's seat: no link carries a seat token. An anonymous visitor is offered
"Play as a guest" beside log-in and sign-up (gameplay/guest_entry.py); as a guest the same
request goes on to the table.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from gameplay import guest_entry
from gameplay.paces import PACES
from gameplay.services import lobby
from games import catalogue


def _back_to(request: HttpRequest) -> str:
    """Where to come back after logging in: the form's `next` if it is ours, else home."""
    wanted = request.POST.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("home")


def _chosen(game: str, pace: str, seats: str = "") -> dict[str, str] | None:
    """The game, live pace and size of table asked for, when they name real ones (the pace
    and the size may be left out)."""
    if game not in dict(catalogue.game_choices()):
        return None
    found = PACES.find(pace) if pace else None
    if pace and (found is None or found.turn_based):
        return None
    chosen = {"game": game}
    if pace:
        chosen["pace"] = pace
    if seats == "4" and 4 in catalogue.game(game).table_sizes:
        chosen["seats"] = seats
    return chosen


def _seats(given: str) -> int | None:
    """The size of table asked for: "4" a table of four (for a three-player game, the dealer
    sitting out; Mediatore's own), anything else the game's own."""
    return 4 if given == "4" else None


def _again(request: HttpRequest) -> str:
    """Where a visitor who logs in or signs up comes back to: this choice, one click from its
    table (GET of this address with the game and pace), else where the form was."""
    chosen = _chosen(
        request.POST.get("game", ""), request.POST.get("pace", ""), request.POST.get("seats", "")
    )
    if chosen is None:
        return _back_to(request)
    return f"{reverse('gameplay:play-now')}?{urlencode(chosen)}"


def play_now(request: HttpRequest) -> HttpResponse:
    """POST: make the table and open it; a bad game or pace is a 400 that says why (nothing is
    made). A visitor not logged in chooses first: as a guest, or log in, or sign up. GET (a
    reload, or the way back after logging in): the choice again with its one button, or home."""
    if request.method in ("GET", "HEAD"):
        chosen = _chosen(
            request.GET.get("game", ""), request.GET.get("pace", ""), request.GET.get("seats", "")
        )
        if chosen is None:
            return redirect(reverse("home"))
        what = guest_entry.choice_text(chosen["game"], chosen.get("pace", ""))
        return render(request, "gameplay/play_now.html", {"chosen": chosen, "what": what})
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if guest_entry.wants_guest(request):
        refused = guest_entry.become_guest(request)
        if refused is not None:
            return refused
    if not request.user.is_authenticated:
        return guest_entry.offer(
            request,
            action=reverse("gameplay:play-now"),
            back=_again(request),
            what=gettext("Play now"),
        )
    try:
        joined = lobby.play_now(
            request.user,
            request.POST.get("game", ""),
            request.POST.get("pace") or None,
            seats=_seats(request.POST.get("seats", "")),
        )
    except lobby.LobbyError as exc:
        return HttpResponse(exc.detail, status=exc.status, content_type="text/plain; charset=utf-8")
    return redirect(reverse("gameplay:table", args=[joined.table.id]))
