"""Each game words its traveller line in its own package; the table server names no game, and a
game without its line is a loud error, not a line of bare scores."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay import api
from gameplay.services.duplicate_tables import outcome_line
from games import catalogue, registry
from games.core.registry import register_game, unregister_game
from games.saichugen.engine import SaichugenMatch


class Toy(SaichugenMatch):
    """Saichugen's rules under another name, in a package with no traveller line."""

    GAME = "toy_no_traveller"
    DISPLAY = "Toy"


@pytest.fixture
def toy_game() -> Any:
    register_game(Toy)
    yield Toy.GAME
    unregister_game(Toy.GAME)


@pytest.mark.parametrize("game", registry.game_names())
def test_every_game_has_its_traveller_line_in_its_package(game):
    outcome = registry.get_game(game).traveller
    assert outcome.__module__ == f"games.{game}.traveller"


def test_a_game_without_its_traveller_line_is_a_loud_error(toy_game):
    record = catalogue.random_record("saichugen", players=["a", "b", "c"], n_deals=1)
    with pytest.raises(KeyError, match="no traveller"):
        outcome_line(toy_game, None)
    with pytest.raises(KeyError, match="no traveller"):
        api.deal_outcomes({**record, "game": toy_game})
    with pytest.raises(KeyError):
        outcome_line("whist", None)
