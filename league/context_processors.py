"""Template context for every page: the header's bell (the count of unread notices)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.http import HttpRequest

from league.services.notifications import unread_count


class Bell:
    """The account's unread notices, counted (one query) the first time a page reads them."""

    def __init__(self, user: Any) -> None:
        self.user = user

    @cached_property
    def unread(self) -> int:
        return unread_count(self.user)


def notices(request: HttpRequest) -> dict[str, Any]:
    """`bell` for a logged-in account; nothing for visitors (no query either way until read)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"bell": Bell(user)}
