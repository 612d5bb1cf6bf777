"""The end of a deal at a table: its summary, how long the page shows it, the Match legend.

The engine explains a finished deal (`Match.deal_summary`, docs/engines.md); the views carry
the summary of the deal that just ended (`view.last_deal.summary`, made once at the deal's end),
and a past deal's is served here on request. The page shows it until the person dismisses it,
and their first clock of the new deal waits for that, up to one setting,
`GAMEPLAY_DEAL_SUMMARY_SECONDS` (the cap, `Table.summary_until`; gameplay/clock.py), so a player
who reads the summary does not lose time by it.
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
    """The longest a finished deal's summary holds the clock of a person who has not dismissed
    it (`GAMEPLAY_DEAL_SUMMARY_SECONDS`, default 60; 0: no hold, the clock runs at once)."""
    return int(getattr(settings, "GAMEPLAY_DEAL_SUMMARY_SECONDS", 60))


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
