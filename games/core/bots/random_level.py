"""The `random` level: a uniformly random legal action, for every game (the baseline)."""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.common import random_action
from games.core.bots.registry import ANY_GAME, register


@register(ANY_GAME, "random", "plays a uniformly random legal action", rank=0)
def choose(view: dict[str, Any], legal: list[Any], rng: random.Random) -> dict[str, Any]:
    return random_action(legal, rng)
