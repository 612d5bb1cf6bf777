import pytest

from league.scheduling import build_league_schedule, no_repeat_bound, schedule_quality

from .helpers import assert_everyone_once_per_round, max_meetings

NO_REPEAT = [(9, 3, 4), (12, 3, 4), (15, 3, 7), (16, 4, 5), (21, 3, 10), (24, 4, 7),
             (28, 4, 9), (32, 4, 9), (36, 4, 11), (40, 4, 13)]  # fmt: skip


@pytest.mark.parametrize(("n", "k", "rounds"), NO_REPEAT)
def test_reference_points_have_no_pair_meeting_twice(n, k, rounds):
    players = list(range(100, 100 + n))
    schedule = build_league_schedule(players, k, rounds, seed=0)
    assert len(schedule) == rounds
    assert_everyone_once_per_round(schedule, players)
    assert all(len(t) == k for plan in schedule for t in plan.tables)
    assert max_meetings(schedule) == 1


@pytest.mark.parametrize(("n", "k", "rounds"), [(9, 3, 4), (12, 3, 4), (15, 3, 7), (16, 4, 5)])
def test_reference_points_give_everyone_every_seat_evenly(n, k, rounds):
    schedule = build_league_schedule(list(range(n)), k, rounds, seed=0)
    assert schedule_quality(schedule, list(range(n)), k).seat_imbalance <= 1


def test_the_same_seed_gives_the_same_schedule_and_another_seed_another():
    a = build_league_schedule(list(range(15)), 3, 7, seed=4)
    assert a == build_league_schedule(list(range(15)), 3, 7, seed=4)
    assert a != build_league_schedule(list(range(15)), 3, 7, seed=5)


def test_a_shorter_event_plays_the_first_rounds_of_a_longer_one():
    assert (
        build_league_schedule(list(range(13)), 3, 3)
        == build_league_schedule(list(range(13)), 3, 6)[:3]
    )


def test_beyond_a_design_every_pair_meets_as_evenly_as_possible():
    schedule = build_league_schedule(list(range(9)), 3, 8, seed=1)
    meetings = schedule_quality(schedule, list(range(9)), 3)
    assert meetings.max_pair_meetings == 2
    assert meetings.repeated_pairs == 36  # two full Kirkman cycles: every pair exactly twice


def test_one_bot_seat_uses_the_design_of_the_next_order():
    schedule = build_league_schedule(list(range(14)), 3, 7, leftover="bot")
    assert max_meetings(schedule) == 1
    bot_tables = [t for plan in schedule for t in plan.tables if None in t]
    assert len(bot_tables) == 7
    assert all(t.count(None) == 1 for t in bot_tables)


def test_byes_rotate_so_nobody_sits_out_twice_before_everyone_once():
    players = list(range(14))  # 4 tables of three, two byes a round
    schedule = build_league_schedule(players, 3, 7, leftover="bye")
    sat_out = [p for plan in schedule for p in plan.byes]
    assert len(sat_out) == 14
    assert sorted(sat_out) == players
    assert_everyone_once_per_round(schedule, players)


def test_the_no_repeat_bound_matches_the_literature_where_it_is_tight():
    assert no_repeat_bound(15, 3) == 7
    assert no_repeat_bound(16, 4) == 5
    assert no_repeat_bound(12, 4) == 1  # three tables cannot separate four tablemates
    assert no_repeat_bound(32, 4) == 10
