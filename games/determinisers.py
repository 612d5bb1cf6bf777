"""Determinisers: from one seat's view, complete worlds consistent with all it knows (one per
game, in its package: ``games/<game>/determiniser.py`` with its ``DETERMINISER``; docs/bots.md,
"Determinisers"). ``get_determiniser(game)`` finds a game's."""

from __future__ import annotations

from games.core.determiniser import Determiniser, History, NoWorld, Slots, deal_exact
from games.registry import get_game


def get_determiniser(game: str) -> Determiniser:
    """The determiniser of ``game``; ``KeyError`` for a game without one."""
    return get_game(game).determiniser


__all__ = ["Determiniser", "History", "NoWorld", "Slots", "deal_exact", "get_determiniser"]
