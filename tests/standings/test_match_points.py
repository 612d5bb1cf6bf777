"""The match-point rule: pairwise +1/-1 per opponent, byes, forfeits."""

from __future__ import annotations

import pytest

from league.standings import StandingsConfig, compute_standings, pairwise_points

from .builders import ALICE, BOB, CAROL, DAVE, ERIN, EVERYONE, FRANK, bye, match

NO_TIEBREAKS = StandingsConfig(())


def points_of(matches, byes=(), players=EVERYONE) -> dict[int, int]:
    rows = compute_standings(players, matches, byes, NO_TIEBREAKS)
    return {r.player_id: r.match_points for r in rows}


def saichugen_zero_sum(payouts: tuple[int, ...]) -> tuple[int, ...]:
    """Saichugen's zero-sum table (rules: 1 winner +2/-1, 2 winners +1/-2, all equal 0),
    with the match winners being the seats with the highest total payout."""
    best = max(payouts)
    winners = [x == best for x in payouts]
    n = sum(winners)
    if n == 3:
        return (0, 0, 0)
    win, lose = (2, -1) if n == 1 else (1, -2)
    return tuple(win if w else lose for w in winners)


@pytest.mark.parametrize(
    ("payouts", "expected"),
    [
        ((8, -4, -4), (2, -1, -1)),  # one winner
        ((-4, 8, -4), (-1, 2, -1)),
        ((3, 3, -6), (1, 1, -2)),  # two winners
        ((-6, 3, 3), (-2, 1, 1)),
        ((0, 0, 0), (0, 0, 0)),  # all equal
    ],
)
def test_three_players_score_exactly_saichugens_zero_sum_table(payouts, expected):
    m = match(dict(zip((ALICE, BOB, CAROL), payouts)))
    assert pairwise_points(m) == expected == saichugen_zero_sum(payouts)
    assert tuple(points_of([m])[p] for p in (ALICE, BOB, CAROL)) == expected


def test_three_distinct_totals_score_two_zero_minus_two():
    # The pairwise rule, not Saichugen's table: the middle seat beats one and loses to one.
    m = match({ALICE: 5, BOB: 1, CAROL: -6})
    assert pairwise_points(m) == (2, 0, -2)


def test_four_players_score_pairwise_and_sum_to_zero():
    m = match({ALICE: 6, BOB: 2, CAROL: 2, DAVE: -10})
    assert pairwise_points(m) == (3, 0, 0, -3)
    assert sum(pairwise_points(m)) == 0
    assert pairwise_points(match({ALICE: 1, BOB: 1, CAROL: 1, DAVE: -3})) == (1, 1, 1, -3)


def test_match_points_add_up_over_matches():
    first = match({ALICE: 4, BOB: -2, CAROL: -2}, round_no=1)
    second = match({ALICE: -3, BOB: 3, DAVE: 0}, round_no=2)
    assert points_of([first, second]) == {
        ALICE: 2 - 2,
        BOB: -1 + 2,
        CAROL: -1,
        DAVE: 0,
        ERIN: 0,
        FRANK: 0,
    }


def test_a_bye_gives_the_event_bye_points_and_nothing_else():
    m = match({ALICE: 4, BOB: -2, CAROL: -2})
    rows = {
        r.player_id: r
        for r in compute_standings(EVERYONE, [m], [bye(DAVE, points=2)], NO_TIEBREAKS)
    }
    dave = rows[DAVE]
    assert (dave.match_points, dave.byes, dave.bye_points) == (2, 1, 2)
    assert (dave.matches_played, dave.total_payouts, dave.wins, dave.deals_played) == (0, 0, 0, 0)


def test_a_forfeiter_scores_below_every_opponent_even_with_the_best_payouts():
    # Alice led on the deals played, then lost on the clock: she is last in match points,
    # but her payouts from those deals still count.
    m = match({ALICE: 9, BOB: -1, CAROL: -8}, forfeited=(ALICE,))
    assert pairwise_points(m) == (-2, 2, 0)
    rows = {r.player_id: r for r in compute_standings(EVERYONE, [m], [], NO_TIEBREAKS)}
    assert rows[ALICE].total_payouts == 9
    assert rows[ALICE].forfeits == 1
    assert rows[ALICE].matches_played == 1


def test_several_forfeiters_of_one_match_are_equal_to_each_other():
    m = match({ALICE: 5, BOB: -5, CAROL: 3, DAVE: -3}, forfeited=(ALICE, BOB))
    assert pairwise_points(m) == (-2, -2, 3, 1)
    assert sum(pairwise_points(m)) == 0


def test_everyone_forfeiting_scores_zero():
    m = match({ALICE: 2, BOB: -1, CAROL: -1}, forfeited=(ALICE, BOB, CAROL))
    assert pairwise_points(m) == (0, 0, 0)


def test_withdrawn_players_stay_in_the_table_with_their_results():
    early = match({ALICE: 4, BOB: -2, ERIN: -2}, round_no=1)
    rows = compute_standings(EVERYONE, [early], [], NO_TIEBREAKS)
    assert {r.player_id for r in rows} == set(EVERYONE)
    assert next(r for r in rows if r.player_id == ERIN).matches_played == 1
