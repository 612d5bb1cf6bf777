"""Knockout standings: by the round reached, the final by its result, then total payout,
match points and the event's draw (league/standings/knockout.py)."""

from __future__ import annotations

import pytest

from league.draws import lot_number
from league.standings import KnockoutProgress, StandingsConfig, StandingsError, compute_standings

from .builders import ALICE, BOB, CAROL, DAVE, ERIN, EVERYONE, FRANK, bye, match

KNOCKOUT = StandingsConfig(tiebreaks=("total_payouts",), lot_seed=3, mode="knockout")


def ranked(rows) -> list[int]:
    return [r.player_id for r in rows]


def test_the_player_who_went_further_ranks_higher_whatever_the_points():
    # Round 1: two tables and nobody sat out; round 2 (the final) is being played. Dave won
    # big in round 1 but went out; a player with byes and no game is not second by points.
    matches = [
        match({ALICE: 1, BOB: 0, DAVE: -1}, round_no=1),
        match({CAROL: 30, ERIN: -10, FRANK: -20}, round_no=1),
    ]
    progress = KnockoutProgress(reached={ALICE: 2, CAROL: 2, BOB: 2, DAVE: 1, ERIN: 1, FRANK: 1})
    rows = compute_standings(EVERYONE, matches, [], KNOCKOUT, progress)
    assert ranked(rows)[:3] == [CAROL, ALICE, BOB]  # level on rounds: total payout
    assert ranked(rows)[3:] == [DAVE, ERIN, FRANK]
    assert [r.round_reached for r in rows] == [2, 2, 2, 1, 1, 1]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6] and not any(r.tied for r in rows)


def test_the_final_ranks_by_its_own_result_once_it_is_in():
    matches = [
        match({ALICE: 50, BOB: 0, DAVE: -50}, round_no=1),
        match({CAROL: 1, ERIN: 0, FRANK: -1}, round_no=1),
        match({ALICE: -5, CAROL: 10, BOB: -5}, round_no=2),
    ]
    progress = KnockoutProgress(
        reached={ALICE: 2, BOB: 2, CAROL: 2, DAVE: 1, ERIN: 1, FRANK: 1}, final_round=2
    )
    rows = compute_standings(EVERYONE, matches, [], KNOCKOUT, progress)
    # Carol won the final although Alice has the higher total; Alice and Bob lost it level
    # on its payouts: the total payout orders them.
    assert ranked(rows)[:3] == [CAROL, ALICE, BOB]


def test_a_bye_counts_as_the_round_reached_not_as_a_place():
    matches = [match({ALICE: 2, BOB: -1, CAROL: -1}, round_no=1)]
    progress = KnockoutProgress(reached={ALICE: 1, BOB: 1, CAROL: 1, DAVE: 1})
    rows = compute_standings(
        (ALICE, BOB, CAROL, DAVE), matches, [bye(DAVE, points=1)], KNOCKOUT, progress
    )
    assert ranked(rows)[0] == ALICE and rows[0].match_points == 2


def test_the_draw_breaks_the_last_tie():
    progress = KnockoutProgress(reached=dict.fromkeys(EVERYONE, 1))
    rows = compute_standings(EVERYONE, [], [], KNOCKOUT, progress)
    assert ranked(rows) == sorted(EVERYONE, key=lambda p: -lot_number(3, p))


def test_an_unknown_mode_is_refused():
    with pytest.raises(StandingsError, match="standings mode"):
        StandingsConfig(mode="ladder")


def test_head_to_head_has_no_value_in_a_knockout_where_it_would_repeat_match_points():
    """Over the whole field (a knockout ranks no tied group) head-to-head would only be each
    player's match points again: its column is empty; a tie-break over everyone keeps its
    values."""
    config = StandingsConfig(
        tiebreaks=("head_to_head", "total_payouts"), lot_seed=3, mode="knockout"
    )
    matches = [
        match({ALICE: 1, BOB: 0, DAVE: -1}, round_no=1),
        match({CAROL: 30, ERIN: -10, FRANK: -20}, round_no=1),
    ]
    progress = KnockoutProgress(reached={ALICE: 2, CAROL: 2, BOB: 2, DAVE: 1, ERIN: 1, FRANK: 1})
    rows = compute_standings(EVERYONE, matches, [], config, progress)
    assert all(r.tiebreak_values[0] is None for r in rows)
    assert [r.tiebreak_values[1] for r in rows] == [r.total_payouts for r in rows]
