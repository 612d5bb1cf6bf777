"""A bot level against the same level of an earlier revision, on duplicate deals.

    .venv/bin/python bench/versus_revision.py --rev d21c949 [--games schieberamsch,mediatore]
        [--level strong] [--deals 200] [--seed 1] [--seconds 0.3 | --iterations N]
        [--processes 2] [--deal-lines]

Why: "is the new strong better than the old one?" asks for both in one game. The revision's
``games/`` is taken from git into a scratch folder as a second package, ``games_then`` (its
imports rewritten), so both live in one process: the deal is played with the old level in every
seat (the baseline), then once per seat with the new level in that seat and the old one in the
others (``games.evaluate.duplicate_deal``). Bots see only their view and their legal list, plain
data, so an old bot plays a new engine's match as long as the views did not change (the engines'
views are the public protocol's: they do not). Prints one JSON line a game: the mean of
new - old a deal, its 95 % interval, won / lost shares and the wall time.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
THEN = "games_then"


def extract(rev: str, into: Path) -> None:
    """The revision's ``games/`` as the package ``games_then`` under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "games"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "games").rename(into / THEN)
    imports = re.compile(r"\b(from|import) games(?=[. ])|\"games\.")
    for path in (into / THEN).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(
            imports.sub(
                lambda m: f'"{THEN}.' if m.group(0).startswith('"') else f"{m.group(1)} {THEN}",
                text,
            ),
            encoding="utf-8",
        )


def _then_chooser(game: str, level: str, seconds: float, iterations: int | None) -> Any:
    import importlib

    importlib.import_module(f"{THEN}.bots")  # registers the revision's levels
    registry = importlib.import_module(f"{THEN}.core.bots.registry")
    search = importlib.import_module(f"{THEN}.core.bots.search")
    bot = registry.get_bot(game, level)
    if not bot.searches:
        return bot.choose
    budget = search.Budget(seconds=None if iterations else seconds, iterations=iterations)
    return lambda view, legal, rng, **_: bot.choose(view, legal, rng, budget=budget)


def _one(job: tuple[str, str, str, str, float, int | None]) -> float:
    scratch, game, seed, level, seconds, iterations = job
    sys.path[:0] = [str(ROOT), scratch]
    from games import evaluate
    from games.core.bots.search import Budget

    budget = Budget(seconds=None if iterations else seconds, iterations=iterations)
    now = evaluate.chooser(game, level, budget)
    then = _then_chooser(game, level, seconds, iterations)
    diff, _, _ = evaluate.duplicate_deal(game, seed, now, then)
    return diff


def _numbered(job: tuple[int, tuple[str, str, str, str, float, int | None]]) -> tuple[int, float]:
    return job[0], _one(job[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", required=True, help="the earlier revision (a commit)")
    parser.add_argument("--games", default="schieberamsch,mediatore,three_five_eight")
    parser.add_argument("--level", default="strong")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds a move")
    parser.add_argument("--iterations", type=int, help="worlds a move instead (reproducible)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--deal-lines", action="store_true", help="print each deal's new - old")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        extract(args.rev, Path(scratch))
        for game in args.games.split(","):
            jobs = [
                (scratch, game, f"{args.seed}/{i}", args.level, args.seconds, args.iterations)
                for i in range(args.deals)
            ]
            started = time.perf_counter()
            diffs = []
            with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
                # Each deal's line as it is done: a run cut short still gives its deals.
                for i, diff in pool.imap_unordered(_numbered, enumerate(jobs), chunksize=1):
                    diffs.append(diff)
                    if args.deal_lines:
                        print(json.dumps({"game": game, "deal": i, "diff": diff}), flush=True)
            mean = statistics.fmean(diffs)
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
            print(
                json.dumps(
                    {
                        "game": game,
                        "level": args.level,
                        "rev": args.rev,
                        "deals": len(diffs),
                        "new_minus_old": round(mean, 3),
                        "ci95": [round(mean - half, 3), round(mean + half, 3)],
                        "won": round(sum(d > 0 for d in diffs) / len(diffs), 3),
                        "lost": round(sum(d < 0 for d in diffs) / len(diffs), 3),
                        "seconds": round(time.perf_counter() - started),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
