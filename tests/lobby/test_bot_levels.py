"""Bot levels carry their traits in the registry: a new level appears with its label and trait
wherever levels are offered, and a level a game cannot run is offered nowhere for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gameplay import api as gameplay
from gameplay.lobby_forms import CreateTableForm
from gameplay.models import Table
from gameplay.services.create import SeatSpec, seat_level
from games import bots
from games.core.bots import registry
from games.core.hints import gettext_noop
from games.core.registry import register_game, unregister_game
from games.schieberamsch.engine import SchieberamschMatch
from league.forms.events import bot_level_field
from league.services.events import bot_level_problem
from league.templatetags.bot_marks import bot_level

from .conftest import TABLES, api, create

pytestmark = pytest.mark.django_db


@pytest.fixture
def toy_level() -> Iterator[str]:
    """A casual level "toy" for every game, between random and basic, gone after the test."""
    registry.define_level("toy", gettext_noop("Toy"), rank=5, casual=True)
    registry.register(registry.ANY_GAME, "toy", "plays the first legal action")(
        lambda view, legal, rng: dict(legal[0])
    )
    yield "toy"
    registry.unregister(registry.ANY_GAME, "toy")
    registry.LEVELS.unregister("toy")


class Toy(SchieberamschMatch):
    """Schieberamsch's rules under another name, in a package with no determiniser."""

    GAME = "toy_no_determiniser"
    DISPLAY = "Toy"


@pytest.fixture
def toy_game() -> Any:
    register_game(Toy)
    yield Toy.GAME
    unregister_game(Toy.GAME)


def test_a_new_level_appears_with_its_label_everywhere_levels_are_offered(toy_level):
    assert bots.levels("saichugen") == ["random", "toy", "basic", "strong"]
    assert gameplay.bot_levels("mediatore")[1] == "toy"
    assert (gameplay.bot_level_label("toy"), bot_level("toy")) == ("Toy", "Toy")
    assert ("toy", "Toy") in CreateTableForm().fields["bot_level"].choices
    assert ("toy", "Toy") in bot_level_field("three_five_eight").choices
    assert bot_level_problem("three_five_eight", "toy") is None
    assert seat_level("saichugen", 2, SeatSpec("Toy bot 1", bot="Toy bot 1", bot_level="toy"))


def test_a_casual_level_makes_the_table_casual_without_naming_it(ana, toy_level):
    body = create(ana, game="saichugen", bots=1, bot_level="toy", rated=True)
    table = Table.objects.get(pk=body["table"])
    assert (table.rated, table.seconds_per_move) == (False, 0)
    assert [s.bot_level for s in table.seats.order_by("number")] == ["", "", "toy"]


def test_the_levels_traits_are_the_registrys():
    assert [bots.level(lv).label for lv in bots.all_levels()] == ["Random", "Basic", "Strong"]
    assert [bots.level(lv).casual for lv in bots.all_levels()] == [True, False, False]
    assert bots.level("strong").needs == ("determiniser",)
    with pytest.raises(KeyError):
        bots.level("grandmaster")


def test_strong_is_not_offered_for_a_game_without_a_determiniser(ana, toy_game):
    assert "strong" in bots.levels("schieberamsch")
    assert "strong" not in gameplay.bot_levels(toy_game)
    assert "random" in gameplay.bot_levels(toy_game)
    assert bot_level_problem(toy_game, "strong") is not None
    with pytest.raises(ValueError, match="no 'strong' bot"):
        seat_level(toy_game, 2, SeatSpec("Strong bot 1", bot="Strong bot 1", bot_level="strong"))
    response = api(ana).post(
        TABLES, {"game": toy_game, "bots": 1, "bot_level": "strong"}, format="json"
    )
    assert response.status_code == 400
    assert "strong" not in response.json()["detail"]
