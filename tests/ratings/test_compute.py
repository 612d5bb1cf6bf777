"""The pure rating arithmetic, without a database."""

from __future__ import annotations

from openskill.models import PlackettLuce

from league.ratings.compute import (
    MODEL_NAME,
    MatchInput,
    counts_for_ratings,
    deals_completed,
    finishing_ranks,
    initial_state,
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
