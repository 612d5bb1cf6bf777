"""What the lobby says live (docs/lobby.md, "Live"): a table started, a rematch offered or
declined. Each message goes to the people it concerns only, after commit, over
`gameplay/services/live.py`; none carries a seat token or a card (a page that takes a seat
does so with its session). Everything said here can be read over HTTP too: a table's status
(`GET /api/tables/<id>/`), the rematch offers waiting for a person (`GET /api/tables/offers/`)
and a finished table's `rematch`.
"""

from __future__ import annotations

from collections.abc import Iterable

from gameplay.services import live

TABLE_STARTED = "table_started"
REMATCH_OFFERED = "rematch_offered"
REMATCH_DECLINED = "rematch_declined"


def table_url(table_id: str) -> str:
    return f"/tables/{table_id}/"


def join_url(table_id: str) -> str:
    return f"/tables/{table_id}/join/"


def table_started(table_id: str, user_ids: Iterable[int | None]) -> None:
    """The table dealt: every person seated at it goes to it (their waiting pages move there)."""
    live.to_users(
        [uid for uid in user_ids if uid is not None],
        {"type": TABLE_STARTED, "table": table_id, "url": table_url(table_id)},
    )


def rematch_offered(new_id: str, old_id: str, by: str, user_ids: Iterable[int]) -> None:
    """`by` offered a rematch of `old_id` at `new_id`: each player whose seat is kept there is
    asked (Accept joins it, Decline cancels it)."""
    live.to_users(
        list(user_ids),
        {
            "type": REMATCH_OFFERED,
            "table": new_id,
            "of": old_id,
            "by": by,
            "url": join_url(new_id),
        },
    )


def rematch_declined(new_id: str, old_id: str | None, by: str, user_ids: Iterable[int]) -> None:
    """`by` declined the rematch `new_id` (which is cancelled): its other players are told."""
    live.to_users(
        list(user_ids),
        {
            "type": REMATCH_DECLINED,
            "table": new_id,
            "of": old_id,
            "by": by,
            "url": table_url(old_id) if old_id else table_url(new_id),
        },
    )
