"""Site-wide pages that belong to no app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay import api as gameplay


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Mediana is, the demo table, and a live WebSocket check."""
    return render(request, "home.html", {"demo_table": gameplay.demo_table_ref()})
