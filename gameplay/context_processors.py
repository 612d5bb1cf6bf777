"""Template context for every page: the header's count of turn-based tables waiting for the
account's move (docs/tables.md, "Turn-based tables"), stored on the account
(`User.turns_waiting`, kept by `gameplay.services.turns.recount`): no query."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class YourTurns:
    """The turn-based tables waiting for the account's move, as stored on the account."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @property
    def count(self) -> int:
        return int(getattr(self.user, "turns_waiting", 0) or 0)


def your_turns(request: HttpRequest) -> dict[str, Any]:
    """`your_turns` for a logged-in account; nothing for visitors (no query either way)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turns": YourTurns(user)}
