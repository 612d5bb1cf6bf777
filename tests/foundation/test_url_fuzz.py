"""No URL is a 500: hostile values in every path parameter of every route, HTTP and WebSocket.

The routes are read from the resolvers themselves, so a route added later is covered without
touching this file. PostgreSQL (CI's database) is where a NUL used to reach a query and fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from config.asgi import application
from gameplay.routing import websocket_urlpatterns
from tests.gameplay.conftest import make_table, make_users

# As a client would put them in a URL: raw where a browser sends them raw, percent-encoded else.
HOSTILE = [
    "%00",
    "a%00b",
    "%ff",
    "%c0%af",
    "%0d%0a",
    "..",
    "..%2f..%2fetc%2fpasswd",
    "é",
    "%F0%9F%92%A5",  # an emoji
    "%ed%a0%80",  # a UTF-8-encoded lone surrogate
    "%zz",
    "'%22%3Cscript%3E",
    "-1",
    "99999999999999999999",
    "1" * 5000,  # past Python's int-string conversion limit
    "x" * 5000,
]
QUERY = "&".join(
    f"{name}={value}"
    for name, value in [
        ("token", "%00"),
        ("page", "%00"),
        ("club", "a%00"),
        ("country", "%00"),
        ("game", "%00"),
        ("status", "%00"),
        ("provisional_page", "1" * 5000),
        ("next", "%00"),
        ("%00", "x"),
    ]
)

_ROUTE_PARAM = re.compile(r"<(?:[^>:]+:)?([^>]+)>")
_REGEX_GROUP = re.compile(r"\(\?P<([^>]+)>")


def _route_parts(route: str) -> list[str | None]:
    """A `path()` route as literal text and `None` for each parameter."""
    parts: list[str | None] = []
    for n, piece in enumerate(_ROUTE_PARAM.split(route)):
        parts.append(piece if n % 2 == 0 else None)
    return parts


def _regex_parts(regex: str) -> list[str | None]:
    """A `re_path()` regex the same way: named groups become parameters, anchors go."""
    regex = regex.removeprefix("^").removesuffix("$")
    parts: list[str | None] = []
    at = 0
    for group in _REGEX_GROUP.finditer(regex):
        if group.start() < at:
            continue  # a group nested in one already replaced
        parts.append(regex[at : group.start()])
        depth, end = 1, group.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(regex[end], 0) if regex[end - 1] != "\\" else 0
            end += 1
        parts.append(None)
        at = end
    parts.append(regex[at:])
    literal = [re.sub(r"\\(.)", r"\1", p) if p is not None else None for p in parts]
    for piece in literal:
        assert piece is None or not re.search(r"[()\[\]*+?|]", piece), (
            f"teach this test the regex {regex!r}"
        )
    return literal


def _parts(pattern: Any) -> list[str | None]:
    if isinstance(pattern, RoutePattern):
        return _route_parts(str(pattern))
    if isinstance(pattern, RegexPattern):
        return _regex_parts(pattern._regex)
    raise AssertionError(f"teach this test the pattern {pattern!r}")


def templates(patterns: list[Any], prefix: list[str | None] | None = None) -> Iterator[list]:
    """Every route under `patterns` (included ones too) as a list of literals and `None`s."""
    for entry in patterns:
        parts = [*(prefix or []), *_parts(entry.pattern)]
        if isinstance(entry, URLResolver):
            yield from templates(entry.url_patterns, parts)
        elif isinstance(entry.callback, URLRouter):
            yield from templates(entry.callback.routes, parts)
        else:
            assert isinstance(entry, URLPattern)
            yield parts


def fill(parts: list[str | None], value: str) -> str:
    return "/" + "".join(value if p is None else p for p in parts).lstrip("/")


def hostile_urls(patterns: list[Any]) -> Iterator[str]:
    """Each route with every parameter hostile, and each with a hostile query string."""
    for parts in templates(patterns):
        if None in parts:
            for value in HOSTILE:
                yield fill(parts, value)
        yield fill(parts, "x") + "?" + QUERY


def http_templates() -> list[str]:
    return [
        "".join("<>" if p is None else p for p in parts)
        for parts in templates(get_resolver().url_patterns)
    ]


def test_the_walk_sees_every_kind_of_route():
    routes = http_templates()
    for expected in (
        "tables/<>/record.json",
        "events/<>/rounds/<>/action/",
        "api/ratings/<>/",
        "admin/gameplay/table/<>/change/",
        "admin/<>",  # the admin's catch-all regex
        "healthz",
    ):
        assert expected in routes, expected
    ws = [
        "".join("<>" if p is None else p for p in parts)
        for parts in templates(websocket_urlpatterns)
    ]
    assert "ws/tables/<>/" in ws


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
def test_no_hostile_url_is_a_server_error(who):
    User = get_user_model()
    user = {
        "anonymous": lambda: None,
        "player": lambda: User.objects.create_user("pat", password="pw"),
        "staff": lambda: User.objects.create_superuser("boss", password="pw"),
    }[who]()
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    failures = []
    for url in hostile_urls(get_resolver().url_patterns):
        for method in (client.get, client.post):
            response = method(url)
            if response.status_code >= 500:
                failures.append((method.__name__, url[:120], response.status_code))
            if user is not None and _logged_out(response):
                client.force_login(user)  # /logout/ and the admin's logout end the session
    assert failures == []


def _logged_out(response: Any) -> bool:
    cookie = response.cookies.get("sessionid")
    return cookie is not None and not cookie.value


async def _handshake(path: str) -> bool:
    """Whether the socket was accepted; an exception in the application propagates."""
    comm = WebsocketCommunicator(application, path)
    connected, _ = await comm.connect(timeout=5)
    if connected:
        await comm.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_no_hostile_websocket_url_is_accepted_or_a_server_error():
    accepted = [
        url
        for url in hostile_urls(websocket_urlpatterns)
        if await _handshake(url) and not url.startswith("/ws/echo/")
    ]
    assert accepted == []
    for junk in ("/ws/%00/", "/ws/tables/", "/ws/tables/a/b/", "/%00", "/ws/tables/" + "a" * 33):
        assert not await _handshake(junk), junk
    # A real table: a hostile token is a wrong token, refused like any other.
    people = await database_sync_to_async(make_users)("ana", "ben", "cleo")
    table = await database_sync_to_async(make_table)(people=people)
    for value in ("%00", "a%00b", "%ff", "x" * 5000, "%ed%a0%80"):
        assert not await _handshake(f"/ws/tables/{table.id}/?token={value}"), value
    assert await _handshake(f"/ws/tables/{table.id}/")  # the spectator still gets in
