"""How good a schedule is, in the terms organizers use."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from league.scheduling.records import PairHistory, PlayerId, RoundPlan


@dataclass(frozen=True)
class ScheduleQuality:
    """max_pair_meetings: most times any two players met; repeated_pairs: pairs that met
    more than once; seat_imbalance: largest (most - fewest) seat count of any player;
    bye_spread: most byes of a player minus fewest; four_spread: most tables of four of a
    player minus fewest (tables of three and four; seats are counted at the threes only)."""

    max_pair_meetings: int
    repeated_pairs: int
    seat_imbalance: int
    bye_spread: int
    total_byes: int
    four_spread: int = 0


def schedule_quality(
    rounds: Sequence[RoundPlan], players: Sequence[PlayerId], table_size: int
) -> ScheduleQuality:
    meetings = PairHistory.from_rounds(rounds).meetings
    seats: dict[PlayerId, list[int]] = {p: [0] * table_size for p in players}
    byes: Counter[PlayerId] = Counter(dict.fromkeys(players, 0))
    fours: Counter[PlayerId] = Counter(dict.fromkeys(players, 0))
    for plan in rounds:
        for table in plan.tables:
            if len(table) > table_size:  # a table of four among threes
                fours.update(p for p in table if p is not None)
                continue
            for seat, p in enumerate(table):
                if p is not None:
                    seats.setdefault(p, [0] * table_size)[seat] += 1
        byes.update(plan.byes)
    return ScheduleQuality(
        max_pair_meetings=max(meetings.values(), default=0),
        repeated_pairs=sum(1 for m in meetings.values() if m > 1),
        seat_imbalance=max((max(c) - min(c) for c in seats.values()), default=0),
        bye_spread=(max(byes.values()) - min(byes.values())) if byes else 0,
        total_byes=sum(byes.values()),
        four_spread=(max(fours.values()) - min(fours.values())) if fours else 0,
    )
