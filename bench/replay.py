"""Benchmark: the replay of the longest match of each game (`games.core.replay`).

    .venv/bin/python bench/replay.py [--deals 60] [--runs 3]

Each game plays a seeded match of `--deals` deals (the lobby's longest; 3-5-8 ends earlier by
its own rule) with random legal moves, then times what the replay costs: the summary, the page
(the summary and the last deal's steps: the most to replay before it), one deal's steps alone
(`replay.json?deal=K`) and, for comparison, every step of the match at once, with JSON sizes.
Figures go to docs/tables.md ("Replay").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import registry
from games.core import replay
from games.core.bots.common import random_action


def played(game: str, n_deals: int, seed: int = 1) -> dict:
    match = registry.start_match(game, n_deals=n_deals, seed=seed)
    rng = random.Random(seed)
    while not match.finished:
        seat = match.to_act()[0]
        match.apply(seat, random_action(match.legal(seat), rng))
    return match.export()


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) if runs < 3 else statistics.median(times)


def measure(game: str, n: int, runs: int) -> str:
    """One line of the table: the replay's costs for the longest match of `game`."""
    record = played(game, n)
    last = len(record["deals"]) - 1
    actions = sum(len(d["actions"]) for d in record["deals"])
    summary = best(lambda: replay.replay_summary(record, n_deals=n), runs)
    page = best(lambda: replay.replay_summary(record, n_deals=n, deal=last), runs)
    one = best(lambda: replay.deal_steps(record, last, n_deals=n), runs)
    every = best(lambda: replay.replay_steps(record, n_deals=n), 1)
    deal_kb = len(json.dumps(replay.deal_steps(record, last, n_deals=n))) / 1e3
    all_mb = len(json.dumps(replay.replay_steps(record, n_deals=n))) / 1e6
    return (
        f"{game:18} {len(record['deals']):5} {actions:7} {summary * 1e3:7.0f}ms "
        f"{page * 1e3:8.0f}ms {one * 1e3:7.0f}ms {deal_kb:8.0f} {every:9.2f}s {all_mb:7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'game':18} {'deals':>5} {'actions':>7} {'summary':>9} {'page':>10} {'1 deal':>9} "
        f"{'deal kB':>8} {'all steps':>10} {'all MB':>7}"
    )
    for spec in registry.games():
        print(measure(spec.name, args.deals, args.runs))


if __name__ == "__main__":
    main()
