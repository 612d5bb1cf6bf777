"""Measure each bot against a uniformly random player in the same seat on the same deals.

    .venv/bin/python -m gameplay.bots.evaluate [--deals 500] [--games saichugen,...]

For deal i (seed i, one-deal match) the seat under test is i mod seats; the other seats play
uniformly random legal actions (each from its own seeded generator). The deal is played twice,
once with the bot and once with a random player in that seat; the figure is the mean payout
difference (bot - random) with a 95% confidence interval (paired, normal approximation).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from gameplay.bots import choose_action
from gameplay.bots.common import random_action
from gameplay.engines import registry


def play_deal(game: str, seed: int, seat: int, bot: bool) -> int:
    """Payout of `seat` in one seeded deal, played by the bot or at random."""
    match = registry.start_match(game, seed=seed, n_deals=1)
    rngs = [random.Random(f"{seed}/{s}") for s in range(match.SEATS)]
    while not match.finished:
        s = match.to_act()[0]
        legal = match.legal(s)
        if s == seat and bot:
            action = choose_action(game, match.view(s), legal, rngs[s])
        else:
            action = random_action(legal, rngs[s])
        match.apply(s, action)
    return match.result()["totals"]["payouts"][seat]


def evaluate(game: str, deals: int) -> dict[str, Any]:
    seats = registry.get_game(game).seats
    diffs = []
    started = time.perf_counter()
    for i in range(deals):
        seat = i % seats
        diffs.append(play_deal(game, i, seat, True) - play_deal(game, i, seat, False))
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {
        "game": game,
        "deals": deals,
        "mean_diff": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "bot_better": sum(d > 0 for d in diffs),
        "equal": sum(d == 0 for d in diffs),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--games", default=",".join(registry.game_names()))
    args = parser.parse_args()
    for game in args.games.split(","):
        print(evaluate(game, args.deals), flush=True)


if __name__ == "__main__":
    main()
