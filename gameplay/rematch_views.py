"""Rematch offers on the pages (docs/lobby.md, "Live"): who offers, Accept and Decline.

An offer is a waiting rematch with a seat kept for the viewer. Accepting is joining its table
(the invitation page's POST); declining cancels it (`lobby.decline_rematch`) and its players are
told live. The finished table's page, the rematch's invitation and My games show the same
offer (`gameplay/templates/gameplay/lobby/_rematch_offer.html`), and `static/js/live.js` adds it
to an open finished table's page when the offer arrives.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from gameplay.models import Table
from gameplay.services import lobby


def offer(table: Table) -> dict[str, Any]:
    """What the offer of rematch `table` shows: who sits there already, where to answer."""
    seated = [s.name for s in sorted(table.seats.all(), key=lambda s: s.number) if s.user_id]
    return {
        "table": table.id,
        "of": table.rematch_of_id,
        "by": ", ".join(seated),
        "accept_url": reverse("gameplay:join", args=[table.id]),
        "decline_url": reverse("gameplay:decline", args=[table.id]),
    }


def offers_for(user: Any) -> list[dict[str, Any]]:
    """The rematch offers waiting for this user, newest first (My games)."""
    return [offer(t) for t in lobby.rematch_offers(user).prefetch_related("seats")[:20]]


@require_POST
def decline(request: HttpRequest, table_id: str) -> HttpResponse:
    """Decline a rematch: it is cancelled, and its other players are told at once."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}")
    try:
        table = lobby.decline_rematch(request.user, table_id)
    except lobby.LobbyError as exc:
        messages.error(request, exc.detail)
        return redirect("gameplay:my-games")
    messages.success(request, gettext("You declined the rematch."))
    if table.rematch_of_id:
        return redirect("gameplay:table", table.rematch_of_id)
    return redirect("gameplay:my-games")
