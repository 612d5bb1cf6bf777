"""A full connection pool is "busy, retry shortly" (503 with Retry-After), not a 500.

Each process holds at most `DB_POOL_SIZE` database connections; a request that waited
`DB_POOL_TIMEOUT` seconds for one gets psycopg_pool's `PoolTimeout`, which Django wraps in its
`OperationalError`. Nothing was written, so the client may simply try again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5


def is_pool_timeout(exc: BaseException) -> bool:
    """Whether `exc` is Django's wrapper of psycopg_pool's timeout."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no pool without psycopg_pool (SQLite)
        return False
    return isinstance(exc, OperationalError) and isinstance(exc.__cause__, PoolTimeout)


class PoolBusyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_pool_timeout(exc):
            return None
        log.warning("database pool exhausted: %s %s answered 503", request.method, request.path)
        response = JsonResponse(
            {"detail": _("The server is busy. Please try again in a few seconds.")}, status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
