"""Saichugen: everything of this game — its engine, determiniser and bots — in one package.

Importing the package registers the game (``games/registry.py`` lists it)."""

from games.core.registry import register_game
from games.saichugen.engine import SaichugenMatch
from games.saichugen.four import SaichugenFour

register_game(SaichugenMatch, four=SaichugenFour)
