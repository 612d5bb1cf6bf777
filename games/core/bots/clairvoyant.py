"""The `clairvoyant` level, for evaluation only: it sees the real match — every card — and plays
the perfect-information solver's best card (`games.core.solver`). It is the bound a search bot
could reach if it knew the cards, against which `strong` is measured (docs/bots.md, "The
clairvoyant bound"). Never offered to people: it cheats, and only `games/evaluate.py` gives it
the match.

Before the card play (bidding, calls, discards) it makes the basic bot's choice. In the play it
solves exactly once at most the game's ``EXACT_TRICKS`` tricks are left (the depth where the
solver takes well under a second, docs/performance.md, "The solver"); earlier, and whenever the
solver would need more than ``MAX_NODES`` positions, each candidate card is played out in the
real cards ``ROLLOUTS`` times by the basic bots in every seat (a cheating one-move look-ahead),
and the best mean wins."""

from __future__ import annotations

import random
from typing import Any

from games.core import solver
from games.core.base import Match
from games.core.bots.registry import ANY_GAME, define_level, get_bot, register
from games.core.bots.search import policy_rollout, random_rollout

MAX_NODES = 300_000
ROLLOUTS = 4

# Its label is not marked for translation: no person ever reads it (the level is never offered).
define_level(
    "clairvoyant",
    "Clairvoyant",
    rank=90,
    casual=True,
    needs=("solver",),
    offered=False,
    sees_match=True,
)


def _rolled_out(match: Match, seat: int, rng: random.Random) -> dict[str, Any]:
    """The card with the best mean payout over basic-bot playouts of the real deal."""
    basic = get_bot(match.GAME, "basic")
    step = policy_rollout(basic.choose) if basic.rollout else random_rollout
    deal = match.deal_no
    best, best_mean = None, None
    seeds = [rng.getrandbits(32) for _ in range(ROLLOUTS)]
    for action in match.legal(seat):
        if "card" not in action:
            continue
        action = {"act": action["act"], "card": action["card"]}  # no signal: it only informs
        total = 0
        for seed in seeds:
            world = match.clone()
            world.apply(seat, action)
            roll = random.Random(seed)
            while not world.finished and world.deal_no == deal:
                step(world, roll)
            total += world.results[deal]["payouts"][seat]
        if best_mean is None or total > best_mean:
            best, best_mean = action, total
    return best if best is not None else dict(match.legal(seat)[0])


@register(ANY_GAME, "clairvoyant", "sees every card: the perfect-information solver's play")
def choose(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    match: Match | None = None,
) -> dict[str, Any]:
    if match is None:
        raise ValueError("the clairvoyant level plays from the real match, never a view")
    seat = view["seat"]
    hook = solver.game_solver(match)
    if not hook.in_play(match):
        return get_bot(match.GAME, "basic").choose(view, legal, rng)
    if hook.cards_left(match) <= hook.EXACT_TRICKS:
        try:
            return solver.best_action(match, seat, max_nodes=MAX_NODES)
        except solver.TooHard:
            pass  # too deep to solve within MAX_NODES: judged by rollouts like earlier tricks
    return _rolled_out(match, seat, rng)
