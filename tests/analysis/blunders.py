"""Records with a blunder made on purpose, for the analysis's tests: the strong evaluator's worst
candidate played at a decision where it loses a blunder's worth, the deal then played out."""

from __future__ import annotations

import random
from typing import Any

from games import analysis, bots
from games.ask import position
from games.core.bots.search import Budget
from games.core.registry import get_game


def played(game: str, seed: int, prefix: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A one-deal match of basic bots dealt from `seed`, after the actions of `prefix`."""
    match = get_game(game).engine(dealer=0, n_deals=1, seed=seed)
    for action in prefix or []:
        match.apply(action["seat"], action)
    rng = random.Random(seed)
    while not match.finished:
        seat = match.to_act()[0]
        view, legal = match.view(seat), match.legal(seat)
        match.apply(seat, bots.choose_action(game, view, legal, rng, "basic"))
    return match.export()


def means_at(record: dict[str, Any], j: int, iterations: int, seed: str = "t"):
    """What `analysis.judge` compares at action `j` of deal 0 (same seed, same worlds)."""
    taken = record["deals"][0]["actions"][j]
    pos = position(analysis._cut(record, 0, j), taken["seat"])
    rng = random.Random(f"analysis/{seed}/0/{j}")
    return analysis.values(pos, taken, Budget(seconds=None, iterations=iterations), rng)


def with_choice(
    game: str, seed: int, seat: int, iterations: int, pick: str
) -> tuple[dict[str, Any], int] | None:
    """The match of `played(game, seed)` in which `seat`, at its first decision whose worst
    candidate loses a blunder's worth, plays the `pick` ("worst" or "best") one instead."""
    record = played(game, seed)
    actions = record["deals"][0]["actions"]
    unit = analysis.scale(game) * dict(analysis.THRESHOLDS)["blunder"]
    for j, action in enumerate(actions):
        if action["seat"] != seat:
            continue
        means = means_at(record, j, iterations)
        if len(means) < 2:
            continue
        best = max(v for _, v in means)
        worst_action, worst = min(means, key=lambda m: m[1])
        if best - worst < unit + 0.2 * unit:  # a clear blunder, not one at the threshold
            continue
        best_action = next(a for a, v in means if v == best)
        chosen = worst_action if pick == "worst" else best_action
        prefix = [*actions[:j], {**chosen, "seat": seat}]
        return played(game, seed, prefix), j
    return None
