"""An event's ledger rows in the one order its readers use (`ledger.csv` and the ledger page)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from league.models import Event, LedgerEntry
from league.services.duplicate_scoring import published, sees_everything

# What a reader of the ledger gets of each row, in the CSV's column order (fixture_id: links).
LEDGER_FIELDS = (
    "round__number",
    "fixture__number",
    "deal",
    "seat",
    "player_id",
    "player__name",
    "score",
    "payout",
)


def ledger_rows(event: Event, *, withheld: bool = False) -> QuerySet:
    """One row per seat per deal of every counting result, in round, table, deal, seat order.

    `withheld`: without the tables of duplicate sections still being played (for every reader
    but an organizer who plays in none of the event's rounds, league.services.duplicate_scoring)."""
    rows = LedgerEntry.objects.filter(event=event)
    if withheld:
        rows = rows.filter(published("fixture__"))
    return rows.order_by("round__number", "fixture__number", "deal", "seat").values(
        *LEDGER_FIELDS, "fixture_id"
    )


def withheld_from(user: Any, event: Event) -> bool:
    """Whether the tables of duplicate sections still being played are left out of the ledger
    for this reader: for everyone but an organizer who plays in none of the event's rounds
    (no query for an event that is not duplicate)."""
    return event.is_duplicate and not sees_everything(user, event)
