"""Built-in bots: one per game, simple rules over exactly what the protocol shows a seat.

A bot sees what a third-party client sees: its `view` and its `legal` list (templates for
multi-card choices). `choose_action` returns an action in record format, which the table
server then applies through the same service path as a person's (`play_action`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gameplay.bots import mediatore, saichugen, schieberamsch, three_five_eight
from gameplay.bots.common import expand_random, random_action

Chooser = Callable[[dict[str, Any], list[Any], random.Random], dict[str, Any]]

BOTS: dict[str, Chooser] = {
    "saichugen": saichugen.choose,
    "three_five_eight": three_five_eight.choose,
    "schieberamsch": schieberamsch.choose,
    "mediatore": mediatore.choose,
}

__all__ = ["BOTS", "choose_action", "expand_random", "random_action"]


def choose_action(
    game: str, view: dict[str, Any], legal: list[Any], rng: random.Random
) -> dict[str, Any]:
    """The built-in bot's action for this seat (a random legal one for an unknown game)."""
    if not legal:
        raise ValueError("the bot has no legal action")
    chooser = BOTS.get(game)
    if chooser is None:
        return random_action(legal, rng)
    return chooser(view, legal, rng)
