"""Duplicate scoring as a mode of the pure standings (`StandingsConfig.scoring`): ranked by the
exact duplicate total or matchpoint percentage, the event's tie-breaks after, both figures on
every row; the CSV writes them to 6 places, half to even."""

from __future__ import annotations

from fractions import Fraction

import pytest

from league.standings import (
    DuplicateTable,
    Section,
    StandingsConfig,
    StandingsError,
    compute_standings,
    score_event,
    standings_csv_rows,
)
from tests.standings.builders import ALICE, BOB, CAROL, DAVE, ERIN, FRANK, match

# Two tables of three seats, one deal each: the same cards, Alice and Carol in seat 0.
SECTION = Section(
    (
        DuplicateTable(1, (ALICE, BOB, ERIN), ((3, -3, 0),)),
        DuplicateTable(2, (CAROL, DAVE, FRANK), ((1, -1, 0),)),
    ),
    1,
)
MATCHES = [
    match({ALICE: 3, BOB: -3, ERIN: 0}, fixture_id=1, deals=1),
    match({CAROL: 1, DAVE: -1, FRANK: 0}, fixture_id=2, deals=1),
]
PLAYERS = [ALICE, BOB, CAROL, DAVE, ERIN, FRANK]


def standings(rank: str = "total", tiebreaks: tuple[str, ...] = ()):
    config = StandingsConfig(tiebreaks, 7, scoring="duplicate", duplicate_rank=rank)
    totals = score_event([SECTION], PLAYERS).totals
    return config, compute_standings(PLAYERS, MATCHES, [], config, duplicate=totals)


def test_ranked_by_the_exact_duplicate_total_with_both_figures_on_each_row():
    _config, rows = standings()
    assert [r.player_id for r in rows] == [ALICE, DAVE, ERIN, FRANK, BOB, CAROL]
    # seat 0: 3 and 1 → datum 2; seat 1: -3 and -1 → datum -2; seat 2: no difference
    assert [r.duplicate_total for r in rows] == [1, 1, 0, 0, -1, -1]
    assert [r.matchpoint_pct for r in rows] == [100, 100, 50, 50, 0, 0]
    assert [r.rank for r in rows] == [1, 1, 3, 3, 5, 5]  # no tie-break: shared


def test_the_event_tiebreaks_follow_and_match_points_do_not_rank():
    _config, rows = standings(tiebreaks=("total_payouts",))
    # Alice and Dave are level on the total; Alice took more at her table (so did Carol)
    assert [r.player_id for r in rows] == [ALICE, DAVE, ERIN, FRANK, CAROL, BOB]
    assert [r.rank for r in rows] == [1, 2, 3, 3, 5, 6]


def test_by_percentage_a_player_without_a_deal_ranks_last():
    config = StandingsConfig((), 7, scoring="duplicate", duplicate_rank="percentage")
    totals = score_event([SECTION], PLAYERS).totals
    rows = compute_standings([*PLAYERS, 9], MATCHES, [], config, duplicate=totals)
    assert rows[-1].player_id == 9 and rows[-1].matchpoint_pct is None
    assert rows[-1].duplicate_total == 0 and rows[-1].rank == 7


def test_the_csv_writes_both_figures_half_to_even():
    config = StandingsConfig((), scoring="duplicate", duplicate_rank="percentage")
    section = Section(
        tuple(
            DuplicateTable(n, (10 + n, 20 + n, 30 + n), ((p, -p, 0),))
            for n, p in enumerate((0, 1, 1), start=1)
        ),
        1,
    )
    players = [11, 12, 13, 21, 22, 23, 31, 32, 33]
    totals = score_event([section], players).totals
    assert totals[11].total == Fraction(-2, 3)
    rows = compute_standings(players, [], [], config, duplicate=totals)
    out = standings_csv_rows(rows, config)
    assert out[0][:4] == ["rank", "player_id", "matchpoint_pct", "duplicate_total"]
    cells = {line[1]: line[2:4] for line in out[1:]}
    assert [str(c) for c in cells[11]] == ["0.000000", "-0.666667"]
    assert [str(c) for c in cells[12]] == ["75.000000", "0.333333"]


def test_an_unknown_scoring_or_rank_is_refused():
    with pytest.raises(StandingsError):
        StandingsConfig(scoring="butler")
    with pytest.raises(StandingsError):
        StandingsConfig(scoring="duplicate", duplicate_rank="median")
