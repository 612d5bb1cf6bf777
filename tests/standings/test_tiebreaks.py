"""Each tie-break of the registry, head-to-head within the tied group, the lot, bad names."""

from __future__ import annotations

import pytest

from league.errors import LeagueError
from league.standings import (
    TIEBREAKS,
    StandingsConfig,
    StandingsError,
    UnknownTiebreak,
    compute_standings,
    lot_number,
    tiebreak_choices,
)

from .builders import ALICE, BOB, CAROL, DAVE, ERIN, EVERYONE, FRANK, bye, match

# lot_number(7, p) for p = 1, 2, 3 (splitmix64; changing them reshuffles past events).
PINNED_LOTS = [4414019431610648415, 5090977316425868581, 7758145696617331093]


def table(matches, tiebreaks=(), byes=(), players=EVERYONE, seed=0):
    return compute_standings(players, matches, byes, StandingsConfig(tuple(tiebreaks), seed))


def order(rows) -> list[int]:
    return [r.player_id for r in rows]


def ranks(rows) -> dict[int, int]:
    return {r.player_id: r.rank for r in rows}


def values(rows) -> dict[int, tuple]:
    return {r.player_id: r.tiebreak_values for r in rows}


# Alice and Bob both finish on 2 match points; Alice beat Bob when they met, Bob won bigger.
ALICE_BEATS_BOB = [
    match({ALICE: 2, BOB: 0, CAROL: -2}, round_no=1),
    match({BOB: 5, DAVE: -1, ERIN: -4}, round_no=2),
]


def test_players_tied_after_every_tiebreak_share_a_rank_one_one_three():
    rows = table([match({ALICE: 3, BOB: 3, CAROL: -6})], players=(ALICE, BOB, CAROL))
    assert [(r.player_id, r.rank, r.tied) for r in rows] == [
        (ALICE, 1, True),
        (BOB, 1, True),
        (CAROL, 3, False),
    ]


def test_total_payouts_breaks_a_match_point_tie():
    rows = table(ALICE_BEATS_BOB, ["total_payouts"])
    assert order(rows)[:2] == [BOB, ALICE]
    assert values(rows)[BOB] == (5,)
    assert values(rows)[ALICE] == (2,)


def test_match_points_as_a_tiebreak_shows_the_match_points():
    rows = table(ALICE_BEATS_BOB, ["match_points"])
    assert all(r.tiebreak_values == (r.match_points,) for r in rows)


def test_wins_counts_matches_won_not_byes():
    matches = [
        match({ALICE: 1, BOB: 1, CAROL: -2}, winners=(ALICE,)),
        match({DAVE: 2, ERIN: -1, FRANK: -1}, round_no=2),
    ]
    rows = table(matches, ["wins"], byes=[bye(BOB, round_no=2, points=0)])
    assert values(rows)[ALICE] == (1,)
    assert values(rows)[BOB] == (0,)
    assert order(rows)[:2] == [DAVE, ALICE]  # Dave 2 match points; Alice won, Bob did not


def test_opponents_average_payout_counts_each_opponent_once_per_match_met():
    matches = [
        match({ALICE: 4, BOB: -2, CAROL: -2}, round_no=1),
        match({ALICE: -1, BOB: 2, DAVE: -1}, round_no=2),
    ]
    # Totals: Alice 3, Bob 0, Carol -2, Dave -1. Alice met Bob twice, Carol and Dave once.
    rows = table(matches, ["opponents_average_payout"], byes=[bye(ERIN)])
    got = values(rows)
    assert got[ALICE][0] == pytest.approx(((0 + -2) + (0 + -1)) / 4)
    assert got[BOB][0] == pytest.approx(((3 + -2) + (3 + -1)) / 4)
    assert got[CAROL][0] == pytest.approx((3 + 0) / 2)
    assert got[ERIN] == (0,)  # a bye is not an opponent
    assert got[FRANK] == (0,)


