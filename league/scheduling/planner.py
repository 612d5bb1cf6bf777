"""plan_round: the one door the league app uses to get the next round's tables."""

from __future__ import annotations

from collections.abc import Sequence

from league.scheduling.errors import SchedulingError
from league.scheduling.formats import get_format
from league.scheduling.records import PairHistory, PlayerRecord, RoundPlan
from league.scheduling.validation import MIXED_REFUSED, check_event


def plan_round(
    players: Sequence[PlayerRecord],
    history: PairHistory,
    table_size: int,
    format: str,
    round_no: int,
    leftover: str = "bye",
    seed: int = 0,
) -> RoundPlan:
    """Tables (in seat order) and byes for round `round_no` (1-based) of an event.

    The input is checked here, once for every format; the registered format (`formats/`)
    plans the round: league follows its precomputed schedule while what was played matches
    it, swiss seats neighbours in the standings, knockout deals the players still in by seed.
    """
    fmt = get_format(format)
    if leftover == "mixed" and not fmt.mixed_tables:
        raise SchedulingError(MIXED_REFUSED % {"format": fmt.title})
    check_event(
        [p.id for p in players],
        table_size,
        leftover,
        rounds=round_no,
        allow_short_field=fmt.short_field,
    )
    for p in players:
        if p.seat_counts and len(p.seat_counts) != table_size:
            raise SchedulingError(
                f"Player {p.id} has seat counts for {len(p.seat_counts)} seats, "
                f"but tables seat {table_size}."
            )
    return fmt.plan_round(
        players, history, table_size=table_size, round_no=round_no, leftover=leftover, seed=seed
    )
