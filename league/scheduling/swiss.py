"""Swiss rounds: neighbours in the standings share a table, without rematches where possible.

The field is cut top-down into tables of consecutive players. For each table we take the
highest player still free and the earliest players below them (within a short window) who
have not met anyone already at the table: the lexicographically first such choice moves the
fewest players from their place in the standings. What the window cannot solve (usually at
the very bottom) a repair pass fixes by swapping with the nearest table above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

from league.scheduling.leftovers import choose_byes, table_sizes
from league.scheduling.records import PairHistory, PlayerId, PlayerRecord, RoundPlan
from league.scheduling.seating import seat_round

# How far down the standings we look for a partner without a rematch (and who also fits the
# table's seats: players who lack the same seat often come in runs, so it looks further).
WINDOW = 12
SEAT_WINDOW = 30


def standings_order(players: Sequence[PlayerRecord]) -> list[PlayerRecord]:
    """Leader first: by standing position, then match points, rating and id as tie-breaks."""
    return sorted(
        players,
        key=lambda p: (
            p.position if p.position > 0 else 10**9,
            -p.match_points,
            -(p.rating or 0.0),
            p.id,
        ),
    )


def swiss_round(
    players: Sequence[PlayerRecord], history: PairHistory, table_size: int, leftover: str
) -> RoundPlan:
    """Tables for the next Swiss round, seats balanced from each player's seat counts."""
    ordered = standings_order(players)
    sizes, n_byes = table_sizes(len(ordered), table_size, leftover)
    # Byes go to the lowest-placed among those with the fewest byes (as in chess Swiss).
    rank = {p.id: i for i, p in enumerate(ordered)}
    byes = choose_byes(ordered, n_byes, key=lambda p: -rank[p.id])
    bye_ids = {p.id for p in byes}
    field = [p.id for p in ordered if p.id not in bye_ids]
    # Short (bot) tables go to the bottom of the standings.
    sizes = sorted(sizes, reverse=True)
    counts = {p.id: _counts(p, table_size) for p in players}
    groups = group_neighbours(
        field, sizes, history, fits=lambda g: _seatable(g, counts, table_size)
    )
    balance_seats(groups, counts, table_size, _Met(history.meetings))
    padded = [g + [None] * (table_size - len(g)) for g in groups]
    tables = seat_round(padded, counts, table_size)
    return RoundPlan(tables, tuple(sorted(bye_ids)))


def group_neighbours(
    order: Sequence[PlayerId],
    sizes: Sequence[int],
    history: PairHistory,
    fits: Callable[[list[PlayerId]], bool] | None = None,
) -> list[list[PlayerId]]:
    """Cut `order` into tables of `sizes`, avoiding rematches with the least reordering; with
    `fits`, the first such table that also passes it (seats), else the first without."""
    meetings = history.meetings
    met = _Met(meetings)
    free = list(order)
    groups: list[list[PlayerId]] = []
    start = 0
    taken: set[PlayerId] = set()
    for size in sizes:
        while free[start] in taken:
            start += 1
        head = free[start]
        window = []
        i = start + 1
        reach = WINDOW if fits is None else SEAT_WINDOW
        while len(window) < reach + size and i < len(free):
            if free[i] not in taken:
                window.append(free[i])
            i += 1
        chosen = None if fits is None else _first_clean(head, window, size - 1, met, fits)
        if chosen is None:
            chosen = _first_clean(head, window, size - 1, met)
        if chosen is None:
            chosen = window[: size - 1]
        group = [head, *chosen]
        taken.update(group)
        groups.append(group)
    _repair(groups, met)
    return groups


class _Met:
    """Fast 'have these two met?' over the history mapping."""

    def __init__(self, meetings):
        self.meetings = meetings

    def __call__(self, a: PlayerId, b: PlayerId) -> int:
        return self.meetings.get((a, b) if a < b else (b, a), 0)


def _first_clean(head, window, need, met, fits=None) -> list[PlayerId] | None:
    """Earliest `need` players of `window` who have met neither `head` nor each other (and,
    with `fits`, with whom the table passes it)."""
    chosen: list[PlayerId] = []

    def extend(i: int) -> bool:
        if len(chosen) == need:
            return fits is None or fits([head, *chosen])
        for j in range(i, len(window)):
            c = window[j]
            if met(head, c) or any(met(x, c) for x in chosen):
                continue
            chosen.append(c)
            if fits is not None and not fits([head, *chosen]):  # no seating for these already
                chosen.pop()
                continue
            if extend(j + 1):
                return True
            chosen.pop()
        return False

    return chosen if extend(0) else None


