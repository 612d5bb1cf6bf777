"""Built-in bots, a registry keyed by (game, level) (`games.core.bots.registry`).

A bot sees what a third-party client sees: its `view` and its `legal` list (templates for
multi-card choices). `choose_action` returns an action in record format, which the table
server then applies through the same service path as a person's (`play_action`).
"""

from __future__ import annotations

# Importing a bot module registers its levels: one line per module.
from games.core.bots import clairvoyant, random_level, strong  # noqa: F401
from games.core.bots.common import expand_random, random_action
from games.core.bots.registry import (
    DEFAULT_LEVEL,
    Level,
    all_levels,
    choose_action,
    get_bot,
    level,
    levels,
)
from games.mediatore import bots as mediatore_bots  # noqa: F401
from games.mediatore import strong as mediatore_strong  # noqa: F401
from games.saichugen import bots as saichugen_bots  # noqa: F401
from games.saichugen import strong as saichugen_strong  # noqa: F401
from games.schieberamsch import bots as schieberamsch_bots  # noqa: F401
from games.schieberamsch import strong as schieberamsch_strong  # noqa: F401
from games.three_five_eight import bots as three_five_eight_bots  # noqa: F401

__all__ = [
    "DEFAULT_LEVEL",
    "Level",
    "all_levels",
    "choose_action",
    "expand_random",
    "get_bot",
    "level",
    "levels",
    "random_action",
]
