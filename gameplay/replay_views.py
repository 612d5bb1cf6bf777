"""The replay of a finished table: `/tables/<id>/replay/` and its steps, `…/replay.json`.

The page carries the summary and one deal's steps (`json_script`); the browser
(`static/js/replay.js`, drawing with the table's own renderers) fetches the other deals from
`replay.json?deal=K` as the viewer steps into them. The server replays the record through the
engine for every step; the browser holds no rules. Who may read the record may watch the
replay (`services.replay.may_replay`); anyone else, and everyone before the end, gets a 404;
an embargoed (duplicate) table's players get a 403 that says it waits for the section.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.preferences import display_preferences
from gameplay.models import Table
from gameplay.services import analysis, replay, summaries, table_context
from gameplay.services.duplicate_tables import WITHHELD
from games import catalogue


class BadDeal(ValueError):
    """`?deal=` is not a deal number."""


def _deal_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("deal")
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 6:
        raise BadDeal(gettext("deal must be a deal number (0 for the first deal)"))
    return int(raw)


def _finished_table(request: HttpRequest, table_id: str) -> Table | None:
    """The table, when the request may watch its replay; else None (a 404 either way)."""
    table = Table.objects.filter(pk=table_id).defer("state").first()
    token = request.GET.get("token") or None
    if table is None or not replay.may_replay(table, token, request.user):
        return None
    return table


def _strings() -> dict[str, str]:
    """The words the browser's replay controls show, in the reader's language."""
    return {
        "first": gettext("First step"),
        "prev": gettext("Previous step"),
        "next": gettext("Next step"),
        "last": gettext("Last step"),
        "dealOf": gettext("Deal %(n)s of %(m)s"),
        "stepOf": gettext("step %(n)s of %(m)s"),
        "dealOption": gettext("Deal %(n)s — %(dealer)s deals"),
        "toAct": gettext("To act: %(who)s"),
        "dealOver": gettext("The deal is over."),
        "matchOver": gettext("The match is over."),
        "stock": gettext("Stock as dealt"),
        "noCards": gettext("no cards"),
        "loading": gettext("Loading the deal…"),
        "loadFailed": gettext("This deal could not be loaded. Try again."),
        "title": gettext("Replay"),
        "summary": gettext("How the deal was scored"),
        # Game analysis (docs/bots.md, "Game analysis").
        "analyse": gettext("Analyse"),
        "analysing": gettext("The analysis is running…"),
        "analysisFailed": gettext("The analysis failed. You may ask for it again."),
        "inaccuracy": gettext("Inaccuracy"),
        "mistake": gettext("Mistake"),
        "blunder": gettext("Blunder"),
        # A proposal, not what happened: the decision the analysis would have made instead.
        "better": gettext("Better would be:"),
        "goodMove": gettext("As good as the best decision found: costs nothing."),
        # The costs, accuracy and double-dummy lines come worded from the server, in the game's
        # payout unit (gameplay.services.analysis.state).
    }


@never_cache  # Back and Forward show the analysis as it is now (running, done), not as it was
@require_GET
def table_replay(request: HttpRequest, table_id: str) -> HttpResponse:
    """The replay page; `?deal=K` opens deal K (from 0) instead of the first, `&step=P` at its
    P-th action (read by static/js/replay.js)."""
    table = _finished_table(request, table_id)
    if table is None:
        raise Http404("no replay")
    if table.embargoed:  # a duplicate table: its players too wait for the section
        name = catalogue.display_name(table.game)
        context = {"table": table, "game_name": name, "message": WITHHELD}
        return render(request, "gameplay/withheld.html", context, status=403)
    try:
        deal = _deal_param(request) or 0
        data = replay.summary(table, deal=deal)
    except BadDeal as e:
        return HttpResponse(str(e), status=400, content_type="text/plain; charset=utf-8")
    except IndexError:
        raise Http404("no such deal") from None
    seats = list(table.seats.order_by("number").values("number", "name", "bot"))
    config: dict[str, Any] = {
        # What the table's core (static/js/table.js) reads, in its replay mode: no socket.
        "replay": True,
        "table": table.id,
        "game": table.game,
        "gameName": catalogue.display_name(table.game),
        "seat": None,
        "players": [{"seat": s["number"], "name": s["name"], "bot": bool(s["bot"])} for s in seats],
        "nDeals": table.n_deals,
        "recordUrl": reverse("gameplay:table_record", args=[table.id]),
        # The replay's own.
        "stepsUrl": reverse("gameplay:replay_json", args=[table.id]),
        "summary": {k: v for k, v in data.items() if k != "steps"},
        "initial": data["steps"],
        "strings": _strings(),
        # The deal summaries (static/js/summary.js): the Match table's rows and legend.
        "summaryUrl": reverse("gameplay:deal_summary", args=[table.id]),
        "legend": summaries.legend(table.game),
        "analysisUrl": reverse("gameplay:table_analysis", args=[table.id]),
        "analysis": analysis.state(table, request.user),
    }
    # Who may not ask: a visitor of a public table is told to sign in; others see nothing.
    ask_hint = (
        not request.user.is_authenticated
        and config["analysis"]["status"] == "none"
        and table.allow_spectators
        and not table.private
    )
    context = {
        "table": table,
        "game_name": catalogue.display_name(table.game),
        "seats": seats,
        "config": config,
        "where": table_context.shown(table.context),  # the table page's link back, if any
        "display": display_preferences(request.user),  # the card faces, as at the table
        "ask_hint": ask_hint,
    }
    return render(request, "gameplay/replay.html", context)


@require_GET
def table_replay_json(request: HttpRequest, table_id: str) -> JsonResponse:
    """The replay as JSON: the summary, or with `?deal=K` that deal's steps."""
    table = _finished_table(request, table_id)
    if table is None:
        return JsonResponse({"detail": gettext("no replay of this table")}, status=404)
    if table.embargoed:
        return JsonResponse({"detail": str(WITHHELD)}, status=403)
    try:
        deal = _deal_param(request)
        data = replay.summary(table) if deal is None else replay.deal_steps(table, deal)
    except BadDeal as e:
        return JsonResponse({"detail": str(e)}, status=400)
    except IndexError:
        return JsonResponse({"detail": gettext("the record has no such deal")}, status=404)
    return JsonResponse(data)


