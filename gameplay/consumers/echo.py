"""A WebSocket that says who the connection is and echoes what it is sent.

It proves the wiring end to end: session authentication reaches the socket, and a group message
sent through any server process reaches every process (the channel layer is shared).
"""

from __future__ import annotations

import os
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from gameplay.consumers.table import parse_message
from gameplay.services.errors import TableError

ECHO_GROUP = "echo"
_PID = os.getpid()  # tells which server process answered


class EchoConsumer(AsyncJsonWebsocketConsumer):
    """Greets with the connection's identity; `broadcast` fans out through the channel layer."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(ECHO_GROUP, self.channel_name)
        await self.accept()
        await self.send_json({"type": "hello", **self._identity()})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(ECHO_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Parsed as the table socket parses (bounded size and depth): junk is an error."""
        try:
            content = parse_message(text_data)
        except TableError as exc:
            await self.send_json({"type": "error", "code": exc.code, "message": exc.message})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "broadcast":
            await self.channel_layer.group_send(
                ECHO_GROUP,
                {
                    "type": "echo.broadcast",
                    "text": str(content.get("text", ""))[:500],
                    "from": self._identity()["user"],
                },
            )
            return
        await self.send_json({"type": "echo", "data": content, **self._identity()})

    async def echo_broadcast(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "broadcast", "text": event["text"], "from": event["from"]})

    def _identity(self) -> dict[str, Any]:
        user = self.scope.get("user")
        authenticated = bool(user is not None and user.is_authenticated)
        return {
            "user": user.get_username() if authenticated else None,
            "authenticated": authenticated,
            "server_pid": _PID,
        }
