"""Random legal playouts per second for each registered engine, against OpenSpiel's ``skat``.

Run: ``.venv/bin/python bench/engines.py [--seconds S] [--profile GAME]``. Not a test: it prints
figures (see docs/performance.md). OpenSpiel comes from requirements/bench.txt; without it the
engines are still measured and a note is printed.

One playout = one seeded deal dealt, played to its end with random legal moves on the engine's
fast path, and scored. 3-5-8 plays the *second* hand of a match (so it has an exchange); the other
games play their first deal (Saichugen: a whole 5-round game). OpenSpiel skat: a new initial state
to terminal, chance nodes (the deal) included, random legal actions, then ``returns()``.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import games, start_match
from games.core.base import Match

# How many deals to play before the measured one, and the match length (so the match ends with it).
PRE_DEALS = {"three_five_eight": 1}
TARGETS = {"three_five_eight": 1.0, "saichugen": 1.5, "schieberamsch": 2.0, "mediatore": 1.5}


def base_position(game: str) -> Match:
    """A match at the start of the deal to measure (for 3-5-8: a hand with an exchange)."""
    pre = PRE_DEALS.get(game, 0)
    for seed in range(1000):
        m = start_match(game, n_deals=pre + 1, seed=seed)
        rng = random.Random(seed)
        while m.deal_no < pre and not m.finished:
            s = m.actor()
            m.play(s, m.random_move(s, rng))
        if m.finished:
            continue
        if game == "three_five_eight" and not m.plan:
            continue  # want a hand that starts with an exchange
        return m
    raise RuntimeError(f"no base position for {game}")


def playouts(base: Match, seconds: float, seed: int = 1) -> tuple[int, float]:
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            m = base.clone()
            m.redeal(rng)
            actor = m.actor
            random_move = m.random_move
            play = m.play
            while not m.finished:
                s = actor()
                play(s, random_move(s, rng))
            m.results[-1]["payouts"]
        n += 100
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def openspiel_playouts(seconds: float, seed: int = 1) -> tuple[int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    rand = rng.random  # the same uniform pick the engines' random_move uses (floor of r * n)
    floor = math.floor
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    s.apply_action(outcomes[floor(rand() * len(outcomes))][0])
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[floor(rand() * len(legal))])
            s.returns()
        n += 100
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per contender, in total")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (best is kept)")
    parser.add_argument("--profile", metavar="GAME", help="cProfile one engine instead")
    args = parser.parse_args()

    if args.profile:
        base = base_position(args.profile)
        cProfile.runctx("playouts(base, args.seconds)", globals(), locals(), "/tmp/engines.prof")
        pstats.Stats("/tmp/engines.prof").sort_stats("tottime").print_stats(15)
        return 0

    # The machine is shared: measure in interleaved rounds and keep each contender's best round.
    bases = {spec.name: base_position(spec.name) for spec in games()}
    best: dict[str, float] = {}
    slice_ = args.seconds / args.rounds
    for _ in range(args.rounds):
        ref = openspiel_playouts(slice_)
        if ref:
            best["skat"] = max(best.get("skat", 0.0), ref[0] / ref[1])
        for name, base in bases.items():
            n, dt = playouts(base, slice_)
            best[name] = max(best.get(name, 0.0), n / dt)
    ref_rate = best.get("skat")
    print(f"{'engine':<22}{'playouts/s':>12}{'µs/playout':>12}{'x skat':>9}{'target':>8}")
    if ref_rate:
        print(f"{'open_spiel skat':<22}{ref_rate:>12.0f}{1e6 / ref_rate:>12.1f}{1.0:>9.2f}")
    else:
        print("note: open_spiel is not installed (pip install -r requirements/bench.txt);")
        print("      the engines are measured without the reference ratio.")
    for spec in games():
        rate = best[spec.name]
        ratio = f"{rate / ref_rate:>9.2f}" if ref_rate else f"{'-':>9}"
        target = TARGETS.get(spec.name)
        print(
            f"{spec.name:<22}{rate:>12.0f}{1e6 / rate:>12.1f}{ratio}"
            + (f"{target:>7.1f}x" if target else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
