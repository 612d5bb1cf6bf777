"""Schieberamsch: everything of this game — its engine, determiniser and bots — in one package.

Importing the package registers the game (``games/registry.py`` lists it)."""

from games.core.registry import register_game
from games.schieberamsch.engine import SchieberamschMatch
from games.schieberamsch.four import SchieberamschFour

register_game(SchieberamschMatch, four=SchieberamschFour)
