"""The pages of turn-based play (docs/tables.md, "Turn-based tables"): claim a timeout, go on
vacation or come back, and the "Your turn" rows of My games.

Thin views over `gameplay.services.turn_timeouts` and `gameplay.services.vacation`, which
authorize every write; a `LobbyError` becomes a message on the page, never a 500.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from gameplay.models import Table
from gameplay.services import table_context, turn_timeouts, turns, vacation
from gameplay.services.lobby import LobbyError
from games import catalogue


@require_POST
def claim_timeout(request: HttpRequest, table_id: str) -> HttpResponse:
    """Claim the timeout of the players whose turn-based deadline passed at your table."""
    url = reverse("gameplay:table", args=[table_id])
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={url}")
    try:
        seats = turn_timeouts.claim_timeout(request.user, table_id)
    except LobbyError as exc:
        messages.error(request, exc.detail)
        return redirect(url)
    messages.success(
        request,
        ngettext(
            "The late player's seat goes to a bot; the match plays on.",
            "The late players' seats go to bots; the match plays on.",
            len(seats),
        ),
    )
    return redirect(url)


@require_POST
def vacation_view(request: HttpRequest) -> HttpResponse:
    """Go on vacation (`days`) or come back (`end`); back to the profile page."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={reverse('profile')}")
    try:
        if "end" in request.POST:
            vacation.end(request.user)
            messages.success(request, gettext("Welcome back: your clocks run again."))
        else:
            raw = request.POST.get("days", "")
            days = int(raw) if raw.strip().isdigit() else None
            away = vacation.start(request.user, days)
            messages.success(
                request,
                gettext("You are on vacation until %(until)s: your turn-based clocks wait.")
                % {"until": _when(away.until)},
            )
    except LobbyError as exc:
        messages.error(request, exc.detail)
    return redirect(reverse("profile") + "#vacation")


def _when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def your_turn_rows(user: Any, now: datetime | None = None) -> list[dict[str, Any]]:
    """My games' "Your turn": the turn-based tables waiting for the user's move, the nearest
    deadline first, with the time left (two queries)."""
    now = now or timezone.now()
    rows = []
    for table in turns.your_turns(user):
        seats = list(table.seats.all())
        rows.append(
            {
                "table": table,
                "game_name": catalogue.display_name(table.game),
                "opponents": [s for s in seats if s.user_id != user.pk],
                "left": time_left(table, now),
                "late": table.deadline is not None and table.deadline <= now,
                "url": reverse("gameplay:table", args=[table.id]),
                "where": table_context.shown(table.context),  # an event's fixture says so
            }
        )
    return rows


def time_left(table: Table, now: datetime) -> str:
    """The time left to move, in a person's words: "2 days 3 h", "5 h 10 min", "time is up"."""
    if table.deadline is None:
        return ""
    seconds = int((table.deadline - now).total_seconds())
    if seconds <= 0:
        return gettext("time is up")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return ngettext("%(d)d day %(h)d h", "%(d)d days %(h)d h", days) % {"d": days, "h": hours}
    return gettext("%(h)d h %(m)d min") % {"h": hours, "m": rest // 60}
