"""The toy game registered for a test, and taken out after it (`tests/toygame/`)."""

from __future__ import annotations

import pytest

from tests.engines import oracles
from tests.gameplay.conftest import quick_tables  # noqa: F401  (autouse: bots at once, no sweeper, fresh cache)
from tests.toygame import GAME, registered
from tests.toygame import oracles as toy_oracles


@pytest.fixture
def toy_game(monkeypatch):
    """Toy Tricks registered as a game (with its basic bot), and its oracles where the
    conformance suites look for every game's; all of it gone at teardown."""
    with registered():
        monkeypatch.setitem(oracles.KNOWABLE, GAME, toy_oracles.knowable)
        monkeypatch.setitem(oracles.LOCATIONS, GAME, toy_oracles.locations)
        yield GAME


@pytest.fixture
def bots_think_here(monkeypatch):
    """Table servers' bots think in this process, not in the spawned pool beside it: a pool
    process imports `games.bots` (`gameplay/runtime/bot_jobs.py`, `warm`) and so knows only
    the games of `games/registry.py`, not one a test registered."""
    from gameplay.runtime import bot_jobs, thinkers

    async def think_here(job):
        return bot_jobs.think(job)

    monkeypatch.setattr(thinkers, "think_beside", think_here)
