"""HTTP pages of the gameplay app: the browser table and the finished table's record.

The page itself carries no cards: it names the table, the seats and who the viewer is, and the
browser client (`static/js/table.js`) gets everything else over the table WebSocket
(`mediana.table/1`), which checks the same identity again on connect.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounts.guests import is_guest_name
from accounts.preferences import display_preferences
from gameplay import api, lobby_views
from gameplay.chat_page import chat_config
from gameplay.clock import is_turn_based
from gameplay.models import Table
from gameplay.services import duplicate_tables, identity, matches, summaries, table_context
from games import catalogue, registry


def _viewer(request: HttpRequest, table: Table) -> identity.Identity | None:
    """Who is looking: `?token=` (a seat), else the session user's seat, else a spectator when
    the table allows one; `None` = may not look. The same rule as the WebSocket's."""
    token = request.GET.get("token") or None
    return identity.identify(table.id, token, request.user)


@require_GET
def table(request: HttpRequest, table_id: str) -> HttpResponse:
    """The table page: the client connects to `ws/tables/<id>/` (passing `?token=` on)."""
    obj = get_object_or_404(Table, pk=table_id)
    viewer = _viewer(request, obj)
    if obj.status in (Table.Status.WAITING, Table.Status.CANCELLED):
        # Not dealt (yet, or ever): its invitation and Leave instead of an empty table.
        return lobby_views.waiting_table(request, obj, viewer.seat if viewer else None)
    seats = list(
        obj.seats.order_by("number").values(
            "number", "name", "bot", "resigned_user_id", "user__vacation_until"
        )
    )
    by_day, now = is_turn_based(obj.seconds_per_move), timezone.now()
    for seat in seats:  # the guest mark (a guest's name says so: accounts.guests)
        seat["guest"] = not seat["bot"] and is_guest_name(seat["name"])
        # By the day a player on vacation is marked: their clock waits until they are back.
        until = seat["user__vacation_until"]
        seat["away"] = until.isoformat() if by_day and until and until > now else None
    spec = registry.get_game(obj.game)
    if viewer is None:
        return render(
            request,
            "gameplay/table_private.html",
            {"table": obj, "game_name": catalogue.display_name(obj.game)},
            status=403,
        )
    config = {
        "table": obj.id,
        "game": obj.game,
        "gameName": catalogue.display_name(obj.game),
        "seat": viewer.seat,
        # `resigned`: the person gave up the seat and a bot plays it out (the seat says so).
        "players": [
            {
                "seat": s["number"],
                "name": s["name"],
                "bot": bool(s["bot"]),
                "resigned": s["resigned_user_id"] is not None,
                "guest": s["guest"],
                "awayUntil": s["away"],
            }
            for s in seats
        ],
        "nDeals": obj.n_deals,
        "secondsPerMove": obj.seconds_per_move,
        "turnBased": is_turn_based(obj.seconds_per_move),  # by the day: no summary countdown
        "socketPath": f"/ws/tables/{obj.id}/",
        # An embargoed table's record and replay wait for its section: the end says so.
        "recordUrl": None if obj.embargoed else f"/tables/{obj.id}/record.json",
        "replayUrl": None if obj.embargoed else reverse("gameplay:replay", args=[obj.id]),
        "replayLabel": gettext("Replay this match step by step"),
        "withheld": str(duplicate_tables.WITHHELD) if obj.embargoed else None,
        # What the table's contracts, signals, targets… mean (the engine's HINTS), translated.
        "hints": {key: gettext(text) for key, text in spec.hints.items()},
        "hintLabel": gettext("What does this mean?"),
        # The end of a deal (static/js/summary.js): how long its summary shows, where a past
        # deal's comes from, and what the Match table's figures mean.
        "summarySeconds": summaries.summary_seconds(),
        "summaryUrl": reverse("gameplay:deal_summary", args=[obj.id]),
        "legend": summaries.legend(obj.game),
        # The table's chat (static/js/chat.js): None when it has none.
        "chat": chat_config(obj, viewer.seat, request.user),
    }
    context = {
        "table": obj,
        "game_name": catalogue.display_name(obj.game),
        "goal": spec.goal,
        # The header says where the table's rules differ from the usual game's.
        "rules": api.describe_variant(obj.game, obj.variant, changed_only=True),
        # Where the table belongs (an event's round and table), a link back; None: a friendly one.
        "where": table_context.shown(obj.context),
        "seats": seats,
        "viewer_seat": viewer.seat,
        "config": config,
        # The viewer's card faces and move confirmation (accounts/preferences.py): the root's
        # data-card-faces and data-confirm-moves, read by static/js/table.js.
        "display": display_preferences(request.user),
        **lobby_views.table_extras(request, obj),  # Rematch, Resign
    }
    return render(request, "gameplay/table.html", context)


@require_GET
def table_record(request: HttpRequest, table_id: str) -> JsonResponse:
    """The exported game record (`mediana.record/1`) of a finished table; 404 before the end
    (the record holds every hand). Who may look at the table may read its record."""
    obj = get_object_or_404(Table.objects.defer("state"), pk=table_id)
    if obj.status != Table.Status.FINISHED or _viewer(request, obj) is None:
        raise Http404("no record yet")
    if obj.embargoed:  # a duplicate table: its players too wait for the section
        return JsonResponse({"detail": str(duplicate_tables.WITHHELD)}, status=403)
    return JsonResponse(matches.table_record(obj.id), json_dumps_params={"indent": 1})
