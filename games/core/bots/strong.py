"""The `strong` level, for every game with a determiniser: PIMC search (`games.core.bots.search`)
whose rollouts play the game's `basic` bot in every seat (a far better model of the other
players than random moves, and of the bot's own later play), and whose fallback and tie-break
is that bot's own choice. Where the basic bot searches itself (`rollout=False` at its
registration), a rollout by it would cost a second each, so the deal is played out by
uniformly random moves on the fast path instead, in many more worlds. A game may register its
own `strong` instead (the registry prefers it): Saichugen does (`saichugen_strong`), because
its simultaneous tricks need a model of what the others commit, which rollouts do not give."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.bots.registry import ANY_GAME, define_level, get_bot, register
from games.core.bots.search import (
    Budget,
    Decision,
    policy_rollout,
    random_rollout,
    search,
    searching,
)
from games.core.hints import gettext_noop

# Its search samples worlds from the game's determiniser: a game without one is not offered it.
define_level("strong", gettext_noop("Strong"), rank=20, needs=("determiniser",))


def decide(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    budget: Budget | None = None,
    past: Sequence[dict[str, Any]] = (),
) -> Decision:
    """The search's decision with its figures (worlds, rollouts, the candidates' means)."""
    basic = get_bot(view["game"], "basic")
    prior = basic.choose(view, legal, random.Random(rng.getrandbits(32)))
    rollout = policy_rollout(basic.choose) if basic.rollout else random_rollout
    return search(view, legal, rng, prior=prior, rollout=rollout, budget=budget, past=past)


choose = register(
    ANY_GAME,
    "strong",
    "searches: plays every candidate out in sampled deals",
    searches=True,
)(searching(decide))
