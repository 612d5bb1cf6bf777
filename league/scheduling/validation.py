"""Input checks shared by every entry point, with messages an organizer can act on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from league.scheduling.errors import SchedulingError
from league.scheduling.records import LEFTOVERS, PlayerId

TABLE_SIZES = (3, 4)
# Marked for translation where the league shows it (league.services.events).
MIXED_REFUSED = (
    "%(format)s does not seat tables of three and four: one player goes on from each table, "
    "and coming out of a table of four is harder. Choose byes or bots."
)


def check_event(
    player_ids: Sequence[PlayerId],
    table_size: int,
    leftover: str,
    *,
    rounds: int | None = None,
    allow_short_field: bool = False,
) -> None:
    """Raise SchedulingError for anything the scheduler cannot plan.

    The format is checked where it is looked up (`formats.get_format`); `allow_short_field` is
    the format's say on fewer players than seats (with bot seats, at least two)."""
    if table_size not in TABLE_SIZES:
        raise SchedulingError(f"Tables must seat 3 or 4 players, not {table_size}.")
    if leftover not in LEFTOVERS:
        raise SchedulingError(
            f"Unknown leftover rule {leftover!r}; choose one of {', '.join(LEFTOVERS)}."
        )
    if leftover == "mixed" and table_size != 3:
        raise SchedulingError("Tables of three and four are for games of three players.")
    if rounds is not None and rounds < 1:
        raise SchedulingError(f"An event needs at least one round, not {rounds}.")
    duplicates = sorted(p for p, c in Counter(player_ids).items() if c > 1)
    if duplicates:
        shown = ", ".join(str(p) for p in duplicates[:5])
        raise SchedulingError(f"Each player may be entered once; repeated: {shown}.")
    n = len(player_ids)
    if n < table_size and not (allow_short_field and leftover == "bot" and n >= 2):
        raise SchedulingError(
            f"{n} player{'s' if n != 1 else ''} cannot fill a table of {table_size}."
        )
