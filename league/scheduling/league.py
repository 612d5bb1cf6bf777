"""Whole-event league schedules: who sits with whom in every round, before the event starts.

The schedule for a set of players is one fixed, endless sequence of rounds that depends only
on (player ids, table size, leftover rule, seed), so round r can be recomputed at any time
from those alone, and an event of R rounds plays its first R. It is built in cycles:

- When a stored resolvable design fits (see designs.py), every cycle is that design with the
  players relabelled by a seeded shuffle: the first cycle has no repeated pair at all, and
  after c full cycles every pair has met c times (the fewest possible).
- Otherwise the first cycle is grown one round at a time by tabu search for as long as no
  pair has to meet twice; later cycles of the same length are searched to keep meetings even.

Seats are assigned in blocks of k rounds (k = table size) so that, when nobody sits out,
every player takes every seat once per block (seating.seat_block); byes rotate through a
seeded order, so bye counts never differ by more than one. With tables of three and four
("mixed") the seats at the fours go to the players with the fewest fours (a seeded order
among equals, so four counts never differ by more than one either); the search moves a
player between a four and a three only in the last round it searches, and only where their
counts trade places; each round is seated on its own (`seat_mixed_round`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from random import Random

from league.scheduling import local_search
from league.scheduling.designs import design_rounds
from league.scheduling.leftovers import table_sizes
from league.scheduling.records import PlayerId, RoundPlan
from league.scheduling.seating import seat_block, seat_mixed_round
from league.scheduling.validation import check_event

# Rounds a searched first cycle may grow to; bigger fields rarely need search at all and
# the budget would go to greedy rounds that are already free of repeats.
_MAX_SEARCHED_CYCLE = 24
# Annealing steps per player and search; about a second for 32 players (see docs).
_ITERATIONS_PER_PLAYER = 15000
_MAX_ITERATIONS = 500_000
# Seat repair steps per block (only fields with byes need any; see seating.seat_block).
_SEAT_STEPS_PER_PLAYER = 200
_MAX_SEAT_STEPS = 20_000


def build_league_schedule(
    player_ids: Sequence[PlayerId],
    table_size: int,
    rounds: int,
    seed: int = 0,
    leftover: str = "bye",
) -> list[RoundPlan]:
    """The first `rounds` rounds of the event's schedule (deterministic for the inputs)."""
    check_event(player_ids, table_size, leftover, rounds=rounds)
    return _sequence(tuple(sorted(player_ids)), table_size, leftover, seed).first(rounds)


