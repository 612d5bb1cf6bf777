"""The standings CSV's format, pinned: each column once, the lot never written, two decimals.

`standings_csv_rows` is the one writer of the served `standings.csv`; a spreadsheet or a script
reads it by column name, so a name written twice (a `total_payouts` tie-break after the
`total_payouts` column) makes one of them unreachable, and the lot's 64-bit numbers give the
event's secret schedule seed back (the mix inverts).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.standings import (
    TIEBREAKS,
    KnockoutProgress,
    StandingsConfig,
    compute_standings,
    csv_header,
    get_tiebreak,
    lot_number,
    standings_csv_rows,
)
from league.standings.export import BASE_COLUMNS

from .builders import ALICE, BOB, CAROL, DAVE, match
from .test_properties import events

EVERY = tuple(TIEBREAKS)


def test_the_header_is_the_fixed_columns_then_the_tiebreaks_a_reader_can_use():
    # The issue's event: payouts and the lot as tie-breaks, the opponents' average between.
    config = StandingsConfig(("total_payouts", "opponents_average_payout", "lot", "wins"))
    assert csv_header(config) == [*BASE_COLUMNS, "opponents_average_payout"]
    assert csv_header(config, with_names=False) == [
        c for c in (*BASE_COLUMNS, "opponents_average_payout") if c != "player"
    ]
    assert csv_header(StandingsConfig(("lot",))) == list(BASE_COLUMNS)
    everything = csv_header(StandingsConfig(EVERY))
    assert everything == [*BASE_COLUMNS, "opponents_average_payout", "head_to_head"]


def test_a_row_has_one_cell_per_column_with_averages_to_two_decimals():
    # Totals over the event: Alice 7, Bob -3, Carol -1, Dave -3.
    config = StandingsConfig(("total_payouts", "opponents_average_payout", "lot"), lot_seed=9)
    matches = [
        match({ALICE: 8, BOB: -4, CAROL: -4}, round_no=1),
        match({ALICE: -1, DAVE: 4, BOB: -3}, round_no=2),
        match({CAROL: 3, DAVE: -7, BOB: 4}, round_no=3),
    ]
    rows = compute_standings((ALICE, BOB, CAROL, DAVE), matches, [], config)
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
    csv = standings_csv_rows(rows, config, names)
    header, body = csv[0], csv[1:]
    assert header == [*BASE_COLUMNS, "opponents_average_payout"]
    assert all(len(line) == len(header) for line in body)
    by_name = {line[2]: dict(zip(header, line, strict=True)) for line in body}
    alice = by_name["Alice"]
    assert (alice["total_payouts"], alice["matches_played"]) == (7, 2)
    # Opponents' totals: Bob -3, Carol -1 (first match), Dave -3, Bob -3 (second): -10 / 4.
    assert alice["opponents_average_payout"] == Decimal("-2.50")
    assert str(alice["opponents_average_payout"]) == "-2.50"
    averages = [str(line[-1]) for line in body]
    assert all(len(a.split(".")[1]) == 2 for a in averages), averages
    # The lot decided nothing visible but the order: ranks 1..4, no tie, no lot number.
    assert [line[0] for line in body] == [1, 2, 3, 4]
    lots = {lot_number(9, p) for p in names}
    assert not lots & {cell for line in body for cell in line}


def test_a_knockout_has_the_round_reached_after_the_player_and_a_points_event_none():
    """Knockout standings rank by the round reached first, as the page's column shows: the
    file has it beside the player; a points event's columns do not change."""
    knockout = StandingsConfig(("total_payouts", "opponents_average_payout", "lot"), 5, "knockout")
    matches = [
        match({ALICE: 3, BOB: -1, CAROL: -2}, round_no=1),
        match({ALICE: -2, DAVE: 4, BOB: -2}, round_no=2),
    ]
    progress = KnockoutProgress(reached={ALICE: 2, BOB: 2, DAVE: 2, CAROL: 1}, final_round=2)
    rows = compute_standings((ALICE, BOB, CAROL, DAVE), matches, [], knockout, progress)
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
    header, *body = standings_csv_rows(rows, knockout, names)
    assert header == [
        "rank", "player_id", "player", "round_reached", "matches_played", "match_points",
        "total_payouts", "wins", "byes", "absences", "opponents_average_payout",
    ]  # fmt: skip
    reached = {line[2]: line[3] for line in body}
    assert reached == {"Dave": 2, "Alice": 2, "Bob": 2, "Carol": 1}
    assert body[0][2] == "Dave"  # the final's winner first
    assert all(len(line) == len(header) for line in body)
    assert csv_header(knockout, with_names=False)[:3] == ["rank", "player_id", "round_reached"]
    points = StandingsConfig(knockout.tiebreaks, 5)
    assert "round_reached" not in csv_header(points)
    assert standings_csv_rows(rows, points, names)[0] == [*BASE_COLUMNS, "opponents_average_payout"]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (-1.625, "-1.63"),  # the number: half up, as the page's floatformat did
        (1.625, "1.63"),
        (0.285, "0.29"),  # the number a reader sees, not its binary neighbour 0.28499…
        (3.0, "3.00"),
        (3, "3.00"),  # a snapshot read back from JSON may hold an int
        (-0.001, "0.00"),  # never "-0.00"
        (0.0, "0.00"),
        (-13 / 3, "-4.33"),
    ],
)
def test_averages_are_written_with_two_decimals_rounded_half_up(value, written):
    average = get_tiebreak("opponents_average_payout")
    assert isinstance(average.cell(value), Decimal)  # a number: the safe writer leaves it alone
    assert str(average.cell(value)) == written
    assert average.format(value) == written


def test_whole_number_tiebreaks_stay_whole_numbers():
    assert get_tiebreak("head_to_head").cell(2) == 2
    assert get_tiebreak("head_to_head").format(-1) == "-1"


configs = st.builds(
    StandingsConfig,
    tiebreaks=st.permutations(EVERY).flatmap(
        lambda names: st.integers(0, len(names)).map(lambda k: tuple(names[:k]))
    ),
    lot_seed=st.integers(0, 2**64 - 1),
)


@settings(max_examples=150, deadline=None)
@given(events(), configs)
def test_every_column_name_is_unique_and_no_lot_number_is_written(event, config):
    players, matches, byes = event
    rows = compute_standings(players, matches, byes, config)
    names = {p: f"player {p}" for p in players}
    for csv in (standings_csv_rows(rows, config, names), standings_csv_rows(rows, config)):
        header = csv[0]
        assert len(header) == len(set(header)), header
        assert "lot" not in header
        assert all(len(line) == len(header) for line in csv[1:])
        cells = {str(cell) for line in csv[1:] for cell in line}
        # Every player's lot, under this seed: none is in the file, in any column.
        assert not {str(lot_number(config.lot_seed, p)) for p in players} & cells
        # Whatever the configuration, the ranks are the table's own (the lot's work shows there).
        assert [line[0] for line in csv[1:]] == [r.rank for r in rows]
