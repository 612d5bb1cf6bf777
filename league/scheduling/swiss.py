"""Swiss rounds: by the standings first, seat balance second, without rematches where possible.

The field is cut top-down into tables. Each table is the best group among the free players
near the top of the standings: fewest rematches first; then the highest scores (a same-score
group before a group that mixes a score with a lower one, and 2-1-1 before 2-0-0: the top
scorers sit at the top table); then seats (players who can each get a seat they have held
least); then the fewest moves from the standings. What the window cannot solve (usually at
the very bottom) a repair pass fixes by swapping players of equal score with nearby tables,
never in a way that would let a table mix scores while a same-score group could fill it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from league.scheduling.leftovers import choose_byes, choose_fours, table_sizes
from league.scheduling.records import PairHistory, PlayerId, PlayerRecord, RoundPlan
from league.scheduling.seating import seat_mixed_round, seat_round

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
    """Tables for the next Swiss round: by the standings first, seats balanced second."""
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
    scores = {p.id: p.match_points for p in players}
    if 4 in sizes and table_size == 3:
        return _mixed_round(ordered, field, sizes, history, counts, scores, bye_ids)
    groups = group_neighbours(
        field, sizes, history, fits=lambda g: _seatable(g, counts, table_size), scores=scores
    )
    balance_seats(groups, counts, table_size, _Met(history.meetings), scores=scores)
    padded = [g + [None] * (table_size - len(g)) for g in groups]
    tables = seat_round(padded, counts, table_size)
    return RoundPlan(tables, tuple(sorted(bye_ids)))


def _mixed_round(ordered, field, sizes, history, counts, scores, bye_ids) -> RoundPlan:
    """Tables of three and four: the seats at the fours go to the players with the fewest
    fours (the lowest placed among equals, as byes); they play each other by the standings,
    the others sit in threes by the standings, and the tables are numbered from the top; then
    rematches are repaired across all tables, fours and threes alike (rematches first)."""
    rank = {p.id: i for i, p in enumerate(ordered)}
    at_fours = [s for s in sizes if s == 4]
    present = [p for p in ordered if p.id not in bye_ids]
    chosen = {p.id for p in choose_fours(present, 4 * len(at_fours), lambda p: -rank[p.id])}
    fours = group_neighbours([p for p in field if p in chosen], at_fours, history, scores=scores)
    rest = [p for p in field if p not in chosen]
    threes = group_neighbours(
        rest,
        [3] * (len(sizes) - len(at_fours)),
        history,
        fits=lambda g: _seatable(g, counts, 3),
        scores=scores,
    )
    met = _Met(history.meetings)
    balance_seats(threes, counts, 3, met, scores=scores)
    groups = sorted(fours + threes, key=lambda g: min(rank[p] for p in g))
    # Rematches come first: swaps between nearby tables, a four and a three too, as long as
    # nobody ends the round two fours ahead of whoever has had fewest (the one who takes the
    # seat at the four has had no more fours than the one who leaves it, or at most one more
    # than the fewest); the next rounds' choice by fewest fours evens it out.
    fours_had = {p.id: p.fours for p in ordered}
    fewest = min(fours_had.values(), default=0)
    _repair(
        groups,
        met,
        _score_of(scores),
        resize=lambda out, in_: fours_had[in_] <= max(fours_had[out], fewest + 1),
    )
    return RoundPlan(seat_mixed_round(groups, counts), tuple(sorted(bye_ids)))


def group_neighbours(
    order: Sequence[PlayerId],
    sizes: Sequence[int],
    history: PairHistory,
    fits: Callable[[list[PlayerId]], bool] | None = None,
    scores: Mapping[PlayerId, float] | None = None,
) -> list[list[PlayerId]]:
    """Cut `order` (the standings, best first) into tables of `sizes`, top table first.

    Each table is the best group of the free players near the top of the standings (the
    first `WINDOW`, or `SEAT_WINDOW` with `fits`), compared in this order: fewest rematches;
    the highest scores (the group's scores, best first, compared as a list: a same-score
    group before a mixed one, 2-1-1 before 2-0-0); then, with `fits`, a group whose players
    can each get a seat they have held least; then the fewest moves from the standings (the
    earliest players). Scores are `scores` (match points; none: all level). A rematch the
    window could not avoid is repaired by swaps with nearby tables (`_repair`).
    """
    met = _Met(history.meetings)
    score = _score_of(scores)
    free = list(order)
    groups: list[list[PlayerId]] = []
    start = 0
    taken: set[PlayerId] = set()
    reach = WINDOW if fits is None else SEAT_WINDOW
    for size in sizes:
        while free[start] in taken:
            start += 1
        window = []
        i = start
        while len(window) < reach + size and i < len(free):
            if free[i] not in taken:
                window.append(free[i])
            i += 1
        group = _best_group(window, size, met, score, fits)
        taken.update(group)
        groups.append(group)
    _repair(groups, met, score)
    return groups


def _score_of(scores: Mapping[PlayerId, float] | None) -> Callable[[PlayerId], float]:
    if not scores:
        return lambda p: 0.0
    return lambda p: scores.get(p, 0.0)


def _best_group(
    window: list[PlayerId],
    size: int,
    met: Callable[[PlayerId, PlayerId], int],
    score: Callable[[PlayerId], float],
    fits: Callable[[list[PlayerId]], bool] | None,
) -> list[PlayerId]:
    """The best `size` players of `window` by (rematches, scores, seats, order): a
    branch-and-bound over combinations in standings order, so the first of equal groups is
    the one that moves the fewest players; a branch is cut when even its best completion
    (the highest scores left, no more rematches, seats that fit) cannot beat the best found."""
    n = len(window)
    if n <= size:
        return list(window)
    sc = [score(p) for p in window]
    # tops[i]: the highest `size` scores among window[i:], best first.
    tops: list[list[float]] = [[] for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        tops[i] = sorted([*tops[i + 1], sc[i]], reverse=True)[:size]
    best_key: tuple | None = None
    best: list[PlayerId] = []
    chosen: list[PlayerId] = []
    chosen_sc: list[float] = []

    def rank(clash: int, values: list[float], unfit: bool) -> tuple:
        return _group_rank(clash, sorted(values, reverse=True), unfit)

    ideal = rank(0, tops[0], False)  # nothing beats it: stop as soon as it is found

    def search(i: int, conflicts: int) -> None:
        nonlocal best_key, best
        need = size - len(chosen)
        for j in range(i, n - need + 1):
            if best_key == ideal:
                return
            c = window[j]
            clash = conflicts + sum(met(x, c) for x in chosen)
            if best_key is not None and clash > best_key[0]:
                continue
            hope = [*chosen_sc, sc[j], *tops[j + 1][: need - 1]]
            if best_key is not None and rank(clash, hope, False) >= best_key:
                continue
            chosen.append(c)
            chosen_sc.append(sc[j])
            unfit = fits is not None and not fits(chosen)
            if need == 1:
                key = rank(clash, chosen_sc, unfit)
                if best_key is None or key < best_key:
                    best_key, best = key, list(chosen)
            elif best_key is None or rank(clash, hope, unfit) < best_key:
                search(j + 1, clash)
            chosen.pop()
            chosen_sc.pop()

    search(0, 0)
    return best


def _group_rank(clash: int, scores: list[float], unfit: bool) -> tuple:
    """How good a table is, smaller first (`scores` best first): fewest rematches; then the
    highest scores, compared as a list (top scorers at the top table; a same-score table
    before a mixed one; 2-1-1 before 2-0-0); then seats that fit."""
    return (clash, tuple(-v for v in scores), unfit)


class _Met:
    """Fast 'have these two met?' over the history mapping."""

    def __init__(self, meetings):
        self.meetings = meetings

    def __call__(self, a: PlayerId, b: PlayerId) -> int:
        return self.meetings.get((a, b) if a < b else (b, a), 0)


def _conflicts(group: list[PlayerId], met) -> int:
    return sum(met(a, b) for i, a in enumerate(group) for b in group[i + 1 :])


class _SwapRule:
    """Which swaps between two tables keep the standings first (the property of
    `group_neighbours`: no table mixes a score group with a lower one while a same-score group
    could fill it without a rematch).

    Players of equal score may swap (every table keeps its scores) unless the one moving down
    passes a mixed table whose top score is theirs: the one case where such a swap could let
    a same-score group fill that table. With `exact` (repairing rematches, which come before
    the standings), players of different scores may swap too, if afterwards no table from
    the upper to the lower of the two breaks the property (checked, `_could_fill`)."""

    def __init__(self, groups: list[list[PlayerId]], score: Callable[[PlayerId], float], met):
        self.groups = groups
        self.score = score
        self.met = met

    def _mixed_top(self, g: list[PlayerId]) -> float | None:
        values = {self.score(p) for p in g}
        return max(values) if len(values) > 1 else None

    def allows(self, gi: int, gj: int, exact: bool = False) -> Callable[[PlayerId, PlayerId], bool]:
        """The rule for swapping a player of table `gi` with one of table `gj`."""
        lo, hi = sorted((gi, gj))
        groups = self.groups
        blocked = {self._mixed_top(g) for g in groups[lo + 1 : hi + 1]} - {None}

        def allowed(a: PlayerId, b: PlayerId) -> bool:
            down = a if gi < gj else b
            if self.score(a) == self.score(b):
                return self.score(down) not in blocked
            if not exact:
                return False
            g, h = groups[gi], groups[gj]
            i, j = g.index(a), h.index(b)
            g[i], h[j] = b, a
            ok = not any(self._could_fill(t) for t in range(lo, hi + 1))
            g[i], h[j] = a, b
            return ok

        return allowed

    def _could_fill(self, t: int) -> bool:
        """Whether table `t` mixes scores although players of its top score, at it or below,
        could fill it without a rematch."""
        table = self.groups[t]
        top = self._mixed_top(table)
        if top is None:
            return False
        pool = [p for g in self.groups[t:] for p in g if self.score(p) == top]
        return _clean_group(pool, len(table), self.met) is not None


def _clean_group(pool: list[PlayerId], size: int, met) -> list[PlayerId] | None:
    """`size` players of `pool` none of whom have met, or None."""
    chosen: list[PlayerId] = []

    def extend(i: int) -> bool:
        if len(chosen) == size:
            return True
        for j in range(i, len(pool) - (size - len(chosen)) + 1):
            c = pool[j]
            if any(met(x, c) for x in chosen):
                continue
            chosen.append(c)
            if extend(j + 1):
                return True
            chosen.pop()
        return False

    return chosen if extend(0) else None


def _repair(groups: list[list[PlayerId]], met, score=None, resize=None) -> None:
    """Swap players of rematch tables with the nearest tables until nothing improves.

    `resize(out, in_)`: whether `in_` may take the seat of `out` at a table of another size
    (tables of three and four); None: any swap the standings allow."""
    rule = _SwapRule(groups, score or (lambda p: 0.0), met)
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
                    allowed = rule.allows(gi, gj, exact=True)
                    if resize is not None and len(groups[gi]) != len(groups[gj]):
                        allowed = _resizing(allowed, resize, four_first=len(groups[gi]) == 4)
                    if _try_swap(groups[gi], groups[gj], met, allowed):
                        improved = True
                        break
                if improved or dist > 8:
                    break


def _resizing(allowed, resize, four_first: bool):
    """`allowed`, and for a swap between a four and a three, `resize(out of the four, in)`."""

    def check(a: PlayerId, b: PlayerId) -> bool:
        return allowed(a, b) and (resize(a, b) if four_first else resize(b, a))

    return check


def _try_swap(g: list[PlayerId], h: list[PlayerId], met, allowed) -> bool:
    before = _conflicts(g, met) + _conflicts(h, met)
    return _first_swap(g, h, lambda: _conflicts(g, met) + _conflicts(h, met) < before, allowed)


def _first_swap(
    g: list[PlayerId],
    h: list[PlayerId],
    better: Callable[[], bool],
    allowed: Callable[[PlayerId, PlayerId], bool] | None = None,
) -> bool:
    """Make the first (allowed) swap of one player of `g` with one of `h` after which
    `better()` holds; `False` (and both tables as they were) if there is none."""
    for i in range(len(g)):
        for j in range(len(h)):
            if allowed is not None and not allowed(g[i], h[j]):
                continue
            g[i], h[j] = h[j], g[i]
            if better():
                return True
            g[i], h[j] = h[j], g[i]
    return False


# How many tables up and down the standings a player may move to fix a table's seats.
SEAT_REACH = 20


def balance_seats(
    groups: list[list[PlayerId]],
    counts: dict[PlayerId, list[int]],
    table_size: int,
    met,
    scores: Mapping[PlayerId, float] | None = None,
) -> None:
    """Swap players between nearby tables while that lets more tables give each of their
    players a seat they have held least: seat balance second, after the standings.

    Seating one table at a time (`seat_round`) is exact for the table it gets, but a table of
    players who all lack the same seat (three players who each dealt first twice, say) leaves
    one of them two seats out of balance. Forming tables with seats in mind (`fits` in
    `group_neighbours`) avoids most of those; what is left is fixed here by swapping one
    player of such a table with one of equal score at the nearest table (up to `SEAT_REACH`
    away) such that fewer of the two tables are unseatable and no rematch is added (and,
    `_SwapRule`, the standings stay first).
    """

    def fits(group: list[PlayerId]) -> bool:
        return _seatable(group, counts, table_size)

    rule = _SwapRule(groups, _score_of(scores), met)
    for gi, group in enumerate(groups):
        dist = 1
        while dist <= SEAT_REACH and not fits(group):
            if not _swap_for_seats(group, groups, gi, dist, fits, met, rule):
                dist += 1


def _swap_for_seats(group, groups, gi, dist, fits, met, rule) -> bool:
    """One swap between `group` and a table `dist` away that leaves fewer unseatable tables
    and no more rematches."""
    for gj in (gi + dist, gi - dist):
        if 0 <= gj < len(groups) and _seat_swap(group, groups[gj], fits, met, rule.allows(gi, gj)):
            return True
    return False


def _seat_swap(group: list[PlayerId], other: list[PlayerId], fits, met, allowed) -> bool:
    unfit = 1 + (not fits(other))
    before = _conflicts(group, met) + _conflicts(other, met)
    return _first_swap(
        group,
        other,
        lambda: (
            (not fits(group)) + (not fits(other)) < unfit
            and _conflicts(group, met) + _conflicts(other, met) <= before
        ),
        allowed,
    )


def _seatable(group: list[PlayerId], counts: dict[PlayerId, list[int]], k: int) -> bool:
    """Whether the table's players can each take a seat they have held least (a perfect
    matching of players to such seats)."""
    return _matches(tuple(sorted(_least_mask(counts.get(p), k) for p in group)))


def _least_mask(c: list[int] | None, k: int) -> int:
    """The seats a player has held least, as bits (bit s: seat s)."""
    if not c:
        return (1 << k) - 1
    m = min(c)
    return sum(1 << s for s in range(k) if c[s] == m)


@lru_cache(maxsize=4096)
def _matches(masks: tuple[int, ...], used: int = 0) -> bool:
    """Whether each mask can get a bit of its own, none of `used` (at most 4 players)."""
    if not masks:
        return True
    first, rest = masks[0], masks[1:]
    free = first & ~used
    while free:
        bit = free & -free
        if _matches(rest, used | bit):
            return True
        free ^= bit
    return False


def _counts(player: PlayerRecord, table_size: int) -> list[int]:
    c = list(player.seat_counts[:table_size])
    return c + [0] * (table_size - len(c))
