"""Origin check for WebSockets that fits both browsers and bots.

Browsers always send `Origin` on a WebSocket handshake, so a cross-site page is caught by
checking it against ALLOWED_HOSTS. Bots and other non-browser clients send no Origin and
authenticate with a seat token instead, so a missing Origin is let through (the table
protocol requires it). Channels' own AllowedHostsOriginValidator refuses a missing Origin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host


class OriginIfPresentValidator:
    """ASGI middleware: deny a WebSocket whose Origin header names a host we do not serve,
    unless it presents a seat token: the Origin check protects session-authenticated
    connections only (table-protocol.md); a token is checked by the consumer itself."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            origin = dict(scope.get("headers", [])).get(b"origin")
            if (
                origin is not None
                and not self.has_token(scope)
                and not self.allowed(origin.decode("latin1"))
            ):
                denier = WebsocketDenier()
                return await denier(scope, receive, send)
        return await self.application(scope, receive, send)

    @staticmethod
    def has_token(scope: dict) -> bool:
        query = parse_qs(scope.get("query_string", b"").decode("latin1"), keep_blank_values=True)
        return "token" in query

    @staticmethod
    def allowed(origin: str) -> bool:
        host = urlparse(origin).hostname
        if not host:
            return False
        allowed_hosts = list(settings.ALLOWED_HOSTS)
        if settings.DEBUG and not allowed_hosts:
            allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]
        return validate_host(host, allowed_hosts)
