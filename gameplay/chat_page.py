"""What the table page's chat (static/js/chat.js, docs/chat.md) is told by the page: the
channel, whether this viewer may write, the limits and the preset phrases in the reader's
language. The socket checks everything again; this only shapes the page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from gameplay.models import Table
from gameplay.services import chat


def chat_config(table: Table, seat: int | None, user: Any) -> dict[str, Any] | None:
    """The chat's part of the page config; None when the table has no chat (no panel)."""
    if not table.chat or table.embargoed:
        return None
    logged_in = bool(getattr(user, "is_authenticated", False))
    muted = logged_in and bool(getattr(user, "chat_muted", False))
    # The viewer as an author of lines (their own lines get no Mute or Report).
    me = f"s{seat}" if seat is not None else (f"u{user.pk}" if logged_in else None)
    return {
        "channel": chat.channel_of(seat).value,
        "me": me,
        # A seat's person writes (whoever holds its link); a spectator once logged in.
        "canWrite": (seat is not None or logged_in) and not muted,
        "muted": muted,
        "loggedIn": logged_in,
        "maxChars": chat.max_chars(),
        "phrases": {code: gettext(str(label)) for code, label in chat.PHRASES.items()},
    }
