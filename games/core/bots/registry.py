"""The bot registry: (game, level) -> a bot, chosen by name.

A bot sees what a third-party client sees — the seat's `view` and its `legal` list — and answers
one action in record format: `choose(view, legal, rng) -> action`. A level that searches
(`searches=True`) also takes `budget` (how long it may think, `games.core.bots.search.Budget`) and
`past` (the match's finished deals as shown at their end, which a client saw go by). A level
registered for every game (`random`, `strong`) serves any game; a game's own module registers its
levels beside it. Adding a level is one module with a `@register(...)` line and its import in
`games/bots.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Chooser = Callable[..., dict[str, Any]]  # (view, legal, rng[, budget=, past=]) -> action

ANY_GAME = "*"
DEFAULT_LEVEL = "basic"


@dataclass(frozen=True)
class BotLevel:
    """One registered bot: its level name, a line for people, and how it chooses."""

    game: str
    level: str
    choose: Chooser
    description: str = ""
    searches: bool = False
    rollout: bool = True  # cheap enough to play out a searched deal's every move


_BOTS: dict[tuple[str, str], BotLevel] = {}
# How strong each level is meant to be (lists show levels weakest first).
_RANK: dict[str, int] = {}


def register(
    game: str,
    level: str,
    description: str = "",
    *,
    rank: int,
    searches: bool = False,
    rollout: bool = True,
) -> Callable[[Chooser], Chooser]:
    """Register `choose` as the `level` bot of `game` (`ANY_GAME`: of every game). `rank`
    orders levels from weak to strong (random 0, basic 10, strong 20); `searches`: it takes a
    `budget` and the `past`; `rollout=False`: too slow to serve as a search's rollout policy."""

    def decorate(choose: Chooser) -> Chooser:
        key = (game, level)
        if key in _BOTS:
            raise ValueError(f"bot {level!r} of {game!r} is registered twice")
        if _RANK.setdefault(level, rank) != rank:
            raise ValueError(f"bot level {level!r} registered with two ranks")
        text = description or (choose.__doc__ or "").strip()
        _BOTS[key] = BotLevel(game, level, choose, text, searches, rollout)
        return choose

    return decorate


def _ordered(names: set[str]) -> list[str]:
    return sorted(names, key=lambda lv: (_RANK[lv], lv))


def get_bot(game: str, level: str) -> BotLevel:
    """The bot of this game at this level; `KeyError` when there is none."""
    bot = _BOTS.get((game, level)) or _BOTS.get((ANY_GAME, level))
    if bot is None:
        raise KeyError(f"no {level!r} bot for {game!r}")
    return bot


def levels(game: str) -> list[str]:
    """The levels that can play `game`, weakest first."""
    return _ordered({lv for g, lv in _BOTS if g in (game, ANY_GAME)})


def all_levels() -> list[str]:
    """Every level name known, weakest first."""
    return _ordered({lv for _, lv in _BOTS})


def choose_action(
    game: str,
    view: dict[str, Any],
    legal: list[Any],
    rng: random.Random,
    level: str = DEFAULT_LEVEL,
    *,
    budget: Any = None,
    past: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The action of the `level` bot of `game` for this seat (`budget` and `past` reach only
    a level that searches)."""
    if not legal:
        raise ValueError("the bot has no legal action")
    bot = get_bot(game, level)
    if bot.searches:
        return bot.choose(view, legal, rng, budget=budget, past=past)
    return bot.choose(view, legal, rng)
