"""Mediana's game engines: pure Python, no Django. See docs/engines.md for the interface."""

from games.core.base import Event, Match, describe_action, event, visible
from games.core.errors import EngineError, EngineFault, IllegalAction, RecordError, VariantError
from games.registry import GameSpec, game_names, games, get_game, load_match, start_match

__all__ = [
    "EngineError",
    "EngineFault",
    "Event",
    "GameSpec",
    "IllegalAction",
    "Match",
    "RecordError",
    "VariantError",
    "describe_action",
    "event",
    "game_names",
    "games",
    "get_game",
    "load_match",
    "start_match",
    "visible",
]
