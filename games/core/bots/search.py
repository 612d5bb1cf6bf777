"""Perfect-information Monte Carlo (PIMC): the search behind the `strong` level.

Why PIMC and not IS-MCTS (docs/bots.md, "The strong bot"): these are short trick games whose
payout is settled per deal, the determinisers draw exactly uniform consistent worlds, and the
engines' fast path plays a whole deal in well under a millisecond. PIMC spends the budget on
*more worlds*, each candidate judged in the same worlds with the same rollout seeds (common
random numbers), which is what cuts the noise of a paired comparison; IS-MCTS would spread the
same playouts over a tree whose deeper nodes get too few visits in 0.3 s to beat that, and its
statistics mix worlds in which a move was not even legal. PIMC's known flaw (strategy fusion:
it assumes it will know the cards later) matters least where play is mostly following suit.

The bot receives what a third-party client has — the seat's view, its legal list and the
finished deals as shown at their end (`past`) — never the match. Each iteration draws one world
from the game's determiniser, applies every candidate action in a clone of it and plays the
deal out by the rollout policy; the candidate with the highest mean payout for the seat wins.
It is anytime: `Budget` stops it on CPU time (at a table) or after a number of worlds (in
evaluation and tests, so that a seed gives the same moves).

With inference (`games.core.bots.inference`, on by default: `Budget(inference=...)`) each world
is weighed by how likely the others' observed actions of the deal were in it, the means are
weighted, and a world of small weight is played out only now and then (with a weight that
keeps the estimate unbiased), so that the rollouts go to the likely worlds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import combinations, islice
from typing import Any

from games.core import registry
from games.core.base import Match
from games.core.bots.common import expand_random
from games.core.bots.inference import Inference, by_default, model_for, weighted_draw
from games.core.determiniser import NoWorld
from games.core.errors import EngineError

Action = dict[str, Any]
# How the deal is played out in a world: one move of whoever is to act.
Rollout = Callable[[Match, random.Random], None]

# Worlds drawn and rollouts played by this process's searches, for the evaluation's figures.
# ("draws": worlds drawn, weighed by inference, played out or not.)
COUNTS = {"worlds": 0, "rollouts": 0, "draws": 0}
MAX_CANDIDATES = 12  # multi-card choices (discards, exchanges): at most this many tried
SAMPLE_TRIES = 300  # determiniser proposals per world before the bot gives up on searching
# With inference and an iteration budget: at most this many draws per world played out.
DRAWS_PER_WORLD = 10
# What `Budget(inference=None)` means: the strong level's inference (None: uniform worlds).
DEFAULT_INFERENCE: Inference | None = Inference()


# The clairvoyant level's cheat (evaluation only, `in_truth`): the real match a search within
# it plays instead of every sampled world.
_TRUTH: ContextVar[Match | None] = ContextVar("_TRUTH", default=None)


@contextmanager
def in_truth(match: Match) -> Iterator[None]:
    """Searches made within see ``match`` itself: every world they draw is the real deal.
    Why: the clairvoyant level is the strong level's own search with the cards known, so that
    its edge over strong is what not knowing the cards costs (docs/bots.md, "The clairvoyant
    bound"); never used at a table."""
    token = _TRUTH.set(match)
    try:
        yield
    finally:
        _TRUTH.reset(token)


def truth() -> Match | None:
    """The real match when the search runs `in_truth`, else None."""
    return _TRUTH.get()


def draw_world(
    determiniser: Any,
    view: dict[str, Any],
    rng: random.Random,
    *,
    past: Sequence[dict[str, Any]] = (),
    give_up: Callable[[], bool] | None = None,
) -> Match:
    """A world for a search: the determiniser's uniform draw, or the real match `in_truth`."""
    real = _TRUTH.get()
    if real is not None:
        return real.clone()
    return determiniser.sample(view, rng, past=past, max_tries=SAMPLE_TRIES, give_up=give_up)


@dataclass(frozen=True)
class Budget:
    """How long one decision may think. ``iterations`` (worlds) makes it reproducible; else it
    stops once ``seconds`` of ``clock`` (CPU time by default) are spent — after the first world,
    or without one when none could be drawn in that time (it plays the prior then). ``clock``
    is injectable so that a test can spend the time for it. ``inference``: how worlds are
    weighed (`Inference`; ``True`` its defaults, ``False`` uniform worlds, ``None`` the
    level's default, `DEFAULT_INFERENCE`, unless the game's ``inference.BY_DEFAULT`` is
    false)."""

    seconds: float | None = 0.3
    iterations: int | None = None
    clock: Callable[[], float] = time.process_time
    inference: Inference | bool | None = None

    def weighing(self) -> Inference | None:
        """The inference this budget asks for, or ``None`` for uniform worlds."""
        if self.inference is None:
            return DEFAULT_INFERENCE
        if self.inference is True:
            return Inference()
        return self.inference or None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs seconds or iterations")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")


