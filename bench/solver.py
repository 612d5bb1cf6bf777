"""How long the perfect-information solver takes to solve a deal's play (docs/performance.md,
"The solver").

    .venv/bin/python bench/solver.py [--games G,...] [--deals 30] [--tricks 3,5,8] \\
        [--max-nodes 1000000] [--seed 1]

For each game and each number of tricks left: ``--deals`` random positions at the start of a
trick with that many tricks to go (random variant-free one-deal matches played by random moves),
each solved for the seat to act (``solve``), CPU seconds; median and p95 over the positions. A
solve that would pass ``--max-nodes`` positions is stopped and counted as over (then the
percentiles that reach it print as ``>``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.core import solver
from games.registry import game_names

FULL = {"schieberamsch": 10, "mediatore": 9, "three_five_eight": 16, "saichugen": 15}


def measure(game: str, tricks: int, deals: int, max_nodes: int, seed: int) -> str:
    rng = random.Random(f"{seed}/{game}/{tricks}")
    times: list[float] = []
    nodes: list[int] = []
    for _ in range(deals):
        match = solver.random_position(game, tricks, rng)
        started = time.process_time()
        try:
            _, searched = solver._solve(match, match.actor(), max_nodes)
            times.append(time.process_time() - started)
        except solver.TooHard:
            times.append(float("inf"))
            searched = max_nodes
        nodes.append(searched)
    times.sort()
    nodes.sort()

    def at(q: float) -> str:
        t = times[min(len(times) - 1, int(q * len(times)))]
        if t == float("inf"):
            return f"> {max([x for x in times if x != float('inf')], default=0):.2f}"
        return f"{t:.3f}"

    over = sum(t == float("inf") for t in times)
    return (
        f"{game}: {tricks} tricks left, {deals} positions: median {at(0.5)} s, p95 {at(0.95)} s, "
        f"max nodes {nodes[-1]}, over {max_nodes} nodes: {over}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--tricks", default="3,5", help="tricks left; 'all' for the whole play")
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.games.split(","):
        for t in args.tricks.split(","):
            tricks = FULL[game] if t == "all" else int(t)
            print(measure(game, tricks, args.deals, args.max_nodes, args.seed), flush=True)


if __name__ == "__main__":
    main()
