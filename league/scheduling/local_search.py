"""Local search that rearranges tables to spread meetings evenly.

Used where no stored design fits. Moves swap two players between tables of the same round,
steered towards pairs that meet too often (as in the social-golfer local searches of Dotu &
Van Hentenryck), accepted by simulated annealing. The cost is sum(m**3) over pairs meeting m
times: convex, so with
the number of meetings fixed it is lowest when meetings are as even as possible, and it
punishes a third meeting harder than a second. Everything is driven by a seeded Random and an
iteration budget (never the clock), so the same input always gives the same schedule.
"""

from __future__ import annotations

import math
from random import Random

Tables = list[list[int]]

_INC = [(m + 1) ** 3 - m**3 for m in range(1024)]  # cost of one more meeting at m


def meeting_cost(m: int) -> int:
    return m**3


def even_lower_bound(total_meetings: int, pairs: int) -> int:
    """Cost if the meetings were spread as evenly as arithmetic allows."""
    q, r = divmod(total_meetings, pairs)
    return (pairs - r) * meeting_cost(q) + r * meeting_cost(q + 1)


def greedy_round(
    sitting: list[int], sizes: list[int], counts: list[list[int]], rng: Random
) -> Tables:
    """Fill tables one seat at a time with the candidate who adds the least cost.

    Candidates come from a shuffled window, which keeps this linear for big fields.
    """
    remaining = list(sitting)
    rng.shuffle(remaining)
    tables: Tables = []
    window = 48
    for size in sizes:
        table = [remaining.pop()]
        while len(table) < size:
            best_i, best_cost = 0, None
            for i in range(max(0, len(remaining) - window), len(remaining)):
                c = remaining[i]
                row = counts[c]
                cost = sum(_INC[row[x]] for x in table)
                if best_cost is None or cost < best_cost:
                    best_i, best_cost = i, cost
                    if cost == len(table):  # nobody met before: cannot do better
                        break
            table.append(remaining.pop(best_i))
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                counts[a][b] += 1
                counts[b][a] += 1
        tables.append(table)
    return tables


def optimise(
    n: int,
    rounds: list[Tables],
    counts: list[list[int]],
    rng: Random,
    max_iters: int,
    fours: list[int] | None = None,
    resizable_from: int = 0,
) -> list[Tables]:
    """Improve a copy of `rounds` by simulated annealing; `counts` must already include them.

    `fours` (tables of three and four): each player's tables of four, these rounds included.
    A swap between a four and a three is then made only between players whose counts differ
    by one, the one at the four having more: the two counts trade places, so the players'
    counts stay as evenly spread as they were chosen (`leftovers.choose_fours`). Changed in
    place as swaps are made. Such swaps are made in rounds from `resizable_from` on only, so
    that the counts after each earlier round stay as they were too.

    A move swaps two players of one round. Nine in ten proposals are dropped unless the first
    player sits with someone met more often than the even level, which steers the walk to the
    conflicts while staying cheap. Stops early once the meetings are perfectly even.
    """
    rounds = [[list(t) for t in tables] for tables in rounds]
    pairs = n * (n - 1) // 2
    if pairs == 0 or not rounds:
        return rounds
    pos = []
    for tables in rounds:
        where = [-1] * n
        for ti, table in enumerate(tables):
            for p in table:
                where[p] = ti
        pos.append(where)
    total = sum(counts[a][b] for a in range(n) for b in range(a + 1, n))
    cost = sum(meeting_cost(counts[a][b]) for a in range(n) for b in range(a + 1, n))
    target = even_lower_bound(total, pairs)
    cap = max(1, -(-total // pairs))
    best_cost = cost
    best = [[list(t) for t in ts] for ts in rounds]
    n_rounds = len(rounds)
    rand, randrange, inc = rng.random, rng.randrange, _INC
    hot, cold = _T_HOT, _T_COLD
    for it in range(max_iters):
        if cost == target:
            break
        r = randrange(n_rounds)
        where = pos[r]
        p = randrange(n)
        ta = where[p]
        if ta < 0:
            continue
        tables = rounds[r]
        table_a = tables[ta]
        row_p = counts[p]
        if rand() < 0.9 and all(row_p[x] <= cap for x in table_a if x != p):
            continue
        q = randrange(n)
        tb = where[q]
        if tb < 0 or tb == ta:
            continue
        table_b = tables[tb]
        resized = fours is not None and len(table_a) != len(table_b)
        if resized:
            big, small = (p, q) if len(table_a) > len(table_b) else (q, p)
            if r < resizable_from or fours[big] != fours[small] + 1:
                continue
        row_q = counts[q]
        delta = sum(inc[row_q[x]] - inc[row_p[x] - 1] for x in table_a if x != p) + sum(
            inc[row_p[y]] - inc[row_q[y] - 1] for y in table_b if y != q
        )
        if delta > 0:
            temperature = hot * (cold / hot) ** (it / max_iters)
            if rand() >= math.exp(-delta / temperature):
                continue
        _swap(counts, table_a, table_b, p, q)
        where[p], where[q] = tb, ta
        if resized:
            fours[big] -= 1
            fours[small] += 1
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best = [[list(t) for t in ts] for ts in rounds]
    return best


# Temperatures in cost units: a second meeting of a pair costs 6 more than a first one.
_T_HOT, _T_COLD = 2.0, 0.5


def _swap(counts: list[list[int]], table_a: list[int], table_b: list[int], p: int, q: int):
    changed = []
    for x in table_a:
        if x != p:
            counts[p][x] -= 1
            counts[x][p] -= 1
            counts[q][x] += 1
            counts[x][q] += 1
            changed += [(p, x), (q, x)]
    for y in table_b:
        if y != q:
            counts[q][y] -= 1
            counts[y][q] -= 1
            counts[p][y] += 1
            counts[y][p] += 1
            changed += [(q, y), (p, y)]
    table_a[table_a.index(p)] = q
    table_b[table_b.index(q)] = p
    return changed
