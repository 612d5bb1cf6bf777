"""What the deal summary costs the move path: engine `apply` plus every receiver's view and
its JSON, per move, over whole seeded matches, with the summary (made once at each deal's end,
carried by `view.last_deal.summary` until the next deal's first action) and without it (the
views as they were: `last_deal` alone, nothing made at a deal's end).

    .venv/bin/python bench/deal_summary.py            # --matches 6 --rounds 5

Interleaved rounds, the best of each kept, in CPU time (the machine is shared). The server's
own per-move work (the claim, the fan-out) is the same either way; `bench/tables.py` measures
that.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import game_names, start_match
from games.core import base


def actions(game: str, seed: int, n_deals: int) -> list[tuple[int, dict]]:
    """A whole match's actions, random and legal (templates filled at random)."""
    rng = random.Random(seed)
    m = start_match(game, seed=seed, n_deals=n_deals)
    out = []
    while not m.finished:
        seat = rng.choice(m.to_act())
        entry = rng.choice(m.legal(seat))
        action = _concrete(entry, rng)
        m.apply(seat, action)
        out.append((seat, action))
    return out


def _concrete(entry: dict, rng: random.Random) -> dict:
    if entry.get("act") == "exchange":
        d = rng.sample(entry["discard"]["from"], entry["discard"]["choose"])
        g = entry["give"]
        give = rng.choice([c for c in g["from"] if c not in d]) if g else None
        return {"act": "exchange", "discard": d, "give": give}
    if "choose" in entry:
        a = {"act": entry["act"], "cards": rng.sample(entry["from"], entry["choose"])}
        if "to" in entry:
            a["to"] = entry["to"]
        return a
    return dict(entry)


def run(
    game: str, seed: int, n_deals: int, played: list[tuple[int, dict]]
) -> tuple[float, float, int]:
    """Seconds for the match's moves — those that end a deal and the others, apart: apply,
    then each receiver's view + legal as JSON."""
    m = start_match(game, seed=seed, n_deals=n_deals)
    receivers = [*range(m.SEATS), None]
    ends = others = 0.0
    clock = time.process_time  # CPU time: the other jobs on the machine count less
    for seat, action in played:
        deals = len(m.results)
        t = clock()
        m.apply(seat, action)
        to_act = m.to_act()
        for r in receivers:
            legal = m.legal(r) if r is not None and r in to_act else []
            json.dumps({"view": m.view(r), "legal": legal})
        took = clock() - t
        if len(m.results) > deals:
            ends += took
        else:
            others += took
    return ends, others, len(m.results)


@contextmanager
def without_summary():
    """The views and deal ends as before the summary: `last_deal` only, nothing explained."""
    explain, last = base.Match._explain, base.Match._last_deal
    base.Match._explain = lambda self, dealer, scores, payouts: None
    base.Match._last_deal = lambda self: (
        self._reveal(len(self.results) - 1) if self.results else None
    )
    try:
        yield
    finally:
        base.Match._explain, base.Match._last_deal = explain, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=6, help="seeded matches per game")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{'game':18} {'moves':>6} {'deal ends':>9}   µs per other move   µs per deal end"
        "      µs per move, all"
    )
    print(f"{'':37} before  after     before  after     before  after   diff")
    for game in game_names():
        matches = [(s, actions(game, s, args.deals)) for s in range(args.matches)]
        moves = sum(len(p) for _, p in matches)
        n_ends = 0
        best = {k: [float("inf"), float("inf")] for k in ("before", "after")}
        for _ in range(args.rounds):
            for kind in ("before", "after"):
                if kind == "before":
                    with without_summary():
                        runs = [run(game, s, args.deals, p) for s, p in matches]
                else:
                    runs = [run(game, s, args.deals, p) for s, p in matches]
                ends, others = sum(r[0] for r in runs), sum(r[1] for r in runs)
                n_ends = sum(r[2] for r in runs)
                best[kind] = [min(best[kind][0], ends), min(best[kind][1], others)]
        other = [best[k][1] / (moves - n_ends) * 1e6 for k in ("before", "after")]
        end = [best[k][0] / n_ends * 1e6 for k in ("before", "after")]
        # A move's cost, every move counted: the others at their own (equal) price, the extra
        # of a deal end spread over all moves.
        per = [
            other[0] + (end[0] - other[0]) * n_ends / moves,
            other[0] + (end[1] - other[0]) * n_ends / moves,
        ]
        print(
            f"{game:18} {moves:6d} {n_ends:9d} {other[0]:9.1f} {other[1]:6.1f} "
            f"{end[0]:10.1f} {end[1]:6.1f} {per[0]:10.1f} {per[1]:6.1f} {per[1] - per[0]:+6.1f}"
        )


if __name__ == "__main__":
    main()
