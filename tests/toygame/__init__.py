"""Toy Tricks: a minimal three-player trick game that lives in the tests only.

It proves that a game is its package plus its registration: `registered()` puts it (and its
basic bot) into the registries as `games/registry.py` and `games/bots.py` do for the real
games, and takes it out again, so no other test sees it (the `toy_game` fixture,
`tests/toy/conftest.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.core.bots import registry as bot_registry
from games.core.registry import register_game, unregister_game
from tests.toygame import bots
from tests.toygame.engine import ToyMatch

GAME = ToyMatch.GAME


@contextmanager
def registered() -> Iterator[type[ToyMatch]]:
    """The toy game and its `basic` bot registered for the duration of the block."""
    register_game(ToyMatch)
    bot_registry.register(GAME, "basic")(bots.choose)
    try:
        yield ToyMatch
    finally:
        bot_registry.unregister(GAME, "basic")
        unregister_game(GAME)
