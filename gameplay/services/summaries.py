"""The end of a deal at a table: its summary, how long the page shows it, the Match legend.

The engine explains a finished deal (`Match.deal_summary`, docs/engines.md); the views carry
the summary of the deal that just ended (`view.last_deal.summary`, made once at the deal's end),
and a past deal's is served here on request. The time the page shows it is one setting,
`GAMEPLAY_DEAL_SUMMARY_SECONDS`, which is also the extra time on the clock of a new deal's first
turn (`play.py`), so a player who reads the summary does not lose time by it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from gameplay.models import Table
from gameplay.services import matches
from games import registry

UNDEALT = (Table.Status.WAITING, Table.Status.CANCELLED)


def summary_seconds() -> int:
    """Seconds the page shows a finished deal's summary, and the extra time of the next deal's
    first turn (`GAMEPLAY_DEAL_SUMMARY_SECONDS`, default 20; 0 turns both off)."""
    return int(getattr(settings, "GAMEPLAY_DEAL_SUMMARY_SECONDS", 20))


def past_summary(table: Table, deal: int) -> dict[str, Any]:
    """The summary of finished deal `deal` of `table` (from 0). A deal that is over is public
    to whoever may watch the table (the rules: "when the deal ends everything may be shown"),
    so the caller only checks that; `IndexError` for a deal that is not finished (or a table
    never dealt)."""
    if table.status in UNDEALT:
        raise IndexError(f"deal {deal!r} is not a finished deal of this table")
    return matches.load_match(table).deal_summary(deal)


def legend(game: str) -> dict[str, str]:
    """What a deal's score and payout mean in the Match table of `game`, translated (the
    engine's `LEGEND`: `unit`, `score`, `payout`, `winner`)."""
    texts = registry.get_game(game).engine.LEGEND
    return {key: gettext(text) for key, text in texts.items()}
