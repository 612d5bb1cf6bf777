"""Who a league page links to a fixture's online table: anyone, when the table may be watched;
else only its own players. A duplicate table (embargoed, then released) and a table of an event
without spectators refuse everyone else, so a "watch" or "Go to the table" link would only lead
them to a refusal. Whether a table may be watched is the table's own setting, asked of gameplay
inside the page's query of its fixtures (`gameplay.api.admits_spectators`): no query more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet

from gameplay import api as gameplay
from league.models import Fixture, Seat


def with_watchable(fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """The fixtures, each with `watchable`: its online table may be watched by anyone now."""
    return fixtures.annotate(watchable=gameplay.admits_spectators("table_ref"))


def table_link(user: Any, fixture: Fixture, seats: Iterable[Seat]) -> bool:
    """Whether a page links this fixture's online table for `user`: a table to watch (the
    fixture read `with_watchable`), or the user's own seat (`seats` with their players)."""
    if not fixture.table_ref:
        return False
    if getattr(fixture, "watchable", False):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return any(s.player.user_id == user.pk for s in seats)
