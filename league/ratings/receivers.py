"""Friendly tables finish in gameplay and are announced by `match_finished` (after commit).

Tables of event fixtures are rated through their `Result` instead (league/receivers.py turns
them into one); this receiver ignores them, and unrated tables.
"""

from __future__ import annotations

from typing import Any

from gameplay.api import match_finished
from league.ratings.services import record_friendly_match


def on_match_finished(sender: Any, **kwargs: Any) -> None:
    record_friendly_match(
        table_ref=kwargs["table_ref"],
        result=kwargs["result"],
        seats=kwargs["seats"],
        rated=kwargs.get("rated", False),
        finished_at=kwargs["finished_at"],
        forfeited_seats=kwargs.get("forfeited_seats"),
    )


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="league.ratings.friendly_tables")
