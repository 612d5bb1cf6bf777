"""The bots that fill seats take no place: people are placed among themselves (a tie stays a
tie), the bots follow without a place — a property over any table (the event's standings:
tests/league/test_bots_unranked.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from league.standings import StandingsRow, rank_people


def table(ranks: list[int]) -> list[StandingsRow]:
    """A ranked table whose rows share the ranks given (non-decreasing, as ranking makes)."""
    return [
        StandingsRow(rank=r, player_id=i, matches_played=1, match_points=0, total_payouts=0,
                     wins=0, byes=0, tied=ranks.count(r) > 1)
        for i, r in enumerate(ranks)
    ]  # fmt: skip


@st.composite
def ranked(draw) -> list[int]:
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=8))
    ranks, position = [], 1
    for size in sizes:
        ranks += [position] * size
        position += size
    return ranks


@settings(max_examples=60, deadline=None)
@given(ranks=ranked(), data=st.data())
def test_people_are_placed_among_themselves_and_bots_follow_unplaced(ranks, data):
    rows = table(ranks)
    bots = set(data.draw(st.sets(st.sampled_from([r.player_id for r in rows]))))
    placed = rank_people(rows, bots)
    people = [r for r in rows if r.player_id not in bots]
    assert [r.player_id for r in placed] == [r.player_id for r in people] + [
        r.player_id for r in rows if r.player_id in bots
    ]
    assert all(r.rank is None and not r.tied for r in placed[len(people) :])
    mine = placed[: len(people)]
    for i, row in enumerate(mine):
        # the number of people strictly ahead, plus one; a tie among people stays one
        ahead = sum(1 for p in people if p.rank < people[i].rank)
        assert row.rank == ahead + 1
        assert row.tied == (sum(1 for p in people if p.rank == people[i].rank) > 1)
    if not bots:
        assert placed == rows
