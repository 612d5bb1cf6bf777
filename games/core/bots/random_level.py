"""The `random` level: a uniformly random legal action, for every game (the baseline)."""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.common import random_action
from games.core.bots.registry import ANY_GAME, define_level, register
from games.core.hints import gettext_noop

# Random bots make a table casual: losing to them says nothing of a player (lobby-api.md).
define_level("random", gettext_noop("Random"), rank=0, casual=True)


@register(ANY_GAME, "random", "plays a uniformly random legal action")
def choose(view: dict[str, Any], legal: list[Any], rng: random.Random) -> dict[str, Any]:
    return random_action(legal, rng)
