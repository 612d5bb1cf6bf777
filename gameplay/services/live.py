"""Live messages outside a table: to one person's open pages, and to everyone on the lobby.

The lobby socket (`/ws/lobby/`, one per browser page) joins the group of its user and the
lobby's group; the services call `to_user` and `to_lobby` after their write and the message
goes out after commit (a rolled-back write announces nothing). Messages are small JSON objects
with a `type`; they carry no secret (no seat token: a page that must take a seat reloads it
with the session). The layer is not trusted for delivery: a page reads the same facts over
HTTP when it (re)connects.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

LIVE_EVENT = "live.message"
LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - a layer is always configured
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": LIVE_EVENT, "message": message})
    except Exception:  # a lost notice must never undo or fail the write it follows
        logger.exception("live message to %s not sent", group)


def to_user(user_id: int, message: dict[str, Any]) -> None:
    """Send `message` to every open page of this user, after the current transaction commits."""
    transaction.on_commit(lambda: _send(user_group(user_id), message))


def to_lobby(message: dict[str, Any]) -> None:
    """Send `message` to every page on the lobby socket, after commit."""
    transaction.on_commit(lambda: _send(LOBBY_GROUP, message))
