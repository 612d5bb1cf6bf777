"""Policy-based inference: how likely the others' actions of this deal were in each world.

The determinisers draw every world consistent with what the seat knows with the same chance;
they ignore what the others' bids, passes, pushes, calls and plays say about their hands. After
Rebstock, Solinas, Buro and Sturtevant (2019, "Policy-based inference in trick-taking card
games"), a world is weighed by the likelihood of what the other seats actually did in this
deal under a model of their play *in that world*: the deal is replayed from its start in the
world and, at each action of another seat that the viewing seat saw (the determiniser's
``observed``: not a hidden discard, whose stand-in the history made up), the model gives the
probability of that action from that seat's view then. The posterior over worlds is then the
uniform prior times the likelihood; the search uses the weights (``games.core.bots.search``).

The model is the game's basic bot, softened: probability ``1 - epsilon`` on its choice and
``epsilon`` spread evenly over the other legal actions, so that a player who does something
else makes a world unlikelier, never impossible. A game whose basic bot is too slow to ask at
every decision (it searches itself: ``rollout=False``) gets no inference unless its package
has a module ``inference`` with its own ``MODEL`` (a ``Model``). That module may also say
``BY_DEFAULT = False``: the strong level then keeps uniform worlds unless asked (measured no
better in that game), while ``Budget(inference=True)`` still weighs them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from math import comb
from typing import Any

from games.core import registry
from games.core.bots.registry import get_bot
from games.core.determiniser import Determiniser, Replayed
from games.core.errors import EngineError

Action = dict[str, Any]
# The probability that a seat with this view and legal list takes this (canonical) action.
Model = Callable[[dict[str, Any], list[dict[str, Any]], Action], float]


@dataclass(frozen=True)
class Inference:
    """How worlds are weighed. ``epsilon``: the model's probability of not playing the basic
    bot's choice; ``plays``: whether cards played to tricks count too (by default only the
    auction, pushes, calls and signals… every action but a play: a card played mostly follows
    suit, says less, and makes the weights spread far more); ``floor``: in the search, a world
    whose weight is below ``floor`` * the best weight so far is played out only with
    probability weight / (floor * best), and then counts with that larger weight (unbiased,
    and the rollouts go to the worlds that matter)."""

    epsilon: float = 0.1
    plays: bool = False
    floor: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.epsilon < 1:
            raise ValueError("epsilon must be between 0 and 1")
        if not 0 <= self.floor <= 1:
            raise ValueError("floor must be between 0 and 1")


def action_key(action: Action) -> str:
    """One string per action, whatever the order of its cards."""
    parts = []
    for name, value in sorted(action.items()):
        if name == "seat":
            continue
        parts.append(f"{name}={sorted(value) if isinstance(value, list) else value}")
    return "&".join(parts)


def count_actions(legal: list[dict[str, Any]]) -> int:
    """How many actions a legal list stands for (a template "choose k of these" for all)."""
    n = 0
    for entry in legal:
        if "choose" in entry and "from" in entry:
            n += comb(len(entry["from"]), entry["choose"])
        elif entry.get("act") == "exchange":
            n += comb(len(entry["discard"]["from"]), entry["discard"]["choose"]) * max(
                1, len(entry["give"]["from"]) if entry.get("give") else 1
            )
        else:
            n += 1
    return n


def softened(choose: Callable[..., Action], epsilon: float) -> Model:
    """The policy ``choose`` (a registered level's, deterministic for a given generator),
    softened: ``1 - epsilon`` on its choice, ``epsilon`` evenly over the other actions."""

    def probability(view: dict[str, Any], legal: list[dict[str, Any]], action: Action) -> float:
        n = count_actions(legal)
        if n <= 1:
            return 1.0
        choice = choose(view, legal, random.Random(0))
        if action_key(choice) == action_key(action):
            return 1.0 - epsilon
        return epsilon / (n - 1)

    return probability


_MODELS: dict[tuple[str, float], Model | None] = {}


@cache
def _hook(game: str) -> Any:
    """The game's own ``inference`` module, or ``None``."""
    spec = registry.get_game(game)
    return import_module(f"{spec.package}.inference") if spec.provides("inference") else None


def by_default(game: str) -> bool:
    """Whether the strong level weighs worlds in ``game`` when not told (``BY_DEFAULT``)."""
    return getattr(_hook(game), "BY_DEFAULT", True)


def model_for(game: str, epsilon: float = 0.1) -> Model | None:
    """The model of the others' play in ``game``: its package's own (``inference.MODEL``), else
    its basic bot softened when cheap enough to ask at every decision, else ``None``."""
    key = (game, epsilon)
    if key not in _MODELS:
        hook = _hook(game)
        model: Model | None = getattr(hook, "MODEL", None)
        if model is None:
            try:
                basic = get_bot(game, "basic")
            except KeyError:
                basic = None
            if basic is not None and basic.rollout:
                model = softened(basic.choose, epsilon)
        _MODELS[key] = model
    return _MODELS[key]


def log_likelihood(
    determiniser: Determiniser,
    view: dict[str, Any],
    found: Replayed,
    model: Model,
    *,
    plays: bool = True,
) -> float:
    """The log-probability, under ``model``, of the others' observed actions of this deal in
    the world ``found`` (drawn with ``keep_start``): the deal is replayed from its start and
    each observed action is judged from its seat's view at that moment."""
    if found.start is None:  # a game's `world` that does not keep it (a test's stand-in)
        return 0.0
    m = found.start.clone()
    world = found.world
    total = 0.0
    for entry in world.log[world.deal_no][2]:
        seat = entry["seat"]
        action = {k: v for k, v in entry.items() if k != "seat"}
        if determiniser.observed(view, seat, action) and (plays or action["act"] != "play"):
            p = model(m.view(seat), m.legal(seat), action)
            if p <= 0:
                return -math.inf
            total += math.log(p)
        try:
            m.apply(seat, action)
        except EngineError:  # pragma: no cover - the world's own log replays
            return -math.inf
    return total


def weighted_draw(
    determiniser: Determiniser,
    view: dict[str, Any],
    rng: random.Random,
    model: Model,
    *,
    past: Sequence[dict[str, Any]] = (),
    plays: bool = True,
    max_tries: int = 2000,
    give_up: Callable[[], bool] | None = None,
) -> tuple[Replayed, float]:
    """One world drawn uniformly among the consistent ones, and its log weight: the
    likelihood of the others' observed actions in it (``log_likelihood``). Weighted, the
    draws follow the posterior: uniform prior * likelihood."""
    found = determiniser.draw_replayed(
        view, rng, past=past, max_tries=max_tries, give_up=give_up, keep_start=True
    )
    return found, log_likelihood(determiniser, view, found, model, plays=plays)
