"""The clairvoyant bound, deal by deal (docs/bots.md, "The clairvoyant bound").

    .venv/bin/python bench/clairvoyant.py --game G [--deals 100] [--seed 1] [--iterations 20]

For duplicate deal i (``games.evaluate.duplicate_deal``, seed ``S/i``) one line: the deal's
clairvoyant - basic and strong - basic (strong at ``--iterations`` worlds a move), both on the
same cards, printed as each deal is done (a run cut short still gives its deals). The summary
(mean, 95 % interval, and the share of the clairvoyant edge that strong captures with a
bootstrap interval over the deals, paired) is ``--summary FILE`` of those lines.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import evaluate
from games.core.bots.search import Budget


def summary(path: str) -> dict[str, float]:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    c = [r["clairvoyant"] for r in rows]
    s = [r["strong"] for r in rows]
    n = len(rows)

    def ci(xs: list[float]) -> tuple[float, float, float]:
        m = statistics.fmean(xs)
        h = 1.96 * statistics.stdev(xs) / n**0.5 if n > 1 else 0.0
        return m, m - h, m + h

    rng = random.Random(0)
    shares = []
    for _ in range(2000):
        pick = [rng.randrange(n) for _ in range(n)]
        cm = statistics.fmean(c[i] for i in pick)
        if cm:
            shares.append(statistics.fmean(s[i] for i in pick) / cm)
    shares.sort()
    cm, sm = statistics.fmean(c), statistics.fmean(s)
    return {
        "deals": n,
        "clairvoyant": ci(c),
        "strong": ci(s),
        "share": sm / cm if cm else float("nan"),
        "share_ci": (shares[int(0.025 * len(shares))], shares[int(0.975 * len(shares))]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--summary", help="summarise a file of this script's lines")
    args = parser.parse_args()
    if args.summary:
        print(json.dumps(summary(args.summary)))
        return
    game = args.game
    budget = Budget(iterations=args.iterations)
    basic = evaluate.chooser(game, "basic")
    clairvoyant = evaluate.chooser(game, "clairvoyant", budget)  # strong's search, in the truth
    strong = evaluate.chooser(game, "strong", budget)
    for i in range(args.deals):
        seed = f"{args.seed}/{i}"
        c, _, _ = evaluate.duplicate_deal(game, seed, clairvoyant, basic)
        s, _, _ = evaluate.duplicate_deal(game, seed, strong, basic)
        print(json.dumps({"deal": i, "clairvoyant": c, "strong": s}), flush=True)


if __name__ == "__main__":
    main()
