"""The bot registry: (game, level) -> a bot, chosen by name.

A bot sees what a third-party client sees — the seat's `view` and its `legal` list — and answers
one action in record format: `choose(view, legal, rng) -> action`. A level that searches
(`searches=True`) also takes `budget` (how long it may think, `games.core.bots.search.Budget`) and
`past` (the match's finished deals as shown at their end, which a client saw go by). A level
registered for every game (`random`, `strong`) serves any game; a game's own module registers its
levels beside it.

A level carries its traits (`Level`: the label a person reads, its rank, whether its bots make a
table casual, what it needs of a game), defined once by `define_level`; the rest of Mediana asks
them here and never tests a level by its name. Adding a level is one module with its
`define_level(...)` and `@register(...)` lines, and its import in `games/bots.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import four
from games.core.hints import gettext_noop
from games.core.named import Registry
from games.core.registry import get_game

Chooser = Callable[..., dict[str, Any]]  # (view, legal, rng[, budget=, past=]) -> action

ANY_GAME = "*"


@dataclass(frozen=True)
class Level:
    """What a bot level is, the same in every game it plays: what lobby, league and API ask of a
    level instead of testing its name."""

    name: str
    label: str  # English, marked with gettext_noop: translated where a person reads it
    rank: int  # weak to strong (random 0, basic 10, strong 20): lists show the weakest first
    casual: bool = False  # its bots make a friendly table casual (lobby-api.md)
    # What a game needs to be played at this level: modules of the game's package
    # ("determiniser"); a game without one is not offered the level.
    needs: tuple[str, ...] = ()
    # Offered to people (lobby, tables, league, API): False for a level that exists only to
    # measure the others (the clairvoyant level cheats: it sees every card).
    offered: bool = True
    # Its bots choose from the real match (every card), not a view: only the evaluation gives
    # it one (games/evaluate.py); it is never offered.
    sees_match: bool = False

    @property
    def rated(self) -> bool:
        """Whether a table with bots at this level may be rated."""
        return not self.casual

    def serves(self, game: str) -> bool:
        """Whether `game` has all this level needs (an unknown game has nothing)."""
        if not self.needs:
            return True
        try:
            spec = get_game(game)
        except KeyError:
            return False
        return all(spec.provides(part) for part in self.needs)


LEVELS: Registry[str, Level] = Registry("bot level")


def define_level(
    name: str,
    label: str,
    *,
    rank: int,
    casual: bool = False,
    needs: tuple[str, ...] = (),
    offered: bool = True,
    sees_match: bool = False,
) -> Level:
    """Define a level and its traits, once, before its bots are registered (`label`: English,
    marked with `gettext_noop`). A level that sees the match is never offered."""
    if name in LEVELS:
        raise ValueError(f"bot level {name!r} is defined twice")
    level = Level(name, label, rank, casual, tuple(needs), offered and not sees_match, sees_match)
    return LEVELS.register(name, level)


def level(name: str) -> Level:
    """The traits of a level; `KeyError` for an unknown one."""
    return LEVELS.get(name)


# The level every game has its own bot of (`games/<game>/bots.py`), and the default one.
DEFAULT_LEVEL = define_level("basic", gettext_noop("Basic"), rank=10).name


@dataclass(frozen=True)
class BotLevel:
    """One registered bot: its level name, a line for people, and how it chooses."""

    game: str
    level: str
    choose: Chooser
    description: str = ""
    searches: bool = False
    rollout: bool = True  # cheap enough to play out a searched deal's every move


BOTS: Registry[tuple[str, str], BotLevel] = Registry("bot")


def register(
    game: str,
    level: str,
    description: str = "",
    *,
    searches: bool = False,
    rollout: bool = True,
) -> Callable[[Chooser], Chooser]:
    """Register `choose` as the `level` bot of `game` (`ANY_GAME`: of every game); the level is
    defined first (`define_level`). `searches`: it takes a `budget` and the `past`;
    `rollout=False`: too slow to serve as a search's rollout policy."""

    def decorate(choose: Chooser) -> Chooser:
        key = (game, level)
        if key in BOTS:
            raise ValueError(f"bot {level!r} of {game!r} is registered twice")
        if level not in LEVELS:
            raise ValueError(f"bot level {level!r} is not defined (define_level)")
        text = description or (choose.__doc__ or "").strip()
        BOTS.register(key, BotLevel(game, level, choose, text, searches, rollout))
        return choose

    return decorate


def unregister(game: str, level: str) -> None:
    """Take a game's bot out of the registry (a test's toy game, when the test is over)."""
    BOTS.unregister((game, level))


def _ordered(names: set[str]) -> list[str]:
    return sorted(names, key=lambda lv: (LEVELS.get(lv).rank, lv))


def get_bot(game: str, level: str) -> BotLevel:
    """The bot of this game at this level; `KeyError` when there is none."""
    bot = BOTS.find((game, level)) or BOTS.find((ANY_GAME, level))
    if bot is None:
        raise KeyError(f"no {level!r} bot for {game!r}")
    return bot


def levels(game: str, *, unoffered: bool = False) -> list[str]:
    """The levels that can play `game`, weakest first: those with a bot for it (its own or one
    for every game) whose needs the game has, and that are offered to people (`unoffered`:
    the evaluation's levels too)."""
    return _ordered(
        {
            lv
            for g, lv in BOTS
            if g in (game, ANY_GAME)
            and LEVELS.get(lv).serves(game)
            and (unoffered or LEVELS.get(lv).offered)
        }
    )


def all_levels() -> list[str]:
    """Every level name offered to people, weakest first."""
    return _ordered({lv for _, lv in BOTS if LEVELS.get(lv).offered})


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
    a level that searches). At a table of four (the view names a ``sitter``) the bot decides
    the deal as its three players play it (``games.core.four``): a bot is never the sitter,
    who has nothing to decide, and the deals before (played by other threes) are not its past."""
    if not legal:
        raise ValueError("the bot has no legal action")
    if view.get("sitter") is not None:
        seating = four.seating_of(view)
        action = choose_action(
            game, four.fold_view(view), seating.fold(legal), rng, level, budget=budget
        )
        return seating.widen(action)
    bot = get_bot(game, level)
    if bot.searches:
        return bot.choose(view, legal, rng, budget=budget, past=past)
    return bot.choose(view, legal, rng)
