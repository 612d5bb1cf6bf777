"""Knockout: the top of each table goes through, until one final table is left.

Seeding is by snake order (seed 1 to table 1, ..., seed T to table T, seed T+1 back to
table T, ...), so the strongest, and the winners of the previous round, land on different
tables. Players who just met are then separated by swapping within the same seeding tier,
which keeps the tables balanced in strength.
"""

from __future__ import annotations

from collections.abc import Sequence

from league.scheduling.errors import SchedulingError
from league.scheduling.leftovers import table_sizes
from league.scheduling.records import PairHistory, PlayerId, RoundPlan
from league.scheduling.seating import SeatCounts, seat_round


def advancers(results: Sequence[Sequence[PlayerId]], per_table: int = 1) -> list[PlayerId]:
    """Who goes through, best seed first: every table winner, then every runner-up, ...

    `results` holds each table's finishing order, best first, tables in the order they were
    seeded (table 1 first), so winners keep the seed order of their tables.
    """
    if per_table < 1:
        raise SchedulingError("At least one player per table must advance.")
    seeds: list[PlayerId] = []
    for place in range(per_table):
        seeds += [table[place] for table in results if place < len(table)]
    if len(seeds) != len(set(seeds)):
        raise SchedulingError("A player appears at two tables of the same round.")
    return seeds


def is_final(n_players: int, table_size: int) -> bool:
    """One table is left: its winner wins the event."""
    return n_players <= table_size


def knockout_round(
    seeds: Sequence[PlayerId],
    table_size: int,
    history: PairHistory,
    leftover: str,
    seat_counts: SeatCounts | None = None,
) -> RoundPlan:
    """Tables for the next knockout round from players in seed order (best first).

    With byes the top seeds sit out and go through; with bots the short tables go to the top
    seeds, who then have the fewest human opponents.
    """
    n = len(seeds)
    counts: SeatCounts = seat_counts if seat_counts is not None else {}
    if is_final(n, table_size):
        table = [*seeds, *([None] * (table_size - n))]
        return RoundPlan(seat_round([table], counts, table_size))
    sizes, n_byes = table_sizes(n, table_size, leftover)
    byes, field = list(seeds[:n_byes]), list(seeds[n_byes:])
    groups = snake(field, sorted(sizes))
    _separate_rematches(groups, history)
    padded = [g + [None] * (table_size - len(g)) for g in groups]
    return RoundPlan(seat_round(padded, counts, table_size), tuple(byes))


def snake(order: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Deal players in snake order onto tables with the given capacities."""
    groups: list[list[PlayerId]] = [[] for _ in sizes]
    forward = True
    i = 0
    while i < len(order):
        indices = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in indices:
            if i < len(order) and len(groups[t]) < sizes[t]:
                groups[t].append(order[i])
                i += 1
        forward = not forward
    return groups


def _separate_rematches(groups: list[list[PlayerId]], history: PairHistory) -> None:
    def clashes(g: list[PlayerId]) -> int:
        return sum(history.count(a, b) for i, a in enumerate(g) for b in g[i + 1 :])

    for g in groups:
        for tier in range(len(g)):
            if not clashes(g):
                break
            for h in groups:
                if h is g or tier >= len(h):
                    continue
                before = clashes(g) + clashes(h)
                g[tier], h[tier] = h[tier], g[tier]
                if clashes(g) + clashes(h) < before:
                    break
                g[tier], h[tier] = h[tier], g[tier]
