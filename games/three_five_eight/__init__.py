"""3-5-8: everything of this game — its engine, determiniser and bots — in one package.

Importing the package registers the game (``games/registry.py`` lists it)."""

from games.core.registry import register_game
from games.three_five_eight.engine import ThreeFiveEightMatch
from games.three_five_eight.four import ThreeFiveEightFour

register_game(ThreeFiveEightMatch, four=ThreeFiveEightFour)
