"""The collusion detector tried on bots (docs/fair-play.md, "Collusion, tried by simulation").

    .venv/bin/python bench/collusion.py --game G [--tables 20] [--deals 50] [--strength 0.2]
        [--seed 1] [--rollouts 2] [--processes 2] [--json FILE]

A population of bot players at tables of three: at each colluding table a **colluder** (the
`colluder` level below, which exists only here and in the tests, never offered to anyone)
soft-plays for its named partner against an honest third; at each honest table three honest
players (the basic level). Every deal is a one-deal match on the seed ``S/t/i`` with the players
seated anew (so that nobody always sits to the same side of anyone), and the same deal is played
again with the colluder honest: the difference in the partner's payout is what the collusion
moved (duplicate, same cards). Each deal's record is then judged as the site judges a table
(`games.transfers` → `league.fairplay.collusion`), and after every checkpoint of deals the pairs
are scored: the share of colluding pairs found, of honest pairs flagged (three per honest table)
and the honest scores' 99th percentile (what the threshold is calibrated on).

The colluder plays the basic level's action, except at a share `strength` of its decisions
with a choice, where it plays the candidate that puts its partner furthest ahead of the third
(every card known: colluders who show each other their hands, the strongest form there is).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.bots  # noqa: F401  (registers every game's levels)
from games.ask import has_choice
from games.core.bots.search import candidates
from games.core.records import export_record
from games.evaluate import chooser, play_table
from games.transfers import outcomes, record_transfers
from league.fairplay import collusion

CHECKPOINTS = (10, 20, 30, 50, 75, 100, 150, 200)


def colluder(game: str, partner: int, strength: float, rollouts: int = 2) -> Any:
    """A chooser that soft-plays for the seat `partner` at `strength` (see the module text)."""
    basic = chooser(game, "basic")

    def choose(
        view: dict[str, Any], legal: list[Any], rng: random.Random, *, match: Any
    ) -> dict[str, Any]:
        honest = basic(view, legal, rng)
        if rng.random() >= strength or not has_choice(legal):
            return honest
        options = candidates(legal, rng, honest)
        seed = str(rng.getrandbits(32))
        means = outcomes(match, view["seat"], options, rollouts=rollouts, seed=seed)
        third = 3 - view["seat"] - partner
        scored = [(m[partner] - m[third], -i) for i, m in enumerate(means) if m is not None]
        return options[-max(scored)[1]] if scored else honest

    choose.sees_match = True  # type: ignore[attr-defined]
    return choose


def table(job: tuple[str, str, int, int, float, int]) -> dict[str, Any]:
    """One table's deals: its judged decisions (as plain tuples) and, at a colluding table, the
    payout the collusion moved to the partner, deal by deal."""
    game, seed, t, deals, strength, rollouts = job
    colluding = strength > 0
    names = [f"{t}/a", f"{t}/b", f"{t}/c"]  # a soft-plays for b at a colluding table
    rng = random.Random(f"{seed}/{t}/seats")
    basic = chooser(game, "basic")
    judged: list[tuple[Any, ...]] = []
    moved = []
    for i in range(deals):
        order = names[:]
        rng.shuffle(order)  # order[s]: who sits in seat s this deal
        players = [basic] * 3
        if colluding:
            players[order.index(names[0])] = colluder(
                game, order.index(names[1]), strength, rollouts
            )
        deal_seed = f"{seed}/{t}/{i}"
        match = play_table(game, deal_seed, players)
        if colluding:
            honest = play_table(game, deal_seed, [basic] * 3)
            partner = order.index(names[1])
            moved.append(
                match.result()["totals"]["payouts"][partner]
                - honest.result()["totals"]["payouts"][partner]
            )
        found = record_transfers(export_record(match), rollouts=rollouts, seed=deal_seed)
        for d in collusion.decisions_of(f"{t}/{i}", order, found):
            judged.append(
                (i, d.maker, d.others, d.cost, d.gains, d.tilts, d.positions, d.standings)
            )
    return {"table": t, "colluding": colluding, "names": names, "judged": judged, "moved": moved}


def _decisions(done: dict[str, Any], upto: int) -> list[collusion.Decision]:
    return [
        collusion.Decision(
            f"{done['table']}/{i}",
            i,
            0,
            maker,
            tuple(others),
            cost,
            tuple(gains),
            tuple(tilts),
            tuple(places),
            tuple(standings),
        )
        for i, maker, others, cost, gains, tilts, places, standings in done["judged"]
        if i < upto
    ]


def _pairs(
    done: dict[str, Any], upto: int, baseline: collusion.Baseline
) -> list[tuple[bool, float]]:
    """(colluding?, score) of the table's pairs after `upto` deals: the colluding pair only at
    a colluding table, all three at an honest one."""
    lean = collusion.leans(_decisions(done, upto), baseline)
    a, b, c = done["names"]
    wanted = [(a, b)] if done["colluding"] else [(a, b), (a, c), (b, c)]
    out = []
    for x, y in wanted:
        there = [lean[p] for p in ((x, y), (y, x)) if p in lean]
        top = max(there, key=lambda x: x.score) if there else None
        ok = top is not None and top.leaning >= collusion.MIN_DEALS
        out.append((done["colluding"], top.score if ok else float("-inf")))
    return out


def report(done: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    """Detection and false positives at each checkpoint, and the calibration figures."""
    rows = []
    for upto in sorted({c for c in CHECKPOINTS if c < deals} | {deals}):
        # The population's baseline, as the site takes it over all the game's judged tables.
        base = collusion.baseline(x for d in done for x in _decisions(d, upto))
        pairs = [p for d in done for p in _pairs(d, upto, base)]
        bad = [s for col, s in pairs if col]
        good = sorted(s for col, s in pairs if not col)
        q99 = good[min(len(good) - 1, int(0.99 * len(good)))] if good else None
        rows.append(
            {
                "deals": upto,
                "found": round(sum(s >= collusion.THRESHOLD for s in bad) / len(bad), 3)
                if bad
                else None,
                "false_positives": round(sum(s >= collusion.THRESHOLD for s in good) / len(good), 4)
                if good
                else None,
                "honest_q99": None if q99 is None or q99 == float("-inf") else round(q99, 2),
                "colluding_median": round(statistics.median(bad), 2) if bad else None,
            }
        )
    moved = [m for d in done for m in d["moved"]]
    return {
        "moved_per_deal": round(statistics.fmean(moved), 3) if moved else 0.0,
        "colluding_pairs": sum(d["colluding"] for d in done),
        "honest_pairs": 3 * sum(not d["colluding"] for d in done),
        "threshold": collusion.THRESHOLD,
        "min_deals": collusion.MIN_DEALS,
        "checkpoints": rows,
    }


def simulate(
    game: str,
    *,
    tables: int,
    deals: int,
    strength: float,
    seed: int = 1,
    rollouts: int = 2,
    processes: int = 1,
    honest_tables: int | None = None,
    raw: str | None = None,
) -> dict[str, Any]:
    """`tables` colluding tables and `honest_tables` (default as many) honest ones; `raw`: a
    file to keep every table's judged decisions in (JSON), to score them again another way."""
    honest_tables = tables if honest_tables is None else honest_tables
    jobs = [(game, str(seed), t, deals, strength, rollouts) for t in range(tables)]
    jobs += [(game, str(seed), tables + t, deals, 0.0, rollouts) for t in range(honest_tables)]
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            done = pool.map(table, jobs, chunksize=1)
    else:
        done = [table(job) for job in jobs]
    if raw:
        Path(raw).write_text(json.dumps(done))
    out = report(done, deals)
    out.update({"game": game, "strength": strength, "rollouts": rollouts, "seed": seed})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--honest-tables", type=int, default=None)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--strength", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=2)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the result to this file")
    parser.add_argument("--raw", default=None, help="keep the judged decisions in this file")
    parser.add_argument(
        "--score",
        nargs="+",
        metavar="RAW",
        help="score kept --raw files together instead of playing (e.g. one run's honest "
        "tables with another's colluders); --deals is the last checkpoint",
    )
    args = parser.parse_args()
    if args.score:
        done = [t for f in args.score for t in json.loads(Path(f).read_text())]
        print(json.dumps(report(done, args.deals), indent=1))
        return
    out = simulate(
        args.game,
        tables=args.tables,
        deals=args.deals,
        strength=args.strength,
        seed=args.seed,
        rollouts=args.rollouts,
        processes=args.processes,
        honest_tables=args.honest_tables,
        raw=args.raw,
    )
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
