"""The pure rating arithmetic, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from league.ratings.compute import (
    MODEL_NAME,
    MatchInput,
    RatingState,
    counts_for_ratings,
    deals_completed,
    finishing_ranks,
    initial_state,
    rate_match,
    repeat_weights,
    replay,
)


def test_the_finishing_order_is_by_total_payout_and_ties_share_a_place():
    assert finishing_ranks([4, -2, -2]) == [1, 2, 2]
    assert finishing_ranks([-2, 4, -2, 0]) == [3, 1, 3, 2]
    assert finishing_ranks([0, 0, 0]) == [1, 1, 1]


def test_a_forfeiter_finishes_below_everyone_who_did_not_forfeit():
    assert finishing_ranks([9, -1, -8], forfeited_seats=[0]) == [3, 1, 2]
    assert finishing_ranks([9, -1, -8], forfeited_seats=[0, 2]) == [2, 1, 3]


def test_a_match_counts_once_a_deal_is_completed():
    def scored(deals: int, complete: bool) -> dict:
        return {"deals": [{}] * deals, "complete": complete}

    assert deals_completed(scored(1, True)) == 1
    assert not counts_for_ratings(scored(1, False), [1, 2, 3])  # cut short in the first deal
    assert counts_for_ratings(scored(2, False), [1, 2, 3])  # one deal done, then a forfeit
    assert counts_for_ratings(scored(1, True), [1, 2, 3])
    assert not counts_for_ratings(scored(1, True), [1, 1, 3])  # the same player twice


def test_a_replay_gives_openskills_own_numbers():
    matches = [
        MatchInput(players=(1, 2, 3), payouts=(4, -2, -2)),
        MatchInput(players=(3, 1, 4), payouts=(-1, 2, -1)),
        MatchInput(players=(2, 4, 1), payouts=(0, 6, -6), forfeited_seats=frozenset({1})),
    ]
    states, changes = replay(matches)

    model = PlackettLuce()
    r = {p: model.rating() for p in (1, 2, 3, 4)}
    [[r[1]], [r[2]], [r[3]]] = model.rate([[r[1]], [r[2]], [r[3]]], ranks=[1, 2, 2])
    [[r[3]], [r[1]], [r[4]]] = model.rate([[r[3]], [r[1]], [r[4]]], ranks=[2, 1, 2])
    [[r[2]], [r[4]], [r[1]]] = model.rate([[r[2]], [r[4]], [r[1]]], ranks=[1, 3, 2])

    for player in (1, 2, 3, 4):
        assert (states[player].mu, states[player].sigma) == (r[player].mu, r[player].sigma)
        assert states[player].ordinal == r[player].ordinal()
    assert states[1].games == 3 and states[4].games == 2
    assert len(changes) == 9
    assert MODEL_NAME == "PlackettLuce"


def test_a_newcomer_starts_at_openskills_default_with_a_displayed_rating_of_zero():
    state = initial_state()
    assert (state.mu, state.sigma) == (25.0, 25 / 3)
    assert state.ordinal == 0.0


def test_a_chart_spans_the_ratings_and_thins_long_histories():
    from league.ratings.chart import MAX_POINTS, line_chart

    chart = line_chart([0.0, 3.0, -1.5])
    assert chart.matches == 2
    assert (chart.low, chart.high) == (-1.5, 3.0)
    assert chart.points.split()[1].endswith(",8.0")  # the highest rating touches the top
    assert chart.zero_y is not None
    long = line_chart([float(i) for i in range(5000)])
    assert len(long.points.split()) == MAX_POINTS
    assert long.matches == 4999
    assert line_chart([]) is None


# --- repeated meetings of the same accounts (league.ratings.compute.repeat_weights) --------------

DAY = timedelta(days=1)
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
PEOPLE = [frozenset(), frozenset({1}), frozenset({1, 2}), frozenset({2, 3}), frozenset({1, 2, 3})]
meetings_strategy = st.lists(
    st.tuples(st.integers(0, 60 * 24 * 30), st.sampled_from(PEOPLE)), max_size=40
).map(lambda rows: [(START + timedelta(minutes=m), people) for m, people in sorted(rows)])


def test_a_weighted_match_moves_each_player_that_share_of_openskills_way():
    states = [initial_state(), RatingState(mu=30.0, sigma=5.0, games=4), initial_state()]
    full = rate_match(states, [1, 2, 3])
    half = rate_match(states, [1, 2, 3], weight=0.5)
    none = rate_match(states, [1, 2, 3], weight=0.0)
    for before, f, h, n in zip(states, full, half, none):
        assert h.mu == pytest.approx((before.mu + f.mu) / 2)
        assert h.sigma == pytest.approx((before.sigma + f.sigma) / 2)
        assert (n.mu, n.sigma) == (before.mu, before.sigma)
        assert f.games == h.games == n.games == before.games + 1


def test_the_weights_halve_for_the_same_people_within_the_window():
    same = frozenset({1, 2})
    hours = [START + timedelta(hours=h) for h in range(4)]
    assert repeat_weights([(at, same) for at in hours], DAY) == [1, 0.5, 0.25, 0.125]
    assert repeat_weights([(at, same) for at in hours], timedelta(0)) == [1, 1, 1, 1]
    week_apart = [(START + 7 * n * DAY, same) for n in range(3)]
    assert repeat_weights(week_apart, 7 * DAY) == [1, 1, 1]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a shared machine
@given(meetings_strategy, st.integers(0, 10))
def test_the_same_people_never_move_each_other_by_two_tables_worth_within_a_window(meetings, days):
    window = days * DAY
    weights = repeat_weights(meetings, window)
    assert all(0 < w <= 1 for w in weights)
    for (at, people), weight in zip(meetings, weights):
        if len(people) < 2:
            assert weight == 1  # alone against bots, or an event match: never a repeat
            continue
        recent = [
            w for (t, p), w in zip(meetings, weights) if p == people and t <= at and at - t < window
        ]
        assert sum(recent) < 2


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meetings_strategy, meetings_strategy)
def test_a_meetings_weight_depends_only_on_the_same_peoples_earlier_meetings(ours, others):
    """Tables of other company, in between or not, change no weight of ours."""
    us = frozenset({7, 8})
    mine = [(at, us) for at, _ in ours]
    alone = repeat_weights(mine, 7 * DAY)
    mixed = sorted(mine + others, key=lambda m: m[0])
    # sorted() is stable and ours come first at equal times: they keep their relative order.
    weights = repeat_weights(mixed, 7 * DAY)
    assert [w for m, w in zip(mixed, weights) if m[1] == us] == alone
