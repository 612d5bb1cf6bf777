"""One registry idiom for everything that grows: games, bot levels and bots, formats, tie-breaks.

Each is a `games.core.named.Registry`; these checks hold for all of them alike: registration
order is the order offered, the same thing again changes nothing, a different thing under a
taken name is refused, an unknown name is the registry's own error that names the known ones,
and a test's own entry can be taken back."""

from __future__ import annotations

import pytest

from games.core import registry as games
from games.core.bots import registry as bots
from games.core.named import Registry
from league.scheduling.errors import SchedulingError
from league.scheduling.formats import registry as formats
from league.standings import tiebreaks
from league.standings.errors import UnknownTiebreak

REGISTRIES = {
    "games": (games.GAMES, KeyError),
    "bot levels": (bots.LEVELS, KeyError),
    "bots": (bots.BOTS, KeyError),
    "formats": (formats.FORMATS, SchedulingError),
    "tie-breaks": (tiebreaks.TIEBREAKS, UnknownTiebreak),
}


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_every_concept_that_grows_is_one_kind_of_registry(name):
    registry, error = REGISTRIES[name]
    assert isinstance(registry, Registry)
    assert len(registry) >= 2
    first = registry.names()[0]
    assert registry.get(first) is registry.values()[0] is registry.find(first)
    with pytest.raises(error) as raised:
        registry.get("no such name")
    assert str(registry.names()[-1]) in str(raised.value)  # it says what there is
    assert registry.find("no such name") is None
    assert registry.find(["unhashable"]) is None


def test_the_idiom():
    things: Registry[str, int] = Registry("thing")
    things.register("b", 2)
    things.register("a", 1)
    assert things.names() == ["b", "a"]  # the order of registration, not of names
    assert things.register("b", 2) == 2  # the same again: nothing changes
    with pytest.raises(ValueError, match="two things"):
        things.register("b", 3)
    assert things.get("b") == 2
    things.unregister("b")
    things.unregister("b")  # gone already: no error
    assert things.items() == [("a", 1)]
    with pytest.raises(KeyError, match="known: a"):
        things.get("b")
    with pytest.raises(KeyError):
        things.get({"not": "a name"})


def test_the_public_look_ups_read_the_registries():
    assert games.game_names() == games.GAMES.names()
    assert [f.name for f in formats.formats()] == formats.FORMATS.names()
    assert [n for n, _ in tiebreaks.tiebreak_choices()] == tiebreaks.TIEBREAKS.names()
    assert set(bots.all_levels()) <= set(bots.LEVELS.names())
