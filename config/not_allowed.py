"""A person who opens a form's address (a reload, a link, a typed URL) gets a page that says what
happened and where to go, not Django's empty 405; the API's 405 stays as it is (JSON clients)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class FriendlyNotAllowedMiddleware:
    """An empty 405 answering a page's GET becomes the site's 405 page (same status and Allow)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.method in ("GET", "HEAD")
            and not response.content
            and not request.path.startswith("/api/")
        ):
            page = HttpResponse(
                render_to_string("405.html", {"back": _back(request)}, request=request),
                status=405,
            )
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response


def _back(request: HttpRequest) -> str:
    """The page a person came from, when it is this site's: the form's own page, most likely."""
    referer = request.META.get("HTTP_REFERER", "")
    host = request.get_host()
    for scheme in ("https://", "http://"):
        prefix = f"{scheme}{host}/"
        if referer.startswith(prefix) and not referer.startswith(prefix + "/"):
            return referer[len(prefix) - 1 :]
    return ""
