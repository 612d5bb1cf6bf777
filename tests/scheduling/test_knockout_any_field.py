"""A knockout of any field reaches a final table of the game's size (docs/scheduling.md,
"Knockout"): whole events driven through the pure format with random results."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.draws import draw_order, lot_number
from league.scheduling import PairHistory, PlayerRecord, get_format, plan_round
from league.scheduling.knockout import field_sizes, rounds_needed
from league.scheduling.records import RoundOutcome, Standing, TableResult

KNOCKOUT = get_format("knockout")
FIELDS = [(7, 3), (10, 3), (11, 3), (13, 3), (29, 3), (10, 4), (13, 4), (22, 4)]


def random_result(table, rng: Random) -> TableResult:
    """Payouts that sum to zero, ties often (a sheet of [20, 20, 20] included); the winners
    are the seats with the highest payout, bots too."""
    n = len(table)
    if rng.random() < 0.25:
        payouts = [0] * n
    else:
        payouts = [rng.choice([-20, -10, 0, 10, 20]) for _ in range(n - 1)]
        payouts.append(-sum(payouts))
    top = max(payouts)
    winners = frozenset(s for s in range(n) if payouts[s] == top)
    return TableResult(seats=tuple(table), winners=winners, payouts=tuple(payouts))


def stated(p, standing, seed) -> tuple:
    s = standing.get(p, Standing())
    return (s.total_payouts, s.match_points, lot_number(seed, p))


def play_knockout(n: int, k: int, leftover: str, seed: int):
    """A whole knockout, round after round, checking every round; returns the rounds played
    and the final's players."""
    rng = Random(seed)
    totals: Counter = Counter()
    points: Counter = Counter()
    byes_had: Counter = Counter()
    seats = {p: [0] * k for p in range(n)}
    field = list(range(n))
    tables_so_far: list = []
    for round_no in range(1, 12):
        records = [
            PlayerRecord(
                id=p,
                position=i + 1,
                seat_counts=tuple(seats[p]),
                byes=byes_had[p],
                match_points=points[p],
            )
            for i, p in enumerate(field)
        ]
        history = PairHistory.from_tables(tables_so_far)
        plan = plan_round(records, history, k, "knockout", round_no, leftover, seed=seed)
        # Everyone of the field plays or sits out once; tables are full at the game's size.
        seated = plan.players()
        assert sorted(seated + list(plan.byes)) == sorted(field)
        assert all(len(t) == k for t in plan.tables)
        if leftover == "bot":
            assert not plan.byes
        if round_no > 1:
            assert not plan.byes, "after round 1 the best non-winners fill the tables"
            assert all(None not in t for t in plan.tables), "and bots fill none"
        # No second bye while another player of the round has had none.
        if any(byes_had[p] for p in plan.byes):
            assert all(byes_had[p] for p in seated)
        results = [random_result(t, rng) for t in plan.tables]
        for result in results:
            humans = [(s, p) for s, p in enumerate(result.seats) if p is not None]
            for s, p in humans:
                seats[p][s] += 1
                totals[p] += result.payouts[s]
                points[p] += sum(
                    (result.payouts[s] > v) - (result.payouts[s] < v)
                    for t, v in enumerate(result.payouts)
                    if t != s
                )
        for p in plan.byes:
            byes_had[p] += 1
            points[p] += 1
        tables_so_far += plan.tables
        if KNOCKOUT.is_decided(plan):
            assert round_no == rounds_needed(n, k, leftover)
            return round_no, [p for p in plan.tables[0] if p is not None]
        standing = {p: Standing(totals[p], points[p]) for p in field}
        outcome = RoundOutcome(
            tables=results, byes=plan.byes, standing=standing, table_size=k,
            leftover=leftover, seed=seed,
        )  # fmt: skip
        decision = KNOCKOUT.advance(outcome)
        check_decision(decision, results, plan.byes, standing, seed, k)
        assert len(decision.players) == field_sizes(n, k, leftover)[round_no]
        field = list(decision.players)
    pytest.fail("the knockout never reached its final")


def check_decision(decision, results, byes, standing, seed, k) -> None:
    """Each table's best person goes on (winners, payout at the table, then the stated
    order), bots never; the byes go through; the best non-winners fill the rest."""
    goers = []
    for call, result in zip(decision.calls, results, strict=True):
        keys = {
            p: (s in result.winners, result.payouts[s], *stated(p, standing, seed))
            for s, p in enumerate(result.seats)
            if p is not None
        }
        assert call.advancer == max(keys, key=keys.__getitem__)
        assert call.advancer is not None, "a table a bot won still sends its best person"
        if len(call.level) > 1:  # a tie at the table: the stated order decided, and says how
            assert call.decided_by in ("total_payouts", "match_points", "draw")
            tied = keys[call.level[0]][:2]
            assert all(keys[p][:2] == tied for p in call.level)
        goers.append(call.advancer)
    assert list(decision.players[: len(goers)]) == goers
    assert set(byes) <= set(decision.players)
    others = [p for r in results for p in r.seats if p is not None and p not in decision.players]
    for lucky in decision.filled:
        assert all(stated(lucky, standing, seed) > stated(p, standing, seed) for p in others)
    assert len(decision.players) == len(set(decision.players))
    assert decision.final == (len(decision.players) <= k)


