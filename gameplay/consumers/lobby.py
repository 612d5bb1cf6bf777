"""The lobby and notification socket (`/ws/lobby/`): one per browser page, for everyone.

It joins the lobby's group, and a logged-in person's own group (`user-<id>`), and forwards each
`live.message` (`gameplay/services/live.py`) as its JSON text, which the sender serialized once:
no database work and no parsing per message. It reads nothing from the client: a frame is
answered with an error and otherwise ignored. Origin is checked for every socket by
`config.asgi` (`OriginIfPresentValidator`), the session by the WebSocket session stack.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from gameplay.runtime import metrics
from gameplay.services.live import LOBBY_GROUP, user_group


class LobbyConsumer(AsyncWebsocketConsumer):
    """Forwards live messages to one page: the lobby's to everyone, a person's to their pages."""

    groups_joined: list[str]

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.groups_joined = [LOBBY_GROUP]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        metrics.SOCKETS.labels("lobby").inc()
        self.counted = True

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            metrics.SOCKETS.labels("lobby").dec()
            self.counted = False
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The socket only speaks: whatever a client sends is refused, and nothing changes."""
        await self.send(
            text_data='{"type":"error","code":"bad_message","message":"this socket only sends"}'
        )

    async def live_message(self, event: dict[str, Any]) -> None:
        text = event.get("text")
        await self.send(text_data=text if text is not None else json.dumps(event["message"]))
