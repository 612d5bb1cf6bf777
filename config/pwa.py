"""What makes the site an installable app (docs/notices.md): `/manifest.webmanifest` and the
service worker at `/sw.js`, served from the root so its scope is the whole site (it shows the
pushed notices, static/js/sw.js). Both are read from the static files, whatever serves
`/static/`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOR = "#1f6f43"  # the favicon's green


@cache
def _worker() -> bytes:
    return Path(str(finders.find("js/sw.js"))).read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, checked for updates by the browser on each visit (no-cache)."""
    response = HttpResponse(_worker(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name, colours, icons, start page (in the request's language)."""
    data = {
        "name": "Mediana",
        "short_name": "Mediana",
        "description": _("Card game tables, tournaments and leagues"),
        "lang": getattr(request, "LANGUAGE_CODE", "en"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
