"""The bot registry: every registered (game, level) plays whole matches legally, by name."""

from __future__ import annotations

import random

import pytest

from games import bots
from games import registry as engines
from games.core.bots import registry

GAMES = engines.game_names()


def test_every_game_has_random_and_basic_levels_weakest_first():
    for game in GAMES:
        assert bots.levels(game)[:2] == ["random", "basic"]
    assert bots.all_levels()[0] == "random"


def test_an_unknown_level_is_a_key_error():
    with pytest.raises(KeyError):
        bots.get_bot("saichugen", "grandmaster")


def test_a_level_registered_for_every_game_serves_a_game_without_its_own():
    assert bots.get_bot("no_such_game", "random").level == "random"
    with pytest.raises(KeyError):
        bots.get_bot("no_such_game", "basic")


def test_registering_the_same_bot_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        registry.register("saichugen", "basic")(lambda view, legal, rng: legal[0])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["random", "basic"])
def test_each_level_plays_a_whole_match_with_legal_actions(game, level):
    """Every seat played by the level, from the seat's view and legal list only."""
    for seed in range(3):
        match = engines.start_match(game, seed=seed, n_deals=2)
        rng = random.Random(seed)
        steps = 0
        while not match.finished:
            seat = match.to_act()[0]
            action = bots.choose_action(game, match.view(seat), match.legal(seat), rng, level)
            match.apply(seat, action)  # raises IllegalAction if the bot cheated
            steps += 1
            assert steps < 2_000
        assert match.result()["complete"]


def test_the_saichugen_bot_scores_futures_with_the_tables_payout_mode(monkeypatch):
    """The bot asks the engine for payouts in the table's own mode (no copy of the rules)."""
    from games.saichugen import bots as bot

    seen = []
    real = bot.game_payouts

    def spy(scores, mode="zero_sum"):
        seen.append(mode)
        return real(scores, mode)

    monkeypatch.setattr(bot, "game_payouts", spy)
    match = engines.start_match("saichugen", seed=1, variant={"payout": "raw"})
    seat = match.to_act()[0]
    view = match.view(seat)
    bots.choose_action("saichugen", view, match.legal(seat), random.Random(0))
    assert set(seen) == {"raw"}
