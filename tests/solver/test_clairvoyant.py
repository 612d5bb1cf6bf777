"""The clairvoyant level: never offered to people, given the real match by the evaluation only,
and in an endgame it plays a card of the solver's best value."""

from __future__ import annotations

import random

import pytest

from games import bots, evaluate
from games.core.bots import registry
from games.core.solver import action_values, random_position
from games.registry import game_names

GAMES = game_names()


def test_the_clairvoyant_level_is_never_offered():
    assert not registry.level("clairvoyant").offered
    assert "clairvoyant" not in registry.all_levels()
    for game in GAMES:
        assert "clairvoyant" not in bots.levels(game)
        assert "clairvoyant" in bots.levels(game, unoffered=True)  # the evaluation's


def test_a_level_that_sees_the_match_cannot_be_offered():
    level = registry.define_level("peeking_test", "Peeking", rank=95, sees_match=True)
    try:
        assert not level.offered
    finally:
        registry.LEVELS.unregister("peeking_test")


def test_without_the_match_it_refuses_to_play():
    match = random_position("schieberamsch", 3, random.Random(1))
    seat = match.actor()
    with pytest.raises(ValueError, match="real match"):
        bots.choose_action(
            "schieberamsch", match.view(seat), match.legal(seat), random.Random(1), "clairvoyant"
        )


@pytest.mark.parametrize("game", GAMES)
def test_in_an_endgame_it_plays_a_best_card(game):
    choose = evaluate.chooser(game, "clairvoyant")
    for seed in range(4):
        rng = random.Random(seed)
        match = random_position(game, 2, rng)
        seat = match.actor()
        action = choose(match.view(seat), match.legal(seat), rng, match=match)
        values = action_values(match, seat)
        best = max(v for _, v in values)
        assert (action, best) in values


def test_the_evaluation_gives_it_the_match_and_the_deal_is_played_out():
    players = [evaluate.chooser("three_five_eight", "basic")] * 3
    players[1] = evaluate.chooser("three_five_eight", "clairvoyant")
    match = evaluate.play_table("three_five_eight", "1/0", players)
    assert match.finished
