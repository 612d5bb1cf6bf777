"""Seat order at a table: who deals first.

In trick-taking games the seat decides who deals and who leads, so over an event every
player should hold every seat about equally often: a player's seat counts should differ by
at most one, at the end and after every round.

Two situations:

- **Round by round** (Swiss, knockout, league rounds planned around withdrawals): only this
  round's tables are known, so each table is seated on its own, exactly: all (at most 24)
  permutations are tried and the one with the smallest worst resulting imbalance wins, then
  the smallest sum of squared imbalances, then the one that gives players the seats they had
  least. If the players' needs at a table are compatible (a perfect matching of players to
  seats they hold least exists), everyone there stays within one.

- **Whole league schedules** (`seat_block`): rounds are seated in blocks of k consecutive
  rounds (k = table size). In a block, each player with k games must take every seat once;
  that is a proper k-edge-colouring of the bipartite graph players x tables (seat = colour),
  which exists by Kőnig's line colouring theorem (every vertex has degree at most k) and is
  found by alternating-path recolouring. So when nobody sits out (the field fills its tables,
  or bot seats fill them), every player's seat counts are equal after each block and within
  one after every round: guaranteed, not searched for. With byes players fall out of
  step: a player's runs of k games then cross block boundaries, and the part of a run left
  over from the previous block may only use the seats that run has not had. Those lists
  can break the colouring; Kempe-chain swaps (which keep it proper) repair them by
  min-conflicts with a seeded RNG and a step budget (never the clock), and the next block
  is seated along as a soft lookahead so a block does not end in seats that force a clash
  right after it. Measured, not proven: see docs/scheduling.md.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from itertools import permutations
from random import Random

from league.scheduling.records import PlayerId, Table

SeatCounts = MutableMapping[PlayerId, list[int]]
# Weight of a committed seat that breaks a player's run, against lookahead penalties.
_HARD = 16


def _spread(c: Sequence[int]) -> int:
    return max(c) - min(c)


def seat_table(table: Sequence[PlayerId | None], counts: SeatCounts, table_size: int) -> Table:
    """Return the table in seat order; bots (None) take whatever seats are left.

    Cost of a permutation, compared lexicographically: the worst imbalance (most - fewest seat
    count) any player at the table would end with; the sum of the squared imbalances; how
    often players already sat where they would sit (lower = their least-held seats). Ties
    keep the incoming order, so the result is deterministic.
    """
    k = table_size
    humans = [p for p in table if p is not None]
    rows = [list(counts.get(p) or [0] * k) for p in humans]
    after = []  # after[i][s]: player i's imbalance after one more game in seat s
    for c in rows:
        line = []
        for s in range(k):
            c[s] += 1
            line.append(_spread(c))
            c[s] -= 1
        after.append(line)
    best: tuple[int, int, int] | None = None
    best_order: tuple[int, ...] = ()
    for order in permutations(range(k), len(humans)):
        worst = 0
        squares = 0
        used = 0
        for i, seat in enumerate(order):
            a = after[i][seat]
            if a > worst:
                worst = a
            squares += a * a
            used += rows[i][seat]
        cost = (worst, squares, used)
        if best is None or cost < best:
            best, best_order = cost, order
    seated: list[PlayerId | None] = [None] * k
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


def seat_mixed_round(
    tables: Sequence[Sequence[PlayerId | None]], counts: SeatCounts
) -> tuple[Table, ...]:
    """Seat a round of tables of three and four (the event's leftover rule "mixed").

    Tables of three are seated by `seat_table` from counts of three seats. A table of four
    keeps its order and counts nothing: it plays whole rotations with the dealer sitting out,
    so each of its seats deals, leads and sits out equally often."""
    seated = []
    for table in tables:
        if len(table) == 4:
            seated.append(tuple(table))
            continue
        ordered = seat_table(table, counts, 3)
        record_seats(ordered, counts, 3)
        seated.append(ordered)
    return tuple(seated)


Segment = tuple[PlayerId, int, int]  # (player, run, 0 = committed / 1 = lookahead)


def seat_block(
    rounds: Sequence[Sequence[Sequence[PlayerId | None]]],
    counts: SeatCounts,
    table_size: int,
    rng: Random,
    max_steps: int,
    commit: int | None = None,
) -> list[list[Table]]:
    """Seat consecutive rounds together; return and add to `counts` the first `commit`.

    A player's games split into runs of k (k = table size) counted from their first game;
    their seat counts stay within one after every game exactly when each run uses every
    seat once. Here the player's games in `rounds` are cut the same way: first the rest of
    the run in progress (it may only use the seats that run has not had yet), then fresh
    runs. Runs and tables are the two sides of a bipartite graph of degree at most k, and a
    proper k-edge-colouring (seat = colour) always exists (Kőnig). When nobody's run is in
    progress at the start (no byes so far, or the field is in step), that colouring is the
    answer. Otherwise the "not yet had" lists may be violated; Kempe-chain swaps (which keep
    the colouring proper) repair them by min-conflicts, seeded and with a step budget.
    Later rounds passed beyond `commit` are a lookahead: they keep the committed seats from
    forcing a clash just after them, and are seated again with the next block.
    """
    k = table_size
    commit = len(rounds) if commit is None else commit
    before = {p: list(c) for p, c in counts.items()}
    seated = _solve(rounds, before, k, rng, max_steps, commit)[:commit]
    if commit < len(rounds) and _drift(seated, before, k):
        # The lookahead made the committed rounds clash: try them on their own.
        alone = _solve(rounds[:commit], before, k, rng, max_steps)
        if _drift(alone, before, k) < _drift(seated, before, k):
            seated = alone
    for tables in seated:
        for table in tables:
            record_seats(table, counts, k)
    return seated


def _drift(rounds: list[list[Table]], counts: dict[PlayerId, list[int]], k: int) -> int:
    """Sum over games of (imbalance - 1)^2 where a player's imbalance exceeds one."""
    c = {p: list(v) for p, v in counts.items()}
    cost = 0
    for tables in rounds:
        for table in tables:
            for s, p in enumerate(table):
                if p is not None:
                    row = c.setdefault(p, [0] * k)
                    row[s] += 1
                    cost += max(0, _spread(row) - 1) ** 2
    return cost


def _solve(
    rounds: Sequence[Sequence[Sequence[PlayerId | None]]],
    counts: dict[PlayerId, list[int]],
    k: int,
    rng: Random,
    max_steps: int,
    commit: int | None = None,
) -> list[list[Table]]:
    """Colour players' runs x tables; rounds from `commit` on are a soft lookahead.

    A run that crosses into the lookahead is split in two segments (committed part,
    lookahead part); seats they share are penalised, not forbidden, so the lookahead can
    steer the committed seats but never force a clash into them.
    """
    commit = len(rounds) if commit is None else commit
    cells = [[p for p in t if p is not None] for tables in rounds for t in tables]
    ahead = [ri >= commit for ri, tables in enumerate(rounds) for _ in tables]
    before = {p: list(counts.get(p) or [0] * k) for cell in cells for p in cell}
    # Segment (player, i, part): i = 0 is the run in progress, then fresh runs of k games;
    # part 1 is the lookahead.
    allowed: dict[Segment, frozenset[int]] = {}
    played: dict[PlayerId, int] = dict.fromkeys(before, 0)
    edges: list[tuple[Segment, int]] = []
    for ci, cell in enumerate(cells):
        for p in cell:
            c = before[p]
            owed = [s for s in range(k) if c[s] == min(c)]
            if len(owed) == k:
                owed = []  # no run in progress: start a fresh one
            g = played[p]
            run = 0 if g < len(owed) else 1 + (g - len(owed)) // k
            seg = (p, run, int(ahead[ci]))
            if run == 0:
                allowed[seg] = frozenset(owed)
            played[p] = g + 1
            edges.append((seg, ci))
    colouring = _Colouring(len(cells), k)
    # The constrained edges first: they have the fewest choices.
    for seg, ci in sorted(edges, key=lambda e: (e[0][1] != 0, e[0][2])):
        colouring.add(seg, ci, allowed.get(seg))
    colouring.repair(allowed, rng, max_steps)
    out: list[list[Table]] = []
    ci = 0
    for tables in rounds:
        seated_round = []
        for _ in tables:
            table: list[PlayerId | None] = [None] * k
            for s, seg in colouring.at_cell[ci].items():
                table[s] = seg[0]
            seated_round.append(tuple(table))
            ci += 1
        out.append(seated_round)
    return out


class _Colouring:
    """A proper edge colouring of segments x cells with k colours, built and repaired in place."""

    def __init__(self, n_cells: int, k: int):
        self.k = k
        self.at_seg: dict[Segment, dict[int, int]] = {}
        self.at_cell: list[dict[int, Segment]] = [{} for _ in range(n_cells)]

    def add(self, seg: Segment, ci: int, allowed: frozenset[int] | None) -> None:
        """Colour edge seg-ci: a colour free at both if there is one (an allowed one if
        possible), else the Kőnig step: free `a` at the segment, `b` at the cell, swap a/b
        along the path leaving the cell by `a` (it cannot reach the segment), use `a`."""
        at_seg = self.at_seg.setdefault(seg, {})
        at_cell = self.at_cell[ci]
        free_seg = [s for s in range(self.k) if s not in at_seg]
        if allowed is not None:
            free_seg.sort(key=lambda s: s not in allowed)
        both = [s for s in free_seg if s not in at_cell]
        if both and (allowed is None or both[0] in allowed or free_seg[0] not in allowed):
            a = both[0]
        else:
            a = free_seg[0]
            b = next(s for s in range(self.k) if s not in at_cell)
            self._swap(self._path_from_cell(ci, a, b), a, b)
        at_seg[a] = ci
        at_cell[a] = seg

    def _path_from_cell(self, ci: int, a: int, b: int) -> list[tuple[Segment, int, int]]:
        """The a/b alternating path that leaves cell `ci` by colour a: (segment, cell, colour)."""
        path = []
        while True:
            seg = self.at_cell[ci].get(a)
            if seg is None:
                break
            path.append((seg, ci, a))
            nxt = self.at_seg[seg].get(b)
            if nxt is None:
                break
            path.append((seg, nxt, b))
            ci = nxt
        return path

    def _swap(
        self, path: list[tuple[Segment, int, int]], a: int, b: int
    ) -> list[tuple[Segment, int, int]]:
        """Exchange colours a and b on `path`; returns the path as it is now (to undo)."""
        for seg, ci, colour in path:
            del self.at_seg[seg][colour]
            del self.at_cell[ci][colour]
        swapped = []
        for seg, ci, colour in path:
            other = b if colour == a else a
            self.at_seg[seg][other] = ci
            self.at_cell[ci][other] = seg
            swapped.append((seg, ci, other))
        return swapped

    def _chain(self, seg: Segment, ci: int, a: int, c: int) -> list[tuple[Segment, int, int]]:
        """The a/c Kempe chain through edge seg-ci (colour c), where `seg` lacks colour a."""
        return [(seg, ci, c), *self._path_from_cell(ci, a, c)]

    def repair(self, allowed: dict[Segment, frozenset[int]], rng: Random, max_steps: int) -> None:
        """Min-conflicts over Kempe chains (they keep the colouring proper).

        Cost: a committed run in progress off its list counts _HARD, a lookahead one 1, and
        each seat shared by the two parts of a run split by the lookahead 1.
        """

        def seg_cost(seg: Segment) -> int:
            colours = self.at_seg.get(seg, {})
            cost = 0
            ok = allowed.get(seg)
            if ok is not None:
                cost += sum(c not in ok for c in colours) * (_HARD if seg[2] == 0 else 1)
            if seg[2] == 0:
                twin = self.at_seg.get((seg[0], seg[1], 1))
                if twin:
                    cost += sum(c in twin for c in colours)
            return cost

        def bad_edges() -> list[tuple[Segment, int, int]]:
            out = []
            for seg, colours in self.at_seg.items():
                ok = allowed.get(seg)
                twin = self.at_seg.get((seg[0], seg[1], 1 - seg[2]), {})
                for c, ci in colours.items():
                    if (ok is not None and c not in ok) or c in twin:
                        out.append((seg, ci, c))
            return out

        def chain_cost(chain: list[tuple[Segment, int, int]]) -> int:
            segs = {(seg[0], seg[1], 0) for seg, _ci, _c in chain}
            segs |= {seg for seg, _ci, _c in chain}
            return sum(seg_cost(seg) for seg in segs)

        total = sum(seg_cost(seg) for seg in list(self.at_seg) if seg[2] == 0 or seg in allowed)
        best, best_state = total, self._snapshot()
        for _ in range(max_steps):
            if total == 0:
                break
            bad = bad_edges()
            if not bad:
                break
            seg, ci, c = rng.choice(bad)
            options = []
            for a in range(self.k):
                if a in self.at_seg[seg]:
                    continue
                chain = self._chain(seg, ci, a, c)
                old = chain_cost(chain)
                undo = self._swap(chain, a, c)
                options.append((chain_cost(chain + undo) - old, a, chain))
                self._swap(undo, a, c)
            if not options:
                continue
            if rng.random() < 0.2:
                delta, a, chain = rng.choice(options)
            else:
                low = min(o[0] for o in options)
                delta, a, chain = rng.choice([o for o in options if o[0] == low])
            self._swap(chain, a, c)
            total += delta
            if total < best:
                best, best_state = total, self._snapshot()
        self._restore(best_state)

    def _snapshot(self) -> list[dict[int, Segment]]:
        return [dict(d) for d in self.at_cell]

    def _restore(self, state: list[dict[int, Segment]]) -> None:
        self.at_cell = state
        self.at_seg = {}
        for ci, d in enumerate(state):
            for colour, seg in d.items():
                self.at_seg.setdefault(seg, {})[colour] = ci
