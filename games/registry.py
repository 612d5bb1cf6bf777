"""Which games Mediana plays: one line a game, in the order the site lists them.

Importing a game's package registers its engine in ``games.core.registry``; this module
re-exports the registry's look-ups for everyone outside ``games``."""

from __future__ import annotations

# One line a game, in the order the site lists them (registration order is the games' order).
# isort: off
from games import saichugen  # noqa: F401
from games import three_five_eight  # noqa: F401
from games import schieberamsch  # noqa: F401
from games import mediatore  # noqa: F401

# isort: on
from games.core.registry import (
    GameSpec,
    game_names,
    games,
    get_game,
    load_match,
    register_game,
    start_match,
)

__all__ = [
    "GameSpec",
    "game_names",
    "games",
    "get_game",
    "load_match",
    "register_game",
    "start_match",
]
