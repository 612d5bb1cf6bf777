"""Results together (league/fairplay/together.py): a pair's first places against what the
ratings predict, with the helper at the table and without."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.fairplay.together import Match, together
from league.ratings.compute import initial_state, win_chances

NEWCOMER = (initial_state().mu, initial_state().sigma)


def test_the_ratings_model_gives_the_stronger_player_the_better_chance():
    chances = win_chances([(30.0, 3.0), NEWCOMER, (20.0, 2.0)])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] > chances[2]


def test_an_underdog_who_wins_with_one_player_only_is_better_together():
    ratings = {"strong": (32.0, 2.0), "weak": (18.0, 2.0), "other": (25.0, 2.0)}
    with_helper = [Match(("helper", "weak", "strong"), (2, 1, 3))] * 12
    without = [Match(("other", "weak", "strong"), (2, 3, 1))] * 12
    found = together(with_helper + without, "helper", "weak", ratings, win_chances, NEWCOMER)
    assert found.with_helper.matches == found.without.matches == 12
    assert found.with_helper.won == 12 and found.without.won == 0
    assert found.with_helper.z > 3 and found.without.z < 0 and found.difference > 3
    # Turned round: the strong player's results are what the ratings say, or better.
    back = together(with_helper + without, "helper", "strong", ratings, win_chances, NEWCOMER)
    assert back.difference < 0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.permutations(["a", "b", "c", "d"]),
            st.lists(st.integers(1, 3), min_size=3, max_size=3),
        ),
        max_size=30,
    )
)
def test_every_match_of_the_helped_counts_once_and_a_shared_first_place_its_share(rows):
    matches = [Match(tuple(players[:3]), tuple(ranks)) for players, ranks in rows]
    found = together(matches, "a", "b", {}, lambda r: [1 / len(r)] * len(r), NEWCOMER)
    theirs = [m for m in matches if "b" in m.players]
    assert found.with_helper.matches + found.without.matches == len(theirs)
    won = sum(1 / m.ranks.count(1) for m in theirs if m.ranks[m.players.index("b")] == 1)
    assert found.with_helper.won + found.without.won == pytest.approx(won)
    assert found.with_helper.expected + found.without.expected == pytest.approx(len(theirs) / 3)
