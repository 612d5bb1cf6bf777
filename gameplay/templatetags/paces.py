"""`{{ table|pace_text }}`: a table's clock in words ("Relaxed · 90 s a move"), `paces.describe`;
`{{ entry|sits_out }}`: a table of four where the dealer sits out each deal."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import paces
from games import registry

register = template.Library()


@register.filter
def pace_text(table: Any) -> str:
    """The clock of a table (anything with `pace` and `seconds_per_move`) as a person reads it."""
    return paces.describe(getattr(table, "pace", ""), getattr(table, "seconds_per_move", 0))


@register.filter
def sits_out(entry: Any) -> bool:
    """Whether a lobby entry (`{"game", "seats"}`) is a three-player game at a table of four,
    where the dealer sits out each deal: the lobby says so beside its settings."""
    try:
        own = registry.get_game(entry["game"]).seats
    except (KeyError, TypeError):
        return False
    return len(entry.get("seats") or ()) > own