def no_repeat_bound(n_players: int, table_size: int, leftover: str = "bye") -> int:
    """Most rounds in which no pair can meet twice, by counting alone.

    Three limits: all pairs are used up; the busiest player runs out of new opponents (k-1
    per round played; with fair byes the busiest plays R - floor(R*b/n) of R rounds); and
    with fewer tables than seats a second round must reunite two players (pigeonhole).
    """
    n, k = n_players, table_size
    sizes, byes = table_sizes(n, k, leftover)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    if per_round == 0:
        return 1
    bound = n * (n - 1) // 2 // per_round
    if 4 in sizes and k == 3:
        return min(bound, _mixed_bound(n, sizes, byes))
    if byes:
        r = 1
        while (k - 1) * ((r + 1) - ((r + 1) * byes) // n) <= n - 1:
            r += 1
        bound = min(bound, r)
    else:
        bound = min(bound, (n - 1) // (max(sizes) - 1))
        if max(sizes) > len(sizes):
            bound = 1
    return max(1, bound)


def _mixed_bound(n: int, sizes: list[int], byes: int) -> int:
    """`no_repeat_bound` for tables of three and four: after R rounds somebody has played at
    least ceil(4fR/n) of them at a four (4f seats at fours a round), meeting 2 new people a
    round and one more at each four; with fewer tables than a table has seats, two of a
    table's players meet again in the next round (pigeonhole)."""
    if max(sizes) > len(sizes) or byes:
        return 1
    seats_at_fours = 4 * sizes.count(4)
    r = 1
    while 2 * (r + 1) + -(-seats_at_fours * (r + 1) // n) <= n - 1:
        r += 1
    return r


class _Sequence:
    """Lazily generated rounds of one event; cached because plan_round asks for them often."""

    def __init__(self, ids: tuple[PlayerId, ...], k: int, leftover: str, seed: int):
        self.ids, self.k, self.leftover, self.seed = ids, k, leftover, seed
        n = len(ids)
        self.n = n
        self.rng = Random(f"league:{seed}:{n}:{k}:{leftover}")
        self.sizes, self.n_byes = table_sizes(n, k, leftover)
        self.bye_order = list(range(n))
        self.rng.shuffle(self.bye_order)
        self.design = None
        self.bots_in_design = 0
        if n % k == 0:
            self.design = design_rounds(n, k)
        elif leftover == "bot" and (n + 1) % k == 0:
            # One bot seat per round: a design on n+1 points, the extra point being the bot.
            self.design = design_rounds(n + 1, k)
            self.bots_in_design = 1
        self.mixed = 4 in self.sizes and k == 3
        # Tables of four: fours played so far (by index), and the seeded order among equals.
        self.fours = [0] * n
        self.four_order = list(range(n))
        self.rng.shuffle(self.four_order)
        self.counts = [[0] * n for _ in range(n)]
        self.seats: dict[PlayerId, list[int]] = {}
        self.plans: list[RoundPlan] = []
        # Rounds generated (tables and byes, players as indices) but not seated yet.
        self.pending: list[tuple[list[list[int | None]], list[int]]] = []
        self.generated = 0
        self.cycle_length = 0
        self.first_cycle_length = 0

    def first(self, rounds: int) -> list[RoundPlan]:
        while len(self.plans) < rounds:
            self._seat_next_block()
        return self.plans[:rounds]

    def _seat_next_block(self) -> None:
        """Seat the next k rounds together (see seating.seat_block), generating as needed.

        Blocks are aligned on round numbers, never on the number of rounds asked for, so a
        shorter event is exactly the beginning of a longer one.
        """
        k = self.k
        if self.mixed:
            while not self.pending:
                self._extend()
            (tables, byes), self.pending = self.pending[0], self.pending[1:]
            labelled = [[self.ids[p] for p in t] for t in tables]
            self.plans.append(
                RoundPlan(
                    seat_mixed_round(labelled, self.seats),
                    tuple(sorted(self.ids[b] for b in byes)),
                )
            )
            return
        # With byes players fall out of step, and a block's last seats decide what the
        # next block's first ones must be: look one block ahead (seated again next time).
        window = 2 * k if self.n_byes else k
        while len(self.pending) < window:
            self._extend()
        labelled = [
            [
                [None if p is None else self.ids[p] for p in t] + [None] * (k - len(t))
                for t in tables
            ]
            for tables, _byes in self.pending[:window]
        ]
        block, self.pending = self.pending[:k], self.pending[k:]
        index = len(self.plans) // k
        rng = Random(f"league-seats:{self.seed}:{self.n}:{k}:{self.leftover}:{index}")
        budget = min(_SEAT_STEPS_PER_PLAYER * self.n, _MAX_SEAT_STEPS)
        seated = seat_block(labelled, self.seats, k, rng, budget, commit=k)
        for tables, (_tables, byes) in zip(seated, block):
            self.plans.append(RoundPlan(tuple(tables), tuple(sorted(self.ids[b] for b in byes))))

    def _extend(self) -> None:
        if self.design is not None:
            cycle = self._design_cycle()
        elif not self.generated:
            cycle = self._grow_first_cycle()
        else:
            cycle = self._searched_cycle()
        if not self.generated:
            self.first_cycle_length = len(cycle)
        self.generated += len(cycle)
        self.pending += cycle

    def _design_cycle(self) -> list[tuple[list[list[int | None]], list[int]]]:
        assert self.design is not None
        points = self.n + self.bots_in_design
        label: list[int | None] = list(range(self.n)) + [None] * self.bots_in_design
        self.rng.shuffle(label)
        cycle = []
        for rnd in self.design:
            tables = [[label[p] for p in table] for table in rnd]
            # A bot seat goes last so that seating sees humans first; seats are reassigned.
            tables = [sorted(t, key=lambda p: p is None) for t in tables]
            cycle.append((tables, []))
        del points
        return cycle

    def _byes_for(self, round_index: int) -> list[int]:
        b = self.n_byes
        return [self.bye_order[(round_index * b + i) % self.n] for i in range(b)]

    def _sitting(self, round_index: int) -> tuple[list[int], list[int]]:
        byes = self._byes_for(round_index)
        out = set(byes)
        return [p for p in range(self.n) if p not in out], byes

    def _greedy_round(
        self, sitting: list[int], counts: list[list[int]], fours: list[int] | None
    ) -> list[list[int]]:
        """A greedy round (`local_search.greedy_round`); with tables of four, its seats go to
        the players with the fewest `fours` so far (counted on), the rest sit in threes."""
        if fours is None:
            return local_search.greedy_round(sitting, self.sizes, counts, self.rng)
        at_fours = [s for s in self.sizes if s == 4]
        rank = {p: i for i, p in enumerate(self.four_order)}
        chosen = sorted(sitting, key=lambda p: (fours[p], rank[p]))[: 4 * len(at_fours)]
        for p in chosen:
            fours[p] += 1
        taken = set(chosen)
        rest = [p for p in sitting if p not in taken]
        threes = [3] * (len(self.sizes) - len(at_fours))
        return local_search.greedy_round(
            chosen, at_fours, counts, self.rng
        ) + local_search.greedy_round(rest, threes, counts, self.rng)

    def _fours_of(self, rounds: list[list[list[int]]]) -> list[int] | None:
        """Each player's tables of four so far with `rounds` added (None: no tables of four)."""
        if not self.mixed:
            return None
        fours = list(self.fours)
        for tables in rounds:
            for t in tables:
                if len(t) == 4:
                    for p in t:
                        fours[p] += 1
        return fours

    def _budget(self) -> int:
        return min(_ITERATIONS_PER_PLAYER * self.n, _MAX_ITERATIONS)

    def _grow_first_cycle(self) -> list[tuple[list[list[int | None]], list[int]]]:
        """Add rounds while the search can keep every pair to one meeting."""
        n = self.n
        limit = min(no_repeat_bound(n, self.k, self.leftover), _MAX_SEARCHED_CYCLE)
        kept: list[list[list[int]]] = []
        byes_kept: list[list[int]] = []
        counts = [[0] * n for _ in range(n)]
        while len(kept) < limit:
            sitting, byes = self._sitting(len(kept))
            trial_counts = [row[:] for row in counts]
            new_round = self._greedy_round(sitting, trial_counts, self._fours_of(kept))
            trial = [*kept, new_round]
            if _max_meeting(trial_counts) > 1:
                trial = local_search.optimise(
                    n,
                    trial,
                    trial_counts,
                    self.rng,
                    self._budget(),
                    self._fours_of(trial),
                    resizable_from=len(kept),
                )
                trial_counts = _count(n, trial)
                if _max_meeting(trial_counts) > 1:
                    break
            kept, counts = trial, trial_counts
            byes_kept.append(byes)
        if not kept:  # even one round is always possible; keep the greedy one
            sitting, byes = self._sitting(0)
            kept = [self._greedy_round(sitting, counts, self._fours_of([]))]
            byes_kept = [byes]
        if self.mixed:
            self.fours = self._fours_of(kept)
        self.cycle_length = len(kept)
        self.counts = _count(n, kept)
        return [(list(t), b) for t, b in zip(kept, byes_kept)]

    def _searched_cycle(self) -> list[tuple[list[list[int | None]], list[int]]]:
        n = self.n
        start = self.generated
        block, byes_all = [], []
        counts = [row[:] for row in self.counts]
        fours = self._fours_of([])
        for i in range(self.cycle_length):
            sitting, byes = self._sitting(start + i)
            block.append(self._greedy_round(sitting, counts, fours))
            byes_all.append(byes)
        block = local_search.optimise(
            n,
            block,
            counts,
            self.rng,
            self._budget(),
            self._fours_of(block),
            resizable_from=len(block) - 1,
        )
        if self.mixed:
            self.fours = self._fours_of(block)
        self.counts = _add(self.counts, _count(n, block))
        return [(list(t), b) for t, b in zip(block, byes_all)]


def _count(n: int, rounds: list[list[list[int]]]) -> list[list[int]]:
    counts = [[0] * n for _ in range(n)]
    for tables in rounds:
        for t in tables:
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    counts[a][b] += 1
                    counts[b][a] += 1
    return counts


def _add(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    return [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def _max_meeting(counts: list[list[int]]) -> int:
    return max((max(row) for row in counts), default=0)


_CACHE: OrderedDict[tuple, _Sequence] = OrderedDict()
_CACHE_SIZE = 16


def _sequence(ids: tuple[PlayerId, ...], k: int, leftover: str, seed: int) -> _Sequence:
    key = (ids, k, leftover, seed)
    seq = _CACHE.get(key)
    if seq is None:
        seq = _CACHE[key] = _Sequence(ids, k, leftover, seed)
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(key)
    return seq