def _conflicts(group: list[PlayerId], met) -> int:
    return sum(met(a, b) for i, a in enumerate(group) for b in group[i + 1 :])


def _repair(groups: list[list[PlayerId]], met) -> None:
    """Swap players of rematch tables with the nearest tables above until nothing improves."""
    for gi in range(len(groups) - 1, -1, -1):
        if not _conflicts(groups[gi], met):
            continue
        improved = True
        while improved and _conflicts(groups[gi], met):
            improved = False
            for dist in range(1, len(groups)):
                for gj in (gi - dist, gi + dist):
                    if not 0 <= gj < len(groups):
                        continue
                    if _try_swap(groups[gi], groups[gj], met):
                        improved = True
                        break
                if improved or dist > 8:
                    break


def _try_swap(g: list[PlayerId], h: list[PlayerId], met) -> bool:
    before = _conflicts(g, met) + _conflicts(h, met)
    return _first_swap(g, h, lambda: _conflicts(g, met) + _conflicts(h, met) < before)


def _first_swap(g: list[PlayerId], h: list[PlayerId], better: Callable[[], bool]) -> bool:
    """Make the first swap of one player of `g` with one of `h` after which `better()` holds;
    `False` (and both tables as they were) if there is none."""
    for i in range(len(g)):
        for j in range(len(h)):
            g[i], h[j] = h[j], g[i]
            if better():
                return True
            g[i], h[j] = h[j], g[i]
    return False


# How many tables up and down the standings a player may move to fix a table's seats.
SEAT_REACH = 20


def balance_seats(
    groups: list[list[PlayerId]], counts: dict[PlayerId, list[int]], table_size: int, met
) -> None:
    """Swap players between nearby tables while that lets more tables give each of their
    players a seat they have held least.

    Seating one table at a time (`seat_round`) is exact for the table it gets, but a table of
    players who all lack the same seat (three players who each dealt first twice, say) leaves
    one of them two seats out of balance. Forming tables with seats in mind (`fits` in
    `group_neighbours`) avoids most of those; what the greedy pass leaves is fixed here by
    swapping one player of such a table with one of the nearest table (up to `SEAT_REACH`
    away) such that fewer of the two tables are unseatable and no rematch is added: a move of
    a few places in the standings, the least disturbance that fixes it.
    """

    def fits(group: list[PlayerId]) -> bool:
        return _seatable(group, counts, table_size)

    for gi, group in enumerate(groups):
        dist = 1
        while dist <= SEAT_REACH and not fits(group):
            if not _swap_for_seats(group, groups, gi, dist, fits, met):
                dist += 1


def _swap_for_seats(group, groups, gi, dist, fits, met) -> bool:
    """One swap between `group` and a table `dist` away that leaves fewer unseatable tables
    and no more rematches."""
    for gj in (gi + dist, gi - dist):
        if 0 <= gj < len(groups) and _seat_swap(group, groups[gj], fits, met):
            return True
    return False


def _seat_swap(group: list[PlayerId], other: list[PlayerId], fits, met) -> bool:
    unfit = 1 + (not fits(other))
    before = _conflicts(group, met) + _conflicts(other, met)
    return _first_swap(
        group,
        other,
        lambda: (
            (not fits(group)) + (not fits(other)) < unfit
            and _conflicts(group, met) + _conflicts(other, met) <= before
        ),
    )


def _seatable(group: list[PlayerId], counts: dict[PlayerId, list[int]], k: int) -> bool:
    """Whether the table's players can each take a seat they have held least (a perfect
    matching of players to such seats; at most 4! orders to try)."""
    least = []
    for p in group:
        c = counts.get(p) or [0] * k
        m = min(c)
        least.append({s for s in range(k) if c[s] == m})
    if len(least) == 1 or all(len(x) == k for x in least):
        return True
    return any(
        all(seat in least[i] for i, seat in enumerate(order))
        for order in permutations(range(k), len(group))
    )


def _counts(player: PlayerRecord, table_size: int) -> list[int]:
    c = list(player.seat_counts[:table_size])
    return c + [0] * (table_size - len(c))
