"""Duplicate scoring (`league/standings/duplicate_arithmetic.py`) against
`/work/shared/spec/duplicate.md`.

The worked sections are computed by hand in the comments and the expected figures are written
out, never taken from the code under test; Hypothesis checks the spec's invariants on random
sections (zero-sum differences, N(N - 1)/2 matchpoints, ranks, permutations, shifts).
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.standings import (
    DuplicateRecordError,
    DuplicateTable,
    Section,
    StandingsFault,
    deals_payload,
    round_half_even,
    score_event,
    score_seat,
    score_section,
    section_payload,
    withheld_section_payload,
)

from .builders import ALICE, BOB, CAROL, DAVE, ERIN, FRANK

PROPS = settings(max_examples=80, deadline=None, derandomize=True)


def table(fixture, players, *deals, stopped_by=()):
    return DuplicateTable(fixture, tuple(players), tuple(deals), frozenset(stopped_by))


def line(scores, deal, fixture):
    """The traveller line of `fixture` on `deal`."""
    (row,) = [r for r in scores.travellers[deal].tables if r.fixture_id == fixture]
    return row


# --- worked sections ----------------------------------------------------------------------------


def test_two_tables_one_deal_the_better_seat_takes_the_top_and_a_tie_shares_it():
    section = Section(
        (
            table(10, (ALICE, BOB, CAROL), (6, -3, -3)),
            table(11, (DAVE, ERIN, FRANK), (2, 1, -3)),
        ),
        n_deals=1,
    )
    scores = score_section(section)
    # Seat 0: 6 and 2, datum 4; seat 1: -3 and 1, datum -1; seat 2: -3 and -3, datum -3 (a tie).
    assert scores.travellers[0].datum == (4, -1, -3)
    a, b = line(scores, 0, 10), line(scores, 0, 11)
    assert a.completed and a.payouts == (6, -3, -3)
    assert a.differences == (2, -2, 0)
    assert b.differences == (-2, 2, 0)
    assert a.matchpoints == (1, 0, F(1, 2))
    assert b.matchpoints == (0, 1, F(1, 2))
    assert a.percentages == (100, 0, 50)
    assert b.percentages == (0, 100, 50)

    totals = score_event([section]).totals
    assert {p: (t.total, t.percentage, t.deals) for p, t in totals.items()} == {
        ALICE: (2, 100, 1),
        BOB: (-2, 0, 1),
        CAROL: (0, 50, 1),
        DAVE: (-2, 0, 1),
        ERIN: (2, 100, 1),
        FRANK: (0, 50, 1),
    }


def test_ties_among_four_tables_share_the_matchpoints_exactly():
    section = Section(
        (
            table(1, "abc", (4, -2, -2)),
            table(2, "def", (4, -4, 0)),
            table(3, "ghi", (0, 0, 0)),
            table(4, "jkl", (-2, 1, 1)),
        ),
        n_deals=1,
    )
    t = score_section(section).travellers[0]
    # Seat 0: 4, 4, 0, -2 -> datum 6/4 = 3/2. The two 4s each beat 2 tables and tie 1: 5/2;
    # 0 beats one: 1; -2: 0. Top is N - 1 = 3; sum 5/2 + 5/2 + 1 + 0 = 6 = 4*3/2.
    # Seat 1: -2, -4, 0, 1 -> datum -5/4. Seat 2: -2, 0, 0, 1 -> datum -1/4, the 0s tie.
    assert t.datum == (F(3, 2), F(-5, 4), F(-1, 4))
    rows = t.tables
    assert [r.differences[0] for r in rows] == [F(5, 2), F(5, 2), F(-3, 2), F(-7, 2)]
    assert [r.matchpoints[0] for r in rows] == [F(5, 2), F(5, 2), 1, 0]
    assert [r.percentages[0] for r in rows] == [F(250, 3), F(250, 3), F(100, 3), 0]
    assert [r.differences[1] for r in rows] == [F(-3, 4), F(-11, 4), F(5, 4), F(9, 4)]
    assert [r.matchpoints[1] for r in rows] == [1, 0, 2, 3]
    assert [r.percentages[1] for r in rows] == [F(100, 3), 0, F(200, 3), 100]
    assert [r.differences[2] for r in rows] == [F(-7, 4), F(1, 4), F(1, 4), F(5, 4)]
    assert [r.matchpoints[2] for r in rows] == [0, F(3, 2), F(3, 2), 3]
    assert [r.percentages[2] for r in rows] == [0, 50, 50, 100]


def test_a_withdrawal_costs_the_lowest_difference_and_zero_percent_the_others_are_average():
    section = Section(
        (
            table(1, (ALICE, BOB, CAROL), (3, 0, -3), (2, -1, -1)),
            table(2, (DAVE, ERIN, FRANK), (0, 0, 0), (-4, 2, 2)),
            # Seat 1 (Hugo) withdrew during deal 1: the table never completed it.
            table(3, ("gus", "hugo", "ida"), (6, -6, 0), None, stopped_by={1}),
        ),
        n_deals=2,
    )
    scores = score_section(section)
    # Deal 0, all three tables: seat 0 3, 0, 6 (datum 3); seat 1 0, 0, -6 (datum -2);
    # seat 2 -3, 0, 0 (datum -1).
    d0 = scores.travellers[0]
    assert d0.datum == (3, -2, -1)
    assert line(scores, 0, 3).differences == (3, -4, 1)
    assert line(scores, 0, 3).matchpoints == (2, 0, F(3, 2))
    assert line(scores, 0, 3).percentages == (100, 0, 75)
    assert line(scores, 0, 1).percentages == (50, 75, 0)
    # Deal 1, C = tables 1 and 2: seat 1 -1 and 2, datum 1/2, differences -3/2 and 3/2.
    d1 = scores.travellers[1]
    assert d1.datum == (-1, F(1, 2), F(1, 2))
    assert line(scores, 1, 1).differences == (3, F(-3, 2), F(-3, 2))
    stopped = line(scores, 1, 3)
    assert not stopped.completed
    assert stopped.payouts is None and stopped.matchpoints is None
    assert stopped.differences == (0, F(-3, 2), 0)  # min(0, -3/2) for the one who withdrew
    assert stopped.percentages == (50, 0, 50)

    totals = score_event([section]).totals
    assert (totals["gus"].total, totals["gus"].percentage) == (3, 75)  # (100 + 50) / 2
    assert (totals["hugo"].total, totals["hugo"].percentage) == (F(-11, 2), 0)  # -4 - 3/2
    assert (totals["ida"].total, totals["ida"].percentage) == (1, F(125, 2))  # (75 + 50) / 2
    assert totals["hugo"].deals == 2  # the forfeited deal is one of his deals


def test_a_deal_completed_at_one_table_has_no_datum_and_the_forfeiter_loses_nothing_more():
    section = Section(
        (
            table(1, "abc", (1, -1, 0), (2, 0, -2), None, stopped_by={0}),
            table(2, "def", (3, -2, -1), None, None, stopped_by={2}),
        ),
        n_deals=3,
    )
    scores = score_section(section)
    # Deal 0, both tables: seat 0 1 and 3 (datum 2), seat 1 -1, -2 (-3/2), seat 2 0, -1 (-1/2).
    assert scores.travellers[0].datum == (2, F(-3, 2), F(-1, 2))
    assert line(scores, 0, 1).differences == (-1, F(1, 2), F(1, 2))
    assert line(scores, 0, 1).percentages == (0, 100, 100)
    # Deal 1, only table 1 completed it: no datum, difference 0 and 50 % there; at table 2
    # the forfeiter (seat 2) gets min(0, lowest difference over C = 0) = 0 and 0 %.
    d1 = scores.travellers[1]
    assert d1.datum == (None, None, None)
    assert line(scores, 1, 1).differences == (0, 0, 0)
    assert line(scores, 1, 1).matchpoints == (0, 0, 0)
    assert line(scores, 1, 1).percentages == (50, 50, 50)
    assert line(scores, 1, 2).differences == (0, 0, 0)
    assert line(scores, 1, 2).percentages == (50, 50, 0)
    # Deal 2, no table completed it: min(0, nothing) = 0, and 0 % for each forfeiter.
    assert scores.travellers[2].datum == (None, None, None)
    assert line(scores, 2, 1).differences == (0, 0, 0)
    assert line(scores, 2, 1).percentages == (0, 50, 50)
    assert line(scores, 2, 2).percentages == (50, 50, 0)

    totals = score_event([section]).totals
    assert (totals["a"].total, totals["a"].percentage) == (-1, F(50, 3))  # (0 + 50 + 0) / 3
    assert (totals["d"].total, totals["d"].percentage) == (1, F(200, 3))  # (100 + 50 + 50) / 3
    assert (totals["f"].total, totals["f"].percentage) == (F(-1, 2), 0)


def test_a_table_stopped_through_no_seats_fault_scores_average_for_everyone():
    section = Section(
        (table(1, "abc", (1, -1, 0), (3, -3, 0)), table(2, "def", (0, 0, 0), None)),
        n_deals=2,
    )
    stopped = line(score_section(section), 1, 2)
    assert stopped.differences == (0, 0, 0)
    assert stopped.percentages == (50, 50, 50)


def _four(i):
    return tuple(f"{seat}{i}" for seat in "abcd")


SEVEN = Section(
    (
        table(1, _four(1), (9, -3, -3, -3)),
        table(2, _four(2), (3, 1, -2, -2)),
        table(3, _four(3), (3, -1, -1, -1)),
        table(4, _four(4), (0, 0, 0, 0)),
        table(5, _four(5), (-3, 1, 1, 1)),
        table(6, _four(6), (-6, 2, 2, 2)),
        table(7, _four(7), (8, -8, 0, 0)),
    ),
    n_deals=1,
)


def test_seven_tables_in_sevenths_and_sixths():
    t = score_section(SEVEN).travellers[0]
    # Seat 0: 9, 3, 3, 0, -3, -6, 8 sum 14, datum 2. Sorted -6 -3 0 3 3 8 9: 9 beats 6, each 3
    # beats 3 and ties 1 (7/2), 0 beats 2, -3 one, -6 none, 8 five; sum 21 = 7*6/2.
    assert t.datum[0] == 2
    assert [r.differences[0] for r in t.tables] == [7, 1, 1, -2, -5, -8, 6]
    assert [r.matchpoints[0] for r in t.tables] == [6, F(7, 2), F(7, 2), 2, 1, 0, 5]
    assert [r.percentages[0] for r in t.tables] == [
        100,
        F(175, 3),
        F(175, 3),
        F(100, 3),
        F(50, 3),
        0,
        F(250, 3),
    ]
    # Seat 1: -3, 1, -1, 0, 1, 2, -8 sum -8, datum -8/7; difference = payout + 8/7.
    assert t.datum[1] == F(-8, 7)
    assert [r.differences[1] for r in t.tables] == [
        F(-13, 7),
        F(15, 7),
        F(1, 7),
        F(8, 7),
        F(15, 7),
        F(22, 7),
        F(-48, 7),
    ]
    assert [r.matchpoints[1] for r in t.tables] == [1, F(9, 2), 2, 3, F(9, 2), 6, 0]
    assert [r.percentages[1] for r in t.tables] == [F(50, 3), 75, F(100, 3), 50, 75, 100, 0]
    # Seats 2 and 3: -3, -2, -1, 0, 1, 2, 0 sum -3, datum -3/7; the two 0s tie.
    assert t.datum[2] == t.datum[3] == F(-3, 7)
    assert [r.differences[2] for r in t.tables] == [
        F(-18, 7),
        F(-11, 7),
        F(-4, 7),
        F(3, 7),
        F(10, 7),
        F(17, 7),
        F(3, 7),
    ]
    assert [r.matchpoints[3] for r in t.tables] == [0, 1, 2, F(7, 2), 5, 6, F(7, 2)]


def test_the_api_shape_is_the_specs_with_six_half_even_decimals_as_numbers():
    payload = deals_payload([section_payload(score_section(SEVEN))])
    (section,) = payload["sections"]
    assert section["tables"] == [1, 2, 3, 4, 5, 6, 7]
    (deal,) = section["deals"]
    assert list(deal) == ["deal", "datum", "tables"]
    assert deal["deal"] == 0
    assert deal["datum"] == [2.0, -1.142857, -0.428571, -0.428571]  # -8/7, -3/7
    first = deal["tables"][0]
    assert list(first) == [
        "fixture",
        "completed",
        "payouts",
        "differences",
        "matchpoints",
        "percentages",
    ]
    assert first["fixture"] == 1 and first["completed"] is True
    assert first["payouts"] == [9, -3, -3, -3]
    assert first["differences"] == [7.0, -1.857143, -2.571429, -2.571429]  # -13/7, -18/7
    assert first["percentages"] == [100.0, 16.666667, 0.0, 0.0]
    assert deal["tables"][1]["matchpoints"] == [3.5, 4.5, 1.0, 1.0]
    # The text a client reads is the rounded value itself, not a binary float's digits.
    assert "-1.142857," in json.dumps(payload) and "16.666667," in json.dumps(payload)


def test_the_api_writes_null_for_no_datum_and_for_an_uncompleted_tables_payouts():
    section = Section(
        (table(1, "abc", (1, -1, 0)), table(2, "def", None, stopped_by={1})), n_deals=1
    )
    (deal,) = section_payload(score_section(section))["deals"]
    assert deal["datum"] == [None, None, None]
    assert deal["tables"][1] == {
        "fixture": 2,
        "completed": False,
        "payouts": None,
        "differences": [0.0, 0.0, 0.0],
        "matchpoints": None,
        "percentages": [50.0, 0.0, 50.0],
    }
    assert withheld_section_payload([1, 2]) == {"tables": [1, 2], "deals": None}


def test_round_half_even_on_the_exact_fraction():
    assert str(round_half_even(F(1, 8), 2)) == "0.12"  # 0.125: the even neighbour
    assert str(round_half_even(F(3, 8), 2)) == "0.38"
    assert str(round_half_even(F(-1, 8), 2)) == "-0.12"
    assert str(round_half_even(F(-3, 8), 2)) == "-0.38"
    assert str(round_half_even(F(1, 128), 6)) == "0.007812"  # 0.0078125
    assert str(round_half_even(F(3, 128), 6)) == "0.023438"  # 0.0234375
    assert str(round_half_even(F(2, 3), 6)) == "0.666667"
    assert str(round_half_even(F(50, 3), 2)) == "16.67"
    assert str(round_half_even(F(-1, 10**9), 6)) == "0.000000"  # never -0.000000
    assert str(round_half_even(5, 2)) == "5.00"
    assert round_half_even(F(-13, 7), 6) == Decimal("-1.857143")


def test_several_rounds_add_up_and_a_bye_adds_nothing():
    round1 = Section((table(1, "abc", (2, -1, -1)), table(2, "def", (0, 0, 0))), n_deals=1)
    round2 = Section((table(3, "adx", (4, -2, -2)), table(4, "bey", (-4, 2, 2))), n_deals=1)
    # "c" and "f" sit round 2 out (a bye). Round 1: a +1 (datum 1), d -1; b -1/2, e +1/2.
    # Round 2 seat 0: a 4, b -4, datum 0: a +4 (100 %), b -4 (0 %).
    totals = score_event([round1, round2], players=["a", "b", "c", "z"]).totals
    assert (totals["a"].total, totals["a"].deals, totals["a"].percentage) == (5, 2, 100)
    assert (totals["b"].total, totals["b"].percentage) == (F(-9, 2), 0)
    assert (totals["c"].total, totals["c"].deals) == (F(-1, 2), 1)
    assert (totals["z"].total, totals["z"].deals, totals["z"].percentage) == (0, 0, None)
    assert list(totals)[:4] == ["a", "b", "c", "z"]


# --- refused input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "n_deals", "message"),
    [
        ([table(1, "abc", (1, 0, 0)), table(2, "def", (0, 0, 0))], 1, "do not sum to zero"),
        ([table(1, "abc", (1, -1)), table(2, "def", (0, 0, 0))], 1, "are not 3 integers"),
        ([table(1, "abc", (0, 0, 0)), table(2, "de", (0, 0))], 1, "2 seats where"),
        ([table(1, "abc", (0, 0, 0)), table(1, "def", (0, 0, 0))], 1, "twice in the section"),
        ([table(1, "abc", (0, 0, 0)), table(2, "dea", (0, 0, 0))], 1, "sits twice"),
        ([table(1, "abc", (0, 0, 0)), table(2, "def", (0, 0, 0))], 2, "the match has 2"),
        ([table(1, "abc", None, (0, 0, 0))], 2, "completed after the table stopped"),
        ([table(1, "abc", None, stopped_by={3})], 1, "are not seats 0-2"),
        ([table(1, "abc", (0, 0, 0), stopped_by={0})], 1, "completed every deal"),
        ([table(1, "abc", (0.5, -0.5, 0))], 1, "are not 3 integers"),
        ([], 1, "at least one table"),
    ],
)
def test_a_section_the_loader_should_never_build_is_refused(tables, n_deals, message):
    with pytest.raises(ValueError, match=message) as caught:
        score_section(Section(tuple(tables), n_deals))
    assert isinstance(caught.value, DuplicateRecordError)
    assert isinstance(caught.value, StandingsFault)


def test_a_fixture_in_two_sections_is_refused():
    one = Section((table(1, "abc", (0, 0, 0)),), n_deals=1)
    other = Section((table(1, "def", (0, 0, 0)),), n_deals=1)
    with pytest.raises(ValueError, match="fixture 1 is in two sections"):
        score_event([one, other])


# --- properties ---------------------------------------------------------------------------------


@st.composite
def sections(draw):
    """1-8 tables of 3 or 4 seats, 1-4 deals, payouts in -3..3 (ties are common); about half
    the tables stop at some deal, with 0-2 seats to blame."""
    seats = draw(st.integers(3, 4))
    n_tables = draw(st.integers(1, 8))
    n_deals = draw(st.integers(1, 4))
    fixtures = draw(st.permutations(range(100, 100 + n_tables)))
    tables = []
    for i, fixture in enumerate(fixtures):
        stop = draw(st.integers(0, n_deals - 1)) if draw(st.booleans()) else n_deals
        deals = []
        for k in range(n_deals):
            if k < stop:
                head = draw(st.lists(st.integers(-3, 3), min_size=seats - 1, max_size=seats - 1))
                deals.append((*head, -sum(head)))
            else:
                deals.append(None)
        blamed = draw(st.sets(st.integers(0, seats - 1), max_size=2)) if stop < n_deals else set()
        players = tuple(f"p{i}.{s}" for s in range(seats))
        tables.append(table(fixture, players, *deals, stopped_by=blamed))
    return Section(tuple(tables), n_deals)


def _sign(x) -> int:
    return (x > 0) - (x < 0)


@PROPS
@given(sections())
def test_differences_cancel_matchpoints_sum_to_the_top_and_percentages_stay_in_range(section):
    scores = score_section(section)
    seats = len(section.tables[0].players)
    for traveller in scores.travellers:
        done = [r for r in traveller.tables if r.completed]
        n = len(done)
        for s in range(seats):
            assert sum(r.differences[s] for r in done) == 0
            assert sum(r.matchpoints[s] for r in done) == F(n * (n - 1), 2)
            for r in done:  # the definition, pair by pair
                others = [o.payouts[s] for o in done if o is not r]
                assert r.matchpoints[s] == sum(
                    1 if o < r.payouts[s] else F(1, 2) if o == r.payouts[s] else 0 for o in others
                )
            assert all(0 <= r.percentages[s] <= 100 for r in traveller.tables)
            if n >= 2:
                assert traveller.datum[s] == F(sum(r.payouts[s] for r in done), n)
            else:
                assert traveller.datum[s] is None
        for r in traveller.tables:
            if not r.completed:
                assert all(d <= 0 for d in r.differences)


@PROPS
@given(sections())
def test_a_tables_rank_by_payout_is_its_rank_by_matchpoints_and_by_difference(section):
    seats = len(section.tables[0].players)
    for traveller in score_section(section).travellers:
        done = [r for r in traveller.tables if r.completed]
        for s in range(seats):
            for a in done:
                for b in done:
                    by_payout = _sign(a.payouts[s] - b.payouts[s])
                    assert _sign(a.matchpoints[s] - b.matchpoints[s]) == by_payout
                    assert _sign(a.differences[s] - b.differences[s]) == by_payout


@PROPS
@given(sections(), st.randoms(use_true_random=False))
def test_permuting_the_tables_permutes_the_results(section, rnd):
    order = list(section.tables)
    rnd.shuffle(order)
    shuffled = Section(tuple(order), section.n_deals)
    before, after = score_section(section), score_section(shuffled)
    assert after.fixtures == tuple(t.fixture_id for t in order)
    for t0, t1 in zip(before.travellers, after.travellers, strict=True):
        assert t0.datum == t1.datum
        assert {r.fixture_id: r for r in t0.tables} == {r.fixture_id: r for r in t1.tables}
        assert [r.fixture_id for r in t1.tables] == list(after.fixtures)
    assert score_event([section]).totals == score_event([shuffled]).totals


@PROPS
@given(sections(), st.data())
def test_the_same_constant_on_a_seat_at_every_table_changes_no_difference(section, data):
    seats = len(section.tables[0].players)
    s, other = data.draw(st.permutations(range(seats)))[:2]
    shifts = data.draw(st.lists(st.integers(-50, 50), min_size=section.n_deals))
    # Payouts stay zero-sum per table: seat `other` gives back what seat s receives.

    def shifted(deal, k):
        if deal is None:
            return None
        out = list(deal)
        out[s] += shifts[k]
        out[other] -= shifts[k]
        return tuple(out)

    moved = Section(
        tuple(
            DuplicateTable(
                t.fixture_id,
                t.players,
                tuple(shifted(d, k) for k, d in enumerate(t.deals)),
                t.stopped_by,
            )
            for t in section.tables
        ),
        section.n_deals,
    )
    before, after = score_section(section), score_section(moved)
    for k, (t0, t1) in enumerate(zip(before.travellers, after.travellers, strict=True)):
        for r0, r1 in zip(t0.tables, t1.tables, strict=True):
            assert r0.differences == r1.differences
            assert r0.matchpoints == r1.matchpoints
            assert r0.percentages == r1.percentages
        if t0.datum[s] is not None:
            assert t1.datum[s] == t0.datum[s] + shifts[k]
            assert t1.datum[other] == t0.datum[other] - shifts[k]


@PROPS
@given(st.lists(st.integers(-(10**6), 10**6), max_size=12), st.integers(-(10**6), 10**6))
def test_one_seat_alone_shifts_its_datum_and_nothing_else(payouts, c):
    a, b = score_seat(payouts), score_seat([p + c for p in payouts])
    assert (a.differences, a.matchpoints, a.percentages) == (
        b.differences,
        b.matchpoints,
        b.percentages,
    )
    assert b.datum == (None if a.datum is None else a.datum + c)


@PROPS
@given(sections())
def test_totals_are_the_sum_and_the_mean_of_the_players_deals(section):
    event = score_event([section])
    by_player = {}
    for t in section.tables:
        for s, p in enumerate(t.players):
            by_player[p] = (t.fixture_id, s)
    for p, total in event.totals.items():
        fixture, s = by_player[p]
        rows = [line(event.sections[0], k, fixture) for k in range(section.n_deals)]
        assert total.deals == section.n_deals
        assert total.total == sum(r.differences[s] for r in rows)
        assert total.percentage == sum(r.percentages[s] for r in rows) / section.n_deals
        assert 0 <= total.percentage <= 100
    # The completed tables cancel out; only the forfeiters' penalties remain.
    assert sum(t.total for t in event.totals.values()) <= 0


@PROPS
@given(sections())
def test_every_published_figure_is_the_exact_value_rounded_half_even_to_six_places(section):
    scores = score_section(section)
    payload = json.loads(json.dumps(deals_payload([section_payload(scores)])))
    (entry,) = payload["sections"]
    for traveller, deal in zip(scores.travellers, entry["deals"], strict=True):
        for exact, written in zip(traveller.datum, deal["datum"], strict=True):
            assert written is None if exact is None else _six(written) == _rounded(exact)
        for row, out in zip(traveller.tables, deal["tables"], strict=True):
            assert out["payouts"] == (None if row.payouts is None else list(row.payouts))
            for name in ("differences", "matchpoints", "percentages"):
                values = getattr(row, name)
                if values is None:
                    assert out[name] is None
                    continue
                assert [_six(x) for x in out[name]] == [_rounded(v) for v in values]


def _six(x: float) -> Decimal:
    """What a checker reads from the JSON text, to six places (the text has at most six)."""
    text = Decimal(repr(x))
    assert text == text.quantize(Decimal("1E-6"))
    return text.quantize(Decimal("1E-6"))


def _rounded(x: F) -> Decimal:
    """An independent half-even rounding, through Decimal's own at ample precision."""
    with localcontext() as ctx:
        ctx.prec = 60
        value = Decimal(x.numerator) / Decimal(x.denominator)
        return value.quantize(Decimal("1E-6"), ROUND_HALF_EVEN) + 0
