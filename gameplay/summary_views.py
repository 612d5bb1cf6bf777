"""`/tables/<id>/summary.json?deal=K`: a finished deal's summary, for the Match table's rows.

The deal that just ended comes with the states (`view.last_deal.summary`); this serves any
finished deal of the table — during the match too, since a deal that is over is public — to
whoever may watch the table (the page's rule: a seat, else a spectator where spectators are
allowed). Anyone else gets a 404, as for a table that does not exist.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from gameplay.models import Table
from gameplay.services import identity, summaries


@require_GET
def deal_summary(request: HttpRequest, table_id: str) -> JsonResponse:
    """Deal `?deal=K`'s summary (`Match.deal_summary`): 400 for a `deal` that is not a deal
    number, 404 for a deal that is not finished and for a table the request may not watch."""
    table = Table.objects.filter(pk=table_id).defer("state", "record").first()
    token = request.GET.get("token") or None
    if table is None or identity.identify(table.id, token, request.user) is None:
        return JsonResponse({"detail": gettext("no such table")}, status=404)
    raw = request.GET.get("deal", "")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 6:
        return JsonResponse(
            {"detail": gettext("deal must be a deal number (0 for the first deal)")}, status=400
        )
    try:
        data = summaries.past_summary(table, int(raw))
    except IndexError:
        return JsonResponse({"detail": gettext("this deal is not finished")}, status=404)
    return JsonResponse(data)