@pytest.mark.parametrize(("n", "k"), FIELDS)
@pytest.mark.parametrize("leftover", ["bye", "bot"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_a_knockout_of_any_field_reaches_a_final_table_of_the_game_size(n, k, leftover, seed):
    rounds, final = play_knockout(n, k, leftover, seed)
    assert len(final) == k  # k people: no bot at the final
    assert rounds == len(field_sizes(n, k, leftover))


@pytest.mark.parametrize(
    ("n", "k", "sizes"),
    [
        (7, 3, [7, 3]),
        (10, 3, [10, 6, 3]),  # was: 3 tables + a bye, then 1 table + a second bye, then stuck
        (11, 3, [11, 6, 3]),
        (13, 3, [13, 6, 3]),
        (29, 3, [29, 12, 6, 3]),
        (10, 4, [10, 4]),
        (13, 4, [13, 4]),
        (22, 4, [22, 8, 4]),
    ],
)
def test_the_rounds_of_a_field(n, k, sizes):
    assert field_sizes(n, k, "bye") == sizes == field_sizes(n, k, "bot")


def test_ten_in_threes_round_by_round():
    plan = plan_round([PlayerRecord(id=p) for p in range(10)], PairHistory(), 3, "knockout", 1)
    assert len(plan.tables) == 3 and len(plan.byes) == 1
    results = [TableResult(t, frozenset({0}), (2, -1, -1)) for t in plan.tables]
    decision = KNOCKOUT.advance(RoundOutcome(results, plan.byes, table_size=3))
    # Three table winners and the bye: two of the best non-winners make two full tables.
    assert len(decision.players) == 6 and len(decision.filled) == 2
    assert not decision.final


def test_a_tie_at_the_table_goes_to_the_higher_total_payout_and_says_so():
    # A score sheet of [20, 20, 20]: all three win, with the same payout.
    table = TableResult((1, 2, 3), frozenset({0, 1, 2}), (0, 0, 0))
    standing = {1: Standing(5, 2), 2: Standing(40, 0), 3: Standing(30, 4)}
    call = KNOCKOUT.advance(RoundOutcome([table], standing=standing)).calls[0]
    assert call.advancer == 2
    assert call.decided_by == "total_payouts"
    assert call.level == (2, 3, 1)  # everyone level at the table, in the stated order


def test_then_match_points_then_the_draw():
    table = TableResult((1, 2, 3), frozenset({0, 1}), (20, 20, -40))
    standing = {1: Standing(20, 1), 2: Standing(20, 3), 3: Standing(90, 9)}
    call = KNOCKOUT.advance(RoundOutcome([table], standing=standing)).calls[0]
    assert (call.advancer, call.decided_by, set(call.level)) == (2, "match_points", {1, 2})
    level = {p: Standing(20, 1) for p in (1, 2)}
    for seed in range(5):
        call = KNOCKOUT.advance(RoundOutcome([table], standing=level, seed=seed)).calls[0]
        assert call.advancer == draw_order(seed, [1, 2])[0]
        assert call.decided_by == "draw"


def test_a_table_decides_by_its_own_result_first():
    table = TableResult((1, 2, 3), frozenset({2}), (5, 0, -5))
    standing = {1: Standing(100, 9)}
    call = KNOCKOUT.advance(RoundOutcome([table], standing=standing)).calls[0]
    assert (call.advancer, call.decided_by, call.level) == (3, "won", ())


def test_bots_never_advance_the_best_person_goes_on():
    table = TableResult((None, 5, 7), frozenset({0}), (30, -10, -20))
    call = KNOCKOUT.advance(RoundOutcome([table], table_size=3)).calls[0]
    assert call.bot_won and call.advancer == 5 and call.decided_by == "table_payout"


def test_the_best_non_winners_fill_by_total_payout_and_the_cut_is_explained():
    tables = [
        TableResult((1, 2, 3), frozenset({0}), (9, 0, -9)),
        TableResult((4, 5, 6), frozenset({0}), (9, 0, -9)),
    ]
    standing = {2: Standing(0, 0), 3: Standing(-9, -2), 5: Standing(0, 1), 6: Standing(-9, -2)}
    decision = KNOCKOUT.advance(RoundOutcome(tables, standing=standing, table_size=3))
    # Two winners, the final seats three: the best non-winner is 5 (level with 2 on payout,
    # ahead on match points).
    assert decision.players == (1, 4, 5)
    assert decision.final
    assert (decision.filled, decision.next_out, decision.fill_decided_by) == (
        (5,),
        2,
        "match_points",
    )


def test_a_withdrawn_winner_makes_way_for_the_next_best_at_the_table():
    table = TableResult((1, 2, 3), frozenset({0}), (9, 0, -9))
    decision = KNOCKOUT.advance(RoundOutcome([table], active=frozenset({2, 3}), table_size=3))
    assert decision.calls[0].advancer == 2
    assert 1 not in decision.players


def test_an_absent_player_is_out_and_never_fills_the_next_round():
    # 2 led the table before leaving (a payout of +9), and has the best total of all
    tables = [
        TableResult((1, 2, 3), frozenset({0, 2}), (-4, 9, -5), absent=frozenset({1})),
        TableResult((4, 5, 6), frozenset({0}), (9, 0, -9)),
    ]
    standing = {2: Standing(50, 4), 5: Standing(0, 1), 6: Standing(-9, -2)}
    decision = KNOCKOUT.advance(RoundOutcome(tables, standing=standing, table_size=3))
    assert decision.calls[0].advancer == 1 and decision.calls[0].decided_by == "table_payout"
    assert decision.players == (1, 4, 5) and decision.filled == (5,)  # not 2
    alone = TableResult((None, 7, None), frozenset({0, 2}), (0, 0, 0), absent=frozenset({1}))
    assert KNOCKOUT.advance(RoundOutcome([alone], table_size=3)).calls[0].advancer is None
