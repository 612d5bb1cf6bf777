"""Determinisers: from one seat's view, complete worlds consistent with all it knows (one per
game, beside the engines; docs/bots.md, "Determinisers"). ``get_determiniser(game)`` finds a
game's; a new game adds its module and one line in ``DETERMINISERS``."""

from __future__ import annotations

from .base import Determiniser, History, NoWorld, Slots, deal_exact
from .mediatore import MediatoreDeterminiser
from .saichugen import SaichugenDeterminiser
from .schieberamsch import SchieberamschDeterminiser
from .three_five_eight import ThreeFiveEightDeterminiser

DETERMINISERS: dict[str, Determiniser] = {
    d.GAME: d
    for d in (
        SaichugenDeterminiser(),
        ThreeFiveEightDeterminiser(),
        SchieberamschDeterminiser(),
        MediatoreDeterminiser(),
    )
}


def get_determiniser(game: str) -> Determiniser:
    """The determiniser of ``game``; ``KeyError`` for a game without one."""
    return DETERMINISERS[game]


__all__ = ["Determiniser", "History", "NoWorld", "Slots", "deal_exact", "get_determiniser"]
