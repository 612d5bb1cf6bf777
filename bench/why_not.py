"""What `why_not` adds to a seated `state`: a micro-benchmark per registered engine.

Run: ``.venv/bin/python bench/why_not.py [--positions N] [--repeat R]``. Not a test: it prints
figures (docs/tables.md, "Why not"). Pure engines, no Django: the server's `state_payload` calls
`match.why_not(seat)` for the seats to act only, beside `legal(seat)` and `view(seat)` which it
already computes, then serializes the payload once per receiver (notify.state_text).

Positions come from random legal play through the validated path (every phase, every deal of a
3-deal match); each is timed for the seat to act: `why_not`, `legal`, `view`, and the JSON
encoding of the payload's engine part with and without `why_not`.
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

from games import games, start_match
from games.core.base import Match

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode  # as notify does


def positions(game: str, n: int) -> list[tuple[Match, int]]:
    """``n`` positions of random play, each a clone with one seat to act."""
    out: list[tuple[Match, int]] = []
    seed = 0
    while len(out) < n:
        m = start_match(game, n_deals=3, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not m.finished and len(out) < n:
            seat = rng.choice(m.to_act())
            out.append((m.clone(), seat))
            entry = rng.choice(m.legal(seat))
            m.apply(seat, _concrete(entry, rng))
    return out


def _concrete(entry: dict, rng: random.Random) -> dict:
    action = dict(entry)
    if "choose" in action:
        action["cards"] = rng.sample(action.pop("from"), action.pop("choose"))
    elif action.get("act") == "exchange":
        discard = rng.sample(entry["discard"]["from"], 4)
        action["discard"] = discard
        if entry["give"]:
            action["give"] = rng.choice([c for c in entry["give"]["from"] if c not in discard])
    return action


def per_call(func, items, repeat: int) -> float:
    """The mean microseconds of ``func(m, seat)`` in the fastest of ``repeat`` rounds (the least
    disturbed by the rest of the machine)."""
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for m, seat in items:
            func(m, seat)
        rounds.append((time.perf_counter() - start) / len(items) * 1e6)
    return min(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(
        f"{'game':<18}{'why_not µs':>11}{'legal µs':>10}{'view µs':>9}"
        f"{'json µs':>9}{'+json µs':>9}{'+bytes':>8}{'share':>8}"
    )
    for spec in games():
        items = positions(spec.name, args.positions)
        why = per_call(lambda m, s: m.why_not(s), items, args.repeat)
        legal = per_call(lambda m, s: m.legal(s), items, args.repeat)
        view = per_call(lambda m, s: m.view(s), items, args.repeat)
        parts = [({"legal": m.legal(s), "view": m.view(s)}, m.why_not(s)) for m, s in items]
        plain = [p for p, _ in parts]
        full = [{**p, "why_not": w} if w is not None else p for p, w in parts]
        enc = per_call(lambda p, _: _dumps(p), [(p, None) for p in plain], args.repeat)
        enc_full = per_call(lambda p, _: _dumps(p), [(p, None) for p in full], args.repeat)
        extra = statistics.mean(len(_dumps(f)) - len(_dumps(p)) for p, f in zip(plain, full))
        added = why + enc_full - enc
        share = added / (legal + view + enc) * 100
        print(
            f"{spec.name:<18}{why:>11.2f}{legal:>10.2f}{view:>9.2f}{enc:>9.2f}"
            f"{enc_full - enc:>9.2f}{extra:>8.0f}{share:>7.1f}%"
        )
    print(
        "why_not: the engine call for the seat to act; +json/+bytes: what its key adds to the "
        "payload's encoding; share: both against legal + view + encoding of that seat's state."
    )


if __name__ == "__main__":
    main()