@dataclass
class Decision:
    """What a search found: the action and how it got there (for evaluation and benches)."""

    action: Action
    worlds: int
    rollouts: int
    means: list[tuple[Action, float]]


def searching(decide: Callable[..., Decision]) -> Callable[..., Action]:
    """A searching level's chooser: the action of its `decide`, whose figures (worlds,
    rollouts, the candidates' means) the evaluation and the game analysis read."""

    def choose(
        view: dict[str, Any],
        legal: list[Action],
        rng: random.Random,
        *,
        budget: Budget | None = None,
        past: Sequence[dict[str, Any]] = (),
    ) -> Action:
        return decide(view, legal, rng, budget=budget, past=past).action

    choose.__doc__ = decide.__doc__
    return choose


def random_rollout(world: Match, rng: random.Random) -> None:
    """One uniformly random move on the fast path."""
    seat = world.actor()
    world.play(seat, world.random_move(seat, rng))


def policy_rollout(choose: Callable[..., Action]) -> Rollout:
    """One move of a view-based policy (a registered level's `choose`) through the validated
    path: slower than the fast path, a far better model of the other players."""

    def step(world: Match, rng: random.Random) -> None:
        seat = world.to_act()[0]
        world.apply(seat, choose(world.view(seat), world.legal(seat), rng))

    return step


def is_template(entry: dict[str, Any]) -> bool:
    """A legal entry that stands for many actions (choose k of these cards; an exchange)."""
    return "choose" in entry or entry.get("act") == "exchange"


