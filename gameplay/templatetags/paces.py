"""`{{ table|pace_text }}`: a table's clock in words ("Relaxed · 90 s a move"), `paces.describe`."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import paces

register = template.Library()


@register.filter
def pace_text(table: Any) -> str:
    """The clock of a table (anything with `pace` and `seconds_per_move`) as a person reads it."""
    return paces.describe(getattr(table, "pace", ""), getattr(table, "seconds_per_move", 0))
