"""Seat balance: exact per table round by round, Kőnig blocks for whole league schedules."""

from itertools import permutations
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.scheduling import build_league_schedule
from league.scheduling.seating import seat_block, seat_table


def spreads_after_each_round(rounds, k):
    """Worst (most - fewest) seat count of any player after each round."""
    seats: dict[int, list[int]] = {}
    worst = []
    for tables in rounds:
        for table in getattr(tables, "tables", tables):
            for s, p in enumerate(table):
                if p is not None:
                    seats.setdefault(p, [0] * k)[s] += 1
        worst.append(max(max(c) - min(c) for c in seats.values()))
    return worst


counts_st = st.lists(st.integers(0, 3), min_size=4, max_size=4)


@settings(max_examples=200, deadline=None)
@given(
    k=st.sampled_from([3, 4]),
    rows=st.lists(counts_st, min_size=4, max_size=4),
    bots=st.integers(0, 2),
)
def test_a_table_gets_the_permutation_with_the_smallest_worst_imbalance(k, rows, bots):
    humans = k - min(bots, k - 1)
    counts = {p: rows[p][:k] for p in range(humans)}
    table = [*range(humans), *([None] * (k - humans))]
    seated = seat_table(table, {p: list(c) for p, c in counts.items()}, k)
    assert sorted(p for p in seated if p is not None) == list(range(humans))

    def worst(order):
        out = 0
        for p, s in zip(range(humans), order):
            c = list(counts[p])
            c[s] += 1
            out = max(out, max(c) - min(c))
        return out

    best = min(worst(o) for o in permutations(range(k), humans))
    chosen = [seated.index(p) for p in range(humans)]
    assert worst(chosen) == best
    # In particular: if everyone was within one and each can get a seat they hold least
    # (a perfect matching exists), everyone stays within one.
    if all(max(c) - min(c) <= 1 for c in counts.values()) and best <= 1:
        assert worst(chosen) <= 1


def test_seat_table_sends_each_player_to_the_seat_they_lack():
    counts = {1: [1, 1, 0], 2: [0, 1, 1], 3: [1, 0, 1]}
    assert seat_table([1, 2, 3], counts, 3) == (2, 3, 1)


@settings(max_examples=40, deadline=None)
@given(k=st.sampled_from([3, 4]), tables=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_any_k_rounds_without_byes_give_everyone_every_seat_once(k, tables, seed):
    """Kőnig: players x tables has degree k, so a proper k-edge-colouring exists."""
    rng = Random(seed)
    players = list(range(k * tables))
    rounds = []
    for _ in range(k):
        rng.shuffle(players)
        rounds.append([players[t * k : (t + 1) * k] for t in range(tables)])
    counts: dict[int, list[int]] = {}
    seated = seat_block(rounds, counts, k, Random(0), max_steps=0)
    assert all(c == [1] * k for c in counts.values())
    assert spreads_after_each_round(seated, k) == [1] * (k - 1) + [0]
    for before, after in zip(rounds, seated):
        assert [sorted(t) for t in before] == [sorted(p for p in t if p is not None) for t in after]


# The no-repeat schedules of the issue, full length, and a longer event over two cycles.
REFERENCE = [(9, 3, 4), (12, 3, 4), (15, 3, 7), (16, 4, 5), (21, 3, 10), (24, 4, 7),
             (27, 3, 13), (28, 4, 9), (32, 4, 9), (36, 4, 11), (40, 4, 13)]  # fmt: skip


@pytest.mark.parametrize(("n", "k", "rounds"), REFERENCE)
def test_league_seat_counts_stay_within_one_after_every_round(n, k, rounds):
    for length in (rounds, 2 * rounds + 1):
        schedule = build_league_schedule(list(range(n)), k, length, seed=0)
        worst = spreads_after_each_round(schedule, k)
        assert max(worst) <= 1
        # after every k rounds everyone has had every seat equally often
        assert all(w == 0 for r, w in enumerate(worst, 1) if r % k == 0)


@pytest.mark.parametrize(("n", "k"), [(14, 3), (23, 4), (27, 4), (35, 4), (7, 3), (6, 4)])
def test_bot_seats_keep_seat_counts_within_one_too(n, k):
    schedule = build_league_schedule(list(range(n)), k, 9, seed=2, leftover="bot")
    assert max(spreads_after_each_round(schedule, k)) <= 1


@pytest.mark.parametrize(
    ("n", "k", "rounds"),
    [(13, 3, 12), (14, 3, 12), (16, 3, 12), (22, 3, 12), (21, 4, 8), (25, 4, 8)],
)
def test_with_byes_the_repair_search_keeps_these_fields_within_one(n, k, rounds):
    """Measured, not guaranteed (see docs/scheduling.md): byes put players out of step."""
    schedule = build_league_schedule(list(range(n)), k, rounds, seed=0)
    assert max(spreads_after_each_round(schedule, k)) <= 1