def _expansions(entry: dict[str, Any], rng: random.Random) -> list[Action]:
    """Every action of a template when there are few, else a random handful."""
    if "choose" in entry and entry.get("act") != "exchange":
        pool, k = entry["from"], entry["choose"]
        every = combinations(sorted(pool), k)
        few = list(islice(every, MAX_CANDIDATES + 1))
        if len(few) <= MAX_CANDIDATES:
            out = []
            for cards in few:
                action = {"act": entry["act"], "cards": list(cards)}
                if "to" in entry:
                    action["to"] = entry["to"]
                out.append(action)
            return out
    return [expand_random(entry, rng) for _ in range(MAX_CANDIDATES // 2)]


def _key(action: Action) -> str:
    parts = []
    for name, value in sorted(action.items()):
        parts.append(f"{name}={sorted(value) if isinstance(value, list) else value}")
    return "&".join(parts)


def candidates(legal: list[dict[str, Any]], rng: random.Random, prior: Action) -> list[Action]:
    """The actions worth comparing: every plain legal action, a template's expansions, and the
    `prior` (the basic bot's choice), first, so that it wins ties."""
    out: dict[str, Action] = {_key(prior): prior}
    for entry in legal:
        for action in _expansions(entry, rng) if is_template(entry) else [dict(entry)]:
            out.setdefault(_key(action), action)
    return list(out.values())


def _deal_payout(world: Match, seat: int, deal: int, rollout: Rollout, rng: random.Random) -> int:
    while not world.finished and world.deal_no == deal:
        rollout(world, rng)
    return world.results[deal]["payouts"][seat]


def search(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    prior: Action,
    rollout: Rollout = random_rollout,
    budget: Budget | None = None,
    past: Sequence[dict[str, Any]] = (),
) -> Decision:
    """PIMC: the candidate with the best mean deal payout over sampled worlds (see the module
    docstring). `prior` is what the bot plays when no world could be drawn in time."""
    budget = budget or Budget()
    options = candidates(legal, rng, prior)
    if len(options) == 1:
        return Decision(options[0], 0, 0, [(options[0], 0.0)])
    seat, deal = view["seat"], view["deal"]
    determiniser = registry.get_game(view["game"]).determiniser
    weighing = budget.weighing()
    if budget.inference is None and not by_default(view["game"]):
        weighing = None  # the game measured no better with it (its `inference.BY_DEFAULT`)
    if _TRUTH.get() is not None:
        weighing = None  # the one world is the real one: nothing to weigh
    model = model_for(view["game"], weighing.epsilon) if weighing is not None else None
    totals = [0.0] * len(options)
    kept: list[tuple[float, list[int]]] = []  # with a model: (log weight, payouts) per world
    best = -math.inf  # the highest log weight drawn so far
    worlds = rollouts = draws = 0
    started = budget.clock()
    out_of_time = None
    if budget.iterations is None:
        # A world that takes long to find (rejection) may not take the move past its budget.
        def out_of_time() -> bool:
            return budget.clock() - started >= budget.seconds

    while True:
        if budget.iterations is not None:
            if worlds >= budget.iterations or draws >= budget.iterations * DRAWS_PER_WORLD:
                break
        elif draws and budget.clock() - started >= budget.seconds:
            break
        try:
            if model is None:
                world = draw_world(determiniser, view, rng, past=past, give_up=out_of_time)
            else:
                found, weight = weighted_draw(
                    determiniser,
                    view,
                    rng,
                    model,
                    past=past,
                    plays=weighing.plays,
                    max_tries=SAMPLE_TRIES,
                    give_up=out_of_time,
                )
                world = found.world
        except NoWorld:
            break
        draws += 1
        if model is not None:
            weight, best = _roulette(weight, best, weighing.floor, rng), max(best, weight)
            if weight == -math.inf:
                continue
        seed = rng.getrandbits(32)
        payouts = [0] * len(options)
        for i, action in enumerate(options):
            trial = world.clone()
            try:
                move, _ = trial.check(seat, action)
            except EngineError:  # not legal in this world: it cannot be (the world fits the view)
                continue
            trial.play(seat, move)
            payouts[i] = _deal_payout(trial, seat, deal, rollout, random.Random(seed))
            rollouts += 1
        if model is None:
            for i, p in enumerate(payouts):
                totals[i] += p
        else:
            kept.append((weight, payouts))
        worlds += 1
    COUNTS["worlds"] += worlds
    COUNTS["rollouts"] += rollouts
    COUNTS["draws"] += draws
    if not worlds:
        return Decision(prior, 0, 0, [(prior, 0.0)])
    mass = float(worlds)
    if model is not None:
        top = max(w for w, _ in kept)
        scale = [math.exp(w - top) for w, _ in kept]
        mass = sum(scale)
        for (_, payouts), s in zip(kept, scale, strict=True):
            for i, p in enumerate(payouts):
                totals[i] += s * p
    means = [(a, t / mass) for a, t in zip(options, totals, strict=True)]
    best_i = max(range(len(options)), key=lambda i: totals[i])  # the first best: the prior on ties
    return Decision(options[best_i], worlds, rollouts, means)


def _roulette(weight: float, best: float, floor: float, rng: random.Random) -> float:
    """Russian roulette on a world's log ``weight``: below ``floor`` * the ``best`` weight so
    far it is played out only with probability weight / threshold, and then counts with the
    threshold's weight; skipped, it returns -inf. Its expected weight is its weight, so the
    weighted means stay consistent; the rollouts go where the posterior is."""
    if weight == -math.inf or floor <= 0 or best == -math.inf:
        return weight
    threshold = best + math.log(floor)
    if weight >= threshold:
        return weight
    if rng.random() < math.exp(weight - threshold):
        return threshold
    return -math.inf
