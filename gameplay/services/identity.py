"""Who a connection or a page request is at a table: a seat, a spectator, or nobody."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameplay.models import Seat, Table


@dataclass(frozen=True)
class Identity:
    """Who a connection is at a table: a seat number, or a spectator (`seat=None`), as of the
    table's seats revision `seats_rev` (a later join, leave or resignation may change it).
    `connected`: the seat's player has connected to the table before (its clock may run)."""

    seat: int | None
    seats_rev: int = 0
    connected: bool = True


def identify(table_id: str, token: str | None, user: Any) -> Identity | None:
    """Authenticate a connection: a seat token, else the session user's seat, else a spectator
    when the table allows it (an embargoed table never does); `None` = refuse (also for a
    wrong token or an unknown table)."""
    table = (
        Table.objects.filter(pk=table_id)
        .values("allow_spectators", "embargoed", "seats_rev")
        .first()
    )
    if table is None:
        return None
    rev = table["seats_rev"]
    if token is not None:
        row = Seat.objects.filter(table_id=table_id, token=token).values_list(*_SEAT).first()
        return None if row is None else _seated(row, rev)
    if user is not None and getattr(user, "is_authenticated", False):
        row = Seat.objects.filter(table_id=table_id, user_id=user.pk).values_list(*_SEAT).first()
        if row is not None:
            return _seated(row, rev)
    spectators = table["allow_spectators"] and not table["embargoed"]
    return Identity(None, rev) if spectators else None


_SEAT = ("number", "bot", "connected_at")


def _seated(row: tuple[int, str, Any], rev: int) -> Identity:
    number, bot, connected_at = row
    return Identity(number, rev, connected=bool(bot) or connected_at is not None)
