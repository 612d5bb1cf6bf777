"""The clairvoyant level: never offered to people, given the real match by the evaluation only,
and in an endgame it plays a card of the solver's best value."""

from __future__ import annotations

import random

import pytest

from games import bots, evaluate
from games.core.bots import registry
from games.core.bots.search import Budget, draw_world, in_truth, truth
from games.core.registry import get_game as registry_game
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


def _two_sided(match) -> bool:
    from games.core.bots.clairvoyant import _two_sided as two_sided
    from games.core.solver import game_solver

    return two_sided(game_solver(match), match, match.actor())


@pytest.mark.parametrize("game", GAMES)
def test_in_a_two_sided_endgame_it_plays_a_best_card(game):
    """A side against a side (Mediatore, a Grand Hand): the solver's best card."""
    choose = evaluate.chooser(game, "clairvoyant")
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        match = random_position(game, 2, rng)
        if not _two_sided(match):
            continue
        seen += 1
        seat = match.actor()
        action = choose(match.view(seat), match.legal(seat), rng, match=match)
        values = action_values(match, seat)
        best = max(v for _, v in values)
        assert (action, best) in values
        if seen == 4:
            break
    if game in ("saichugen", "three_five_eight"):
        assert seen == 0  # each for himself: never two-sided
    else:
        assert seen == 4


@pytest.mark.parametrize("game", GAMES)
def test_every_world_of_its_search_is_the_real_deal(game, monkeypatch):
    """Each for himself (Ramsch, 3-5-8, Saichugen) and before the play: strong's search with
    the real cards, never a sampled world; the choice is legal."""
    determiniser = registry_game(game).determiniser
    for method in ("sample", "draw", "draw_replayed"):
        monkeypatch.setattr(determiniser, method, lambda *a, **k: pytest.fail("sampled a world"))
    if game == "saichugen":
        from games.saichugen import strong as saichugen_strong

        pools = []
        real_model = saichugen_strong.model_choice

        def model(view, seat, pool, mode, rng):
            pools.append((seat, sorted(pool)))
            return real_model(view, seat, pool, mode, rng)

        monkeypatch.setattr(saichugen_strong, "model_choice", model)
    choose = evaluate.chooser(game, "clairvoyant", Budget(iterations=3))
    for seed in range(3):
        rng = random.Random(seed)
        match = random_position(game, 9, rng)  # before any exact solve
        seat = match.actor()
        legal = match.legal(seat)
        action = choose(match.view(seat), legal, rng, match=match)
        match.check(seat, action)  # legal in the real match
        if game == "saichugen":
            from games.saichugen.engine import DECK

            for other, pool in pools:
                held = match.hands[other] + (
                    [match.commits[other]] if match.commits[other] != -1 else []
                )
                assert pool == sorted(DECK.codes(held))
            pools.clear()


def test_in_truth_the_search_draws_clones_of_the_real_match():
    match = random_position("three_five_eight", 8, random.Random(5))
    with in_truth(match):
        world = draw_world(None, {}, random.Random(1))
        assert world is not match and world.hands == match.hands
    assert truth() is None


def test_the_evaluation_gives_it_the_match_and_the_deal_is_played_out():
    players = [evaluate.chooser("three_five_eight", "basic")] * 3
    players[1] = evaluate.chooser("three_five_eight", "clairvoyant")
    match = evaluate.play_table("three_five_eight", "1/0", players)
    assert match.finished