def test_head_to_head_ranks_the_winner_of_the_meeting_first():
    rows = table(ALICE_BEATS_BOB, ["head_to_head", "total_payouts"])
    assert order(rows)[:2] == [ALICE, BOB]
    assert values(rows)[ALICE][0] == 1
    assert values(rows)[BOB][0] == -1


# Alice, Bob and Carol all reach 2 match points in a rock-paper-scissors cycle of meetings
# (Alice > Bob, Bob > Carol, Carol > Alice); Carol has the most payouts, Alice and Bob are level.
CYCLE = [
    match({ALICE: 3, BOB: 0, DAVE: -3}, round_no=1),
    match({CAROL: 5, ALICE: 0, ERIN: -5}, round_no=2),
    match({BOB: 3, CAROL: 0, FRANK: -3}, round_no=3),
]


def test_head_to_head_only_counts_meetings_inside_the_group_still_tied():
    # total_payouts lifts Carol out first; head-to-head then looks at Alice and Bob alone,
    # where Alice's win over Bob decides (among all three, it would be 0 each: still tied).
    rows = table(CYCLE, ["total_payouts", "head_to_head"])
    assert [(r.player_id, r.rank) for r in rows[:3]] == [(CAROL, 1), (ALICE, 2), (BOB, 3)]
    assert values(rows)[ALICE] == (3, 1)
    assert values(rows)[BOB] == (3, -1)
    assert values(rows)[CAROL] == (5, 0)  # alone in its group: nothing to compare


def test_head_to_head_first_sees_the_whole_cycle_and_breaks_nothing():
    rows = table(CYCLE, ["head_to_head", "total_payouts"])
    assert [(r.player_id, r.rank) for r in rows[:3]] == [(CAROL, 1), (ALICE, 2), (BOB, 2)]
    assert {values(rows)[p][0] for p in (ALICE, BOB, CAROL)} == {0}


def test_head_to_head_with_players_who_never_met_is_zero():
    rows = table(
        [match({ALICE: 2, DAVE: -1, ERIN: -1}), match({BOB: 2, CAROL: -1, FRANK: -1})],
        ["head_to_head"],
    )
    assert ranks(rows)[ALICE] == ranks(rows)[BOB] == 1
    assert values(rows)[ALICE] == values(rows)[BOB] == (0,)


def test_lot_always_separates_and_is_stable_across_recomputations():
    nobody_played = table([], ["lot"], seed=42)
    assert [r.rank for r in nobody_played] == list(range(1, len(EVERYONE) + 1))
    assert not any(r.tied for r in nobody_played)
    assert table([], ["lot"], seed=42) == nobody_played
    assert values(nobody_played)[ALICE] == (lot_number(42, ALICE),)


def test_lot_order_depends_on_the_seed():
    orders = {tuple(order(table([], ["lot"], seed=seed))) for seed in range(20)}
    assert len(orders) > 10


def test_lot_numbers_are_pinned_so_upgrades_cannot_reshuffle_past_events():
    assert [lot_number(7, p) for p in (1, 2, 3)] == PINNED_LOTS


def test_lot_numbers_never_collide_for_distinct_players():
    for seed in (0, 1, 2**63, -5):
        assert len({lot_number(seed, p) for p in range(-5000, 5000)}) == 10000


def test_an_unknown_tiebreak_is_the_organizers_error_with_the_choices():
    with pytest.raises(UnknownTiebreak) as caught:
        StandingsConfig(("total_payouts", "buchholz"))
    message = str(caught.value)
    assert "buchholz" in message
    assert "opponents_average_payout" in message
    assert isinstance(caught.value, LeagueError)


def test_a_repeated_tiebreak_is_refused():
    with pytest.raises(StandingsError, match="listed twice"):
        StandingsConfig(("wins", "wins"))


def test_the_registry_offers_every_tiebreak_with_a_label():
    choices = dict(tiebreak_choices())
    assert set(choices) >= {
        "total_payouts",
        "match_points",
        "wins",
        "opponents_average_payout",
        "head_to_head",
        "lot",
    }
    assert all(label for label in choices.values())
    assert all(TIEBREAKS.get(name).description for name in choices)
