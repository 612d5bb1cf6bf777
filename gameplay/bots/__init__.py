"""Built-in bots, a registry keyed by (game, level) (`gameplay.bots.registry`).

A bot sees what a third-party client sees: its `view` and its `legal` list (templates for
multi-card choices). `choose_action` returns an action in record format, which the table
server then applies through the same service path as a person's (`play_action`).
"""

from __future__ import annotations

# Importing a bot module registers its levels: one line per module.
from gameplay.bots import (  # noqa: F401
    mediatore,
    random_level,
    saichugen,
    saichugen_strong,
    schieberamsch,
    strong,
    three_five_eight,
)
from gameplay.bots.common import expand_random, random_action
from gameplay.bots.registry import (
    DEFAULT_LEVEL,
    all_levels,
    choose_action,
    get_bot,
    levels,
)

__all__ = [
    "DEFAULT_LEVEL",
    "all_levels",
    "choose_action",
    "expand_random",
    "get_bot",
    "levels",
    "random_action",
]
