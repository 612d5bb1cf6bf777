"""The `clairvoyant` level, for evaluation only: it sees the real match — every card. It is the
bound a search bot could reach if it knew the cards, against which `strong` is measured
(docs/bots.md, "The clairvoyant bound"). Never offered to people: it cheats, and only
`games/evaluate.py` gives it the match.

Every decision is the `strong` level's own search with every world the real deal
(`search.in_truth`): the same candidates, the same rollouts, at the same budget, so its edge over
strong is what not knowing the cards costs strong, and nothing else. Where the deal's play is a
side against a side (a Grand Hand, Mediatore's partnerships) and at most the game's
``EXACT_TRICKS`` tricks are left, it plays the perfect-information solver's best card instead
(`games.core.solver`). Not in each-for-himself play (Ramsch, 3-5-8, Saichugen): the solver's
answer there is paranoid (both others against one), which against opponents who each play for
themselves is too cautious to be a bound.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import solver
from games.core.base import Match
from games.core.bots.registry import ANY_GAME, define_level, get_bot, register
from games.core.bots.search import Budget, in_truth

MAX_NODES = 300_000
WORLDS = 20  # the search's iterations when no budget is given: all the real deal

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


def _two_sided(hook: solver.GameSolver, match: Match, seat: int) -> bool:
    """Whether the seat's side plays against one other side, whose seats are all allies (a
    Grand Hand, Mediatore): the solver's answer is then exact, not paranoid."""
    others = frozenset(range(match.SEATS)) - hook.allies(match, seat)
    return all(hook.allies(match, o) == others for o in others)


@register(
    ANY_GAME, "clairvoyant", "sees every card: strong's search in the real deal, the solver's end"
)
def choose(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    match: Match | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    if match is None:
        raise ValueError("the clairvoyant level plays from the real match, never a view")
    seat = view["seat"]
    hook = solver.game_solver(match)
    if (
        hook.in_play(match)
        and hook.cards_left(match) <= hook.EXACT_TRICKS
        and _two_sided(hook, match, seat)
    ):
        try:
            return solver.best_action(match, seat, max_nodes=MAX_NODES)
        except solver.TooHard:
            pass  # too deep to solve within MAX_NODES: the search in the real deal
    strong = get_bot(match.GAME, "strong")
    with in_truth(match):
        return strong.choose(view, legal, rng, budget=budget or Budget(iterations=WORLDS))
