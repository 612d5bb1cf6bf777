"""Seat order at a table: who deals first.

In trick-taking games the seat decides who deals and who leads, so over an event every
player should hold every seat about equally often. We choose, table by table, the seat
permutation that keeps each player's seat counts as level as possible; with at most 4 seats
that is at most 24 permutations, so we simply try them all.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from itertools import permutations
from random import Random

from league.scheduling.records import PlayerId, Table

SeatCounts = MutableMapping[PlayerId, list[int]]


def seat_table(table: Sequence[PlayerId | None], counts: SeatCounts, table_size: int) -> Table:
    """Return the table in seat order; bots (None) take whatever seats are left.

    Cost of a permutation, compared lexicographically: the spread (max - min) each player
    would end with, squared and summed; then how often players already sat where they would
    sit. Ties keep the incoming order, so the result is deterministic.
    """
    humans = [p for p in table if p is not None]
    bots = len(table) - len(humans)
    seats = range(table_size)
    places = range(len(table))
    best: tuple[int, int] | None = None
    best_order: tuple[int, ...] = ()
    for order in permutations(places, len(humans)):
        spread = 0
        used = 0
        for player, seat in zip(humans, order):
            c = counts.get(player)
            if c is None:
                continue
            after = max(c[seat] + 1, max(c)) - min(c[s] + (s == seat) for s in seats)
            spread += after * after
            used += c[seat]
        cost = (spread, used)
        if best is None or cost < best:
            best, best_order = cost, order
    seated: list[PlayerId | None] = [None] * (len(humans) + bots)
    for player, seat in zip(humans, best_order):
        seated[seat] = player
    return tuple(seated)


def record_seats(table: Table, counts: SeatCounts, table_size: int) -> None:
    for seat, player in enumerate(table):
        if player is not None:
            counts.setdefault(player, [0] * table_size)[seat] += 1


def seat_round(
    tables: Sequence[Sequence[PlayerId | None]], counts: SeatCounts, table_size: int
) -> tuple[Table, ...]:
    """Seat every table of one round and add the result to `counts`."""
    seated = []
    for table in tables:
        ordered = seat_table(table, counts, table_size)
        record_seats(ordered, counts, table_size)
        seated.append(ordered)
    return tuple(seated)


def rebalance(
    rounds: list[list[Table]],
    counts_before: SeatCounts,
    table_size: int,
    rng: Random,
    max_steps: int = 400,
) -> list[list[Table]]:
    """Re-seat a block of rounds so that every player's seat counts stay within one.

    That holds after every round exactly when each player, in each run of k games they play
    (k = table size), takes every seat once. We search for such seat orders by min-conflicts:
    repeatedly take a table where someone repeats a seat inside one of their runs and give it
    the permutation with the fewest repeats (sometimes a random one, to escape plateaus).
    Deterministic for a seeded `rng`; keeps the best block found.
    """
    rounds = [list(r) for r in rounds]
    k = table_size
    # For each player: their games in this block as (round, table).
    games: dict[PlayerId, list[tuple[int, int]]] = {}
    for ri, tables in enumerate(rounds):
        for ti, table in enumerate(tables):
            for p in table:
                if p is not None:
                    games.setdefault(p, []).append((ri, ti))

    def repeats(p: PlayerId) -> int:
        # Repeats inside runs, weighted by how far the counts drift apart because of them.
        c = list(counts_before.get(p, [0] * k))
        bad = 0
        for ri, ti in games[p]:
            c[rounds[ri][ti].index(p)] += 1
            bad += max(0, max(c) - min(c) - 1)
        return bad

    def table_repeats(ri: int, ti: int) -> int:
        return sum(repeats(p) for p in rounds[ri][ti] if p is not None)

    cells = [(ri, ti) for ri, tables in enumerate(rounds) for ti in range(len(tables))]
    total = sum(repeats(p) for p in games)
    best_total, best = total, [list(r) for r in rounds]
    for _ in range(max_steps):
        if total == 0:
            break
        bad_cells = [c for c in cells if table_repeats(*c)]
        if not bad_cells:
            break
        ri, ti = rng.choice(bad_cells)
        current = rounds[ri][ti]
        before = table_repeats(ri, ti)
        options = list(dict.fromkeys(permutations(current)))
        if rng.random() < 0.15:
            choice = rng.choice(options)
        else:
            scored = []
            for order in options:
                rounds[ri][ti] = order
                scored.append((table_repeats(ri, ti), order))
            low = min(sc for sc, _ in scored)
            choice = rng.choice([o for sc, o in scored if sc == low])
        rounds[ri][ti] = tuple(choice)
        total += table_repeats(ri, ti) - before
        if total < best_total:
            best_total, best = total, [list(r) for r in rounds]
    return best
