"""The table as a whole: columns, CSV rows, records the loader must never send, purity."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from league.errors import LeagueFault
from league.standings import (
    StandingsConfig,
    StandingsFault,
    compute_standings,
    standings_csv_rows,
)

from .builders import ALICE, BOB, CAROL, DAVE, ERIN, EVERYONE, FRANK, bye, match

CONFIG = StandingsConfig(("total_payouts", "opponents_average_payout"))


def test_every_column_of_a_row():
    matches = [
        match({ALICE: 4, BOB: -2, CAROL: -2}, round_no=1, deals=5),
        match({ALICE: 1, DAVE: 1, ERIN: -2}, round_no=2, deals=3, winners=(ALICE, DAVE)),
    ]
    rows = compute_standings(EVERYONE, matches, [bye(BOB, round_no=2, points=2)], CONFIG)
    alice = rows[0]
    assert alice.player_id == ALICE
    assert alice.rank == 1
    assert (alice.matches_played, alice.match_points, alice.total_payouts) == (2, 3, 5)
    assert (alice.wins, alice.byes, alice.deals_played, alice.forfeits) == (2, 0, 8, 0)
    assert alice.tiebreak_values == (5, pytest.approx((-2 - 2 + 1 - 2) / 4))


def test_an_absence_is_a_forfeit_with_its_mark():
    """The absent player who led after the deals played still ranks below the others at the
    table, and carries the mark; a forfeit by the clock carries none."""
    matches = [
        match({ALICE: 3, BOB: -1, CAROL: -2}, absent=(ALICE,), winners=(BOB, CAROL), deals=1),
        match({ALICE: 0, DAVE: 0, ERIN: 0}, forfeited=(DAVE,), winners=(ALICE, ERIN), round_no=2),
    ]
    rows = {r.player_id: r for r in compute_standings(EVERYONE, matches, [], CONFIG)}
    assert (rows[ALICE].forfeits, rows[ALICE].absences, rows[ALICE].wins) == (1, 1, 1)
    assert (rows[ALICE].match_points, rows[BOB].match_points, rows[CAROL].match_points) == (
        -2 + 1,
        2,
        0,
    )
    assert (rows[DAVE].forfeits, rows[DAVE].absences) == (1, 0)
    assert rows[ALICE].total_payouts == 3  # the deal played counts


def test_an_absent_player_who_did_not_forfeit_is_a_broken_record():
    record = match({ALICE: 0, BOB: 0, CAROL: 0})
    broken = type(record)(**{**{f: getattr(record, f) for f in record.__slots__}, "absent": {BOB}})
    with pytest.raises(StandingsFault, match="absent"):
        compute_standings(EVERYONE, [broken], [], CONFIG)


def test_csv_rows_are_a_header_and_one_line_per_player():
    rows = compute_standings(
        (ALICE, BOB, CAROL), [match({ALICE: 3, BOB: 3, CAROL: -6})], [], CONFIG
    )
    csv = standings_csv_rows(rows, CONFIG, names={ALICE: "Alice", BOB: "Bob", CAROL: "Carol"})
    # The served standings.csv: machine column names, numbers kept as numbers (the safe writer
    # leaves them alone), a shared rank as the number the tied rows share.
    assert csv[0] == [
        "rank",
        "player_id",
        "player",
        "matches_played",
        "match_points",
        "total_payouts",
        "wins",
        "byes",
        "absences",
        "opponents_average_payout",  # the total_payouts tie-break is the column above already
    ]
    assert csv[1] == [1, ALICE, "Alice", 1, 1, 3, 1, 0, 0, Decimal("-1.50")]
    assert csv[2][:2] == [1, BOB]  # tied with Alice
    assert csv[3] == [3, CAROL, "Carol", 1, -2, -6, 0, 0, 0, Decimal("3.00")]
    assert str(csv[3][-1]) == "3.00"  # two decimals, as the page shows it
    assert len(standings_csv_rows(rows, CONFIG)[0]) == len(csv[0]) - 1  # no names, no column


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        (match({ALICE: 1, BOB: 1, CAROL: -1}), "sum to zero"),
        (match({ALICE: 1, BOB: -1}), "3 or 4"),
        (match({ALICE: 1, BOB: -1, 99: 0}), "not an entrant"),
        (match({ALICE: 1, BOB: -1, CAROL: 0}, forfeited=(DAVE,)), "not all seated"),
        (match({ALICE: 1, BOB: -1, CAROL: 0}, winners=(FRANK,)), "not all seated"),
    ],
)
def test_records_that_break_the_contract_are_a_fault_not_a_table(bad, says):
    with pytest.raises(StandingsFault, match=says) as caught:
        compute_standings(EVERYONE, [bad], [], CONFIG)
    assert isinstance(caught.value, LeagueFault)


def test_a_fixture_counted_twice_is_a_fault():
    m = match({ALICE: 1, BOB: -1, CAROL: 0})
    with pytest.raises(StandingsFault, match="twice"):
        compute_standings(EVERYONE, [m, m], [], CONFIG)


def test_a_bye_for_a_stranger_or_twice_in_a_round_is_a_fault():
    with pytest.raises(StandingsFault, match="not an entrant"):
        compute_standings(EVERYONE, [], [bye(99)], CONFIG)
    with pytest.raises(StandingsFault, match="two byes"):
        compute_standings(EVERYONE, [], [bye(ALICE), bye(ALICE)], CONFIG)


def test_an_entrant_listed_twice_is_a_fault():
    with pytest.raises(StandingsFault, match="listed twice"):
        compute_standings((ALICE, BOB, ALICE), [], [], CONFIG)


def test_an_event_without_results_ranks_everyone_first_together():
    rows = compute_standings(EVERYONE, [], [], CONFIG)
    assert {r.rank for r in rows} == {1}
    assert [r.player_id for r in rows] == sorted(EVERYONE)
    assert compute_standings([], [], [], CONFIG) == []


def test_standings_import_neither_django_nor_the_orm():
    code = (
        "import sys, league.standings; "
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "assert not bad, bad"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)


def test_the_benchmark_still_runs_on_a_small_event():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [
            sys.executable,
            "bench/standings.py",
            "--players",
            "40",
            "--fixtures",
            "60",
            "--runs",
            "1",
        ],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "compute_standings [all (head_to_head first)]" in out
