"""`/favicon.ico`: the site's icon at the address browsers ask for by themselves.

Served here rather than redirected to `/static/`: uvicorn serves no static files (the reverse
proxy does, and `runserver` only with DEBUG), so a redirect was a 404 wherever `/static/` was
not served — a browser asks for this address on every page that names no icon (the admin, the
API's pages, a JSON response). The SVG is small; browsers accept it at this address.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

ICON = "img/favicon.svg"


@cache
def _icon() -> bytes:
    found = finders.find(ICON)
    return Path(str(found)).read_bytes()


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """The icon itself (a day in caches), whatever serves `/static/`."""
    response = HttpResponse(_icon(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
