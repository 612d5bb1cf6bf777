"""HTTP pages of the gameplay app. The browser table comes in "Online play II"."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from gameplay.models import Table


def table(request: HttpRequest, table_id: str) -> HttpResponse:
    """A placeholder: who sits where and the WebSocket address (no cards: those need a seat)."""
    obj = get_object_or_404(Table, pk=table_id)
    seats = obj.seats.order_by("number").values("number", "name", "bot")
    return render(request, "gameplay/table.html", {"table": obj, "seats": seats})
