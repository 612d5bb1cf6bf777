"""Site-wide pages that belong to no app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Mediana is, and a live WebSocket check."""
    return render(request, "home.html")