@require_http_methods(["GET", "POST"])
def table_analysis(request: HttpRequest, table_id: str) -> HttpResponse:
    """The table's game analysis: GET its state as JSON (whoever may watch the replay); POST
    asks for it (the table's players, anyone signed in for a public table): 202 queued, 403
    refused, 429 over the hourly limit, 200 answered at once (a table without a decision of a
    person: nothing to analyse, no quota used). A form's POST (no JSON asked for) goes back to
    the replay page, or over the limit gets a page that says so with the way back."""
    table = _finished_table(request, table_id)
    if table is None:
        return JsonResponse({"detail": gettext("no replay of this table")}, status=404)
    if table.embargoed:
        return JsonResponse({"detail": str(WITHHELD)}, status=403)
    if request.method == "GET":
        return JsonResponse(analysis.state(table, request.user))
    wants_json = "application/json" in request.headers.get("Accept", "")
    if not analysis.may_request(table, request.user):
        detail = gettext("Only the players of this table may ask for its analysis.")
        if not request.user.is_authenticated:
            detail = gettext("Sign in to ask for an analysis.")
        return JsonResponse({"detail": detail}, status=403)
    try:
        analysis.request(table, request.user)
    except analysis.Throttled as e:
        if not wants_json:  # the form without JavaScript: a page with the way back
            context = {
                "table": table,
                "message": str(e),
                "game_name": catalogue.display_name(table.game),
            }
            return render(request, "gameplay/analysis_refused.html", context, status=429)
        return JsonResponse({"detail": str(e)}, status=429)
    if not wants_json:
        return redirect(reverse("gameplay:replay", args=[table.id]))
    state = analysis.state(table, request.user)
    # 200: answered at once, nothing to analyse (no quota used); 202: queued, under way or done.
    return JsonResponse(state, status=200 if state.get("nothing") else 202)
