"""WebSocket URL routes of the gameplay app.

A path that names no route, or a malformed one (a table id that no table can have, a NUL in the
query), is refused at the handshake (HTTP 403), as an unknown table is: without the last
route the router would raise, which a server answers with a 500.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from gameplay import converters  # noqa: F401  (registers <table_id:...>)
from gameplay.consumers.echo import EchoConsumer
from gameplay.consumers.lobby import LobbyConsumer
from gameplay.consumers.table import TableConsumer


class RefusedConsumer(AsyncWebsocketConsumer):
    """Refuses every handshake."""

    async def connect(self) -> None:
        await self.close()  # before accept: the handshake is answered with HTTP 403


refused = RefusedConsumer.as_asgi()


def without_nul_in_query(app: Any) -> Any:
    """Refuse a handshake whose query has a NUL (PostgreSQL refuses it in any lookup)."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        query = unquote(scope.get("query_string", b"").decode("latin1"))
        if "\x00" in query:
            return await refused(scope, receive, send)
        return await app(scope, receive, send)

    return guarded


websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/lobby/", without_nul_in_query(LobbyConsumer.as_asgi())),
    path("ws/tables/<table_id:table_id>/", without_nul_in_query(TableConsumer.as_asgi())),
    re_path(r"", refused),
]
