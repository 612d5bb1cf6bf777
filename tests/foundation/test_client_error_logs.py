"""A client's bad request is one log line: anyone can send them, and a traceback each would let
an anonymous client fill the disk. The server's own failures (5xx) keep their tracebacks."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import pytest
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from config.logging import filter_every_handler

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def fine(request: HttpRequest) -> HttpResponse:
    return HttpResponse("fine")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not yours")


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug of ours")


urlpatterns = [
    path("fine/", fine),
    path("forbidden/", forbidden),
    path("broken/", broken),
    path("", include("config.urls")),  # the site's 403 page links the site's own pages
]


@pytest.fixture
def logged() -> Iterator[Callable[[Callable[[], HttpResponse], int], str]]:
    """What Django logs for one request, through a handler filtered as every handler is."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    django = logging.getLogger("django")
    django.addHandler(handler)
    filter_every_handler()  # as settings.LOGGING_CONFIG does when a process starts

    def run(request: Callable[[], HttpResponse], status: int) -> str:
        out.seek(0)
        out.truncate()
        assert request().status_code == status
        return out.getvalue()

    yield run
    django.removeHandler(handler)


def test_client_errors_are_one_warning_line_each(logged):
    client = Client(enforce_csrf_checks=True)
    lines = [
        logged(lambda: client.get("/fine/?q=%00"), 400),
        logged(lambda: client.get("/forbidden/"), 403),
        logged(lambda: Client(enforce_csrf_checks=True).post("/fine/"), 403),  # no cookie yet
        logged(lambda: client.get("/fine/", HTTP_HOST="evil.example"), 400),
    ]
    assert lines == [
        "WARNING NUL in the query string: /fine/\n",
        "WARNING Forbidden (Permission denied): /forbidden/\n",
        "WARNING Forbidden (CSRF cookie not set.): /fine/\n",
        "WARNING Invalid HTTP_HOST header: 'evil.example'. You may need to add 'evil.example' "
        "to ALLOWED_HOSTS.\n",
    ]


def test_a_server_error_keeps_its_traceback(logged):
    text = logged(lambda: Client(raise_request_exception=False).get("/broken/"), 500)
    assert text.startswith("ERROR Internal Server Error: /broken/\nTraceback")
    assert text.rstrip().endswith("RuntimeError: a bug of ours")
