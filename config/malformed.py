"""Refuse a request whose URL carries a NUL byte, before any view sees it.

PostgreSQL cannot hold NUL in text, so a NUL that reaches a lookup (`?club=%00`, an admin
object id, a seat token) is a database error, i.e. a 500. No URL of ours may contain one:
in the path it names nothing (404); in the query it is a bad request (400).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            raise Http404("no such page")
        if any("\x00" in key + "".join(values) for key, values in request.GET.lists()):
            raise BadRequest("NUL in the query string")
        return self.get_response(request)
