"""Live messages outside a table: to one person's open pages, and to everyone on the lobby.

The lobby socket (`/ws/lobby/`, `gameplay/consumers/lobby.py`, one per browser page) joins the
group of its user and the lobby's group; the services call `to_user` and `to_lobby` after their
write and the message goes out after commit (a rolled-back write announces nothing). Messages
are small JSON objects with a `type`; they carry no secret (no seat token: a page that must take
a seat reloads it with the session). The layer is not trusted for delivery: a page reads the
same facts over HTTP when it (re)connects (docs/lobby.md, "Live").

Each message is serialized once, here (`"text"` beside `"message"` in the layer's event), so
the consumer forwards the text as it is: no work per receiver.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from gameplay.runtime import notify

logger = logging.getLogger(__name__)

LIVE_EVENT = "live.message"
LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """The channel-layer group of every open page of one account."""
    return f"user-{user_id}"


def event(message: dict[str, Any]) -> dict[str, Any]:
    """The channel layer's event for `message`: the message and its JSON text."""
    return {"type": LIVE_EVENT, "message": message, "text": notify.state_text(message)}


def _send(groups: list[str], message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - a layer is always configured
        return
    try:
        sent = event(message)
        notify.publish(layer, [(group, sent) for group in groups])
    except Exception:  # a lost notice must never undo or fail the write it follows
        logger.exception("live message to %s not sent", ", ".join(groups))


def to_user(user_id: int, message: dict[str, Any]) -> None:
    """Send `message` to every open page of this user, after the current transaction commits."""
    to_users([user_id], message)


def to_users(user_ids: list[int], message: dict[str, Any]) -> None:
    """Send `message` to every open page of each of these users (once each), after commit."""
    groups = [user_group(uid) for uid in dict.fromkeys(user_ids)]
    if groups:
        transaction.on_commit(lambda: _send(groups, message))


def to_lobby(message: dict[str, Any]) -> None:
    """Send `message` to every page on the lobby socket, after commit."""
    transaction.on_commit(lambda: _send([LOBBY_GROUP], message))
