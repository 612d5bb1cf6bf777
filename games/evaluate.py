"""Measure the bots: strength on duplicate deals, and how their auctions go.

    .venv/bin/python -m games.evaluate --bot strong --against basic --deals 200 \\
        --seed 1 [--iterations 20 | --seconds 0.3] [--games schieberamsch,...] [--json] \\
        [--inference off|auction|all] [--against-inference off|auction|all]
    .venv/bin/python -m games.evaluate --auctions --games mediatore --deals 2000

Strength, on duplicate deals: deal *i* (a one-deal match from the seed ``S/i``) is played once
with every seat at the `--against` level (the baseline), then once per seat with the `--bot` in
that seat and the baseline elsewhere. Same cards, same opponents: each seat's generator is
seeded by ``S/i/seat`` in every run, so the runs differ only by who sits in that seat. The
figure of a deal is the mean over seats of the bot's payout minus the baseline's from the same
seat; printed per game: deals, mean difference, 95% confidence interval (normal, over deals),
the share of deals won / tied / lost, and the bot's CPU per move (mean, p95, every decision it
took, forced ones included). `--iterations` gives a searching bot a number of worlds per move,
so that a seed gives the same figures; without it, it thinks `--seconds` of CPU a move.
`--inference` sets the searching bot's inference (docs/bots.md, "Inference": `off` uniform
worlds, `auction` every observed action but the cards played, `all` those too; default the
level's), `--against-inference` a searching baseline's: strong with against strong without.

Auctions (`--auctions`, games with a bidding phase): all seats play the `--bot` level; it counts
how often each seat (by auction position, eldest first) bids, which contract the auction ends in
and how often its declarer wins. A deal counts as *biddable* when some seat, made to declare the
game's lowest contract while the others pass, wins it with the same bot playing every seat: a
hindsight bound on how many auctions a perfect bidder would open.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from dataclasses import replace
from typing import Any

from games import registry
from games.bots import get_bot, level, levels
from games.core.base import Match
from games.core.bots import search
from games.core.bots.inference import Inference
from games.core.bots.registry import Chooser
from games.core.bots.search import Budget

# --inference: off (uniform worlds), auction (every observed action but plays), all (plays too)
INFERENCE: dict[str | None, Inference | bool | None] = {
    None: None,
    "off": False,
    "auction": Inference(plays=False),
    "all": Inference(plays=True),
}


def chooser(game: str, name: str, budget: Budget | None = None) -> Chooser:
    """The choose function of a level at this budget (a level that does not search ignores it;
    one that sees the match is given it by `play_table`)."""
    bot = get_bot(game, name)
    if level(name).sees_match:  # it is given the real match (play_table), never at a table
        if budget is None:
            return _sees_match(bot.choose)
        return _sees_match(functools.partial(bot.choose, budget=budget))
    if not bot.searches:
        return bot.choose
    budget = budget or Budget()
    return lambda view, legal, rng: bot.choose(view, legal, rng, budget=budget)


def _sees_match(choose: Chooser) -> Chooser:
    """`choose` marked as one that play_table gives the match (``match=``) besides the view."""

    def sees(view: dict[str, Any], legal: list[Any], rng: random.Random, **match: Any) -> Any:
        return choose(view, legal, rng, **match)

    sees.sees_match = True  # type: ignore[attr-defined]
    return sees


def play_table(
    game: str, seed: int | str, players: list[Chooser], forced: dict[int, int] | None = None
) -> Match:
    """One seeded one-deal match played to its end, seat s by ``players[s]`` (each with its own
    generator, seeded by ``seed/s``). ``forced`` {seat: index}: in the auction that seat's first
    turn takes its ``index``-th legal action and every other turn there passes (a contract made
    to order)."""
    match = registry.start_match(game, seed=seed, n_deals=1)
    rngs = [random.Random(f"{seed}/{s}") for s in range(match.SEATS)]
    pending = dict(forced or {})
    while not match.finished:
        s = match.to_act()[0]
        legal = match.legal(s)
        if forced is not None and {"act": "pass"} in legal:
            action = dict(legal[pending.pop(s)]) if s in pending else {"act": "pass"}
        else:
            sees = {"match": match} if getattr(players[s], "sees_match", False) else {}
            action = players[s](match.view(s), legal, rngs[s], **sees)
        match.apply(s, action)
    return match


def _timed(choose: Chooser, cpu: list[float], searched: dict[str, int]) -> Chooser:
    """`choose`, recording its CPU seconds per decision and the worlds and rollouts it drew."""

    def timed(
        view: dict[str, Any], legal: list[Any], rng: random.Random, **match: Any
    ) -> dict[str, Any]:
        before = dict(search.COUNTS)
        started = time.process_time()
        action = choose(view, legal, rng, **match)
        cpu.append(time.process_time() - started)
        for key in searched:
            searched[key] += search.COUNTS[key] - before[key]
        return action

    timed.sees_match = getattr(choose, "sees_match", False)  # type: ignore[attr-defined]
    return timed


def duplicate_deal(
    game: str, seed: str, bot: Chooser, against: Chooser
) -> tuple[float, list[float], dict[str, int]]:
    """One duplicate deal: the mean over seats of (bot - baseline) in that seat, the bot's CPU
    seconds per decision, and the worlds and rollouts its searches made."""
    seats = registry.get_game(game).seats
    base = play_table(game, seed, [against] * seats).result()["totals"]["payouts"]
    cpu: list[float] = []
    diffs = []
    searched = {"worlds": 0, "rollouts": 0, "draws": 0}
    for seat in range(seats):
        players = [against] * seats
        players[seat] = _timed(bot, cpu, searched)
        pays = play_table(game, seed, players).result()["totals"]["payouts"]
        diffs.append(pays[seat] - base[seat])
    return statistics.fmean(diffs), cpu, searched


def _one(
    job: tuple[str, str, str, str, Budget, Budget],
) -> tuple[float, list[float], dict[str, int]]:
    game, seed, bot, against, budget, against_budget = job
    return duplicate_deal(
        game, seed, chooser(game, bot, budget), chooser(game, against, against_budget)
    )


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def duplicate(
    game: str,
    bot: str = "strong",
    against: str = "basic",
    deals: int = 200,
    seed: int = 0,
    budget: Budget | None = None,
    processes: int = 1,
    against_budget: Budget | None = None,
) -> dict[str, Any]:
    """`bot` against `against` on `deals` duplicate deals (see the module docstring);
    `against_budget`: the baseline's, when it differs (another inference setting)."""
    budget = budget or Budget()
    against_budget = against_budget or budget
    jobs = [(game, f"{seed}/{i}", bot, against, budget, against_budget) for i in range(deals)]
    started = time.perf_counter()
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            done = pool.map(_one, jobs, chunksize=1)
    else:
        done = [_one(job) for job in jobs]
    diffs = [d for d, _, _ in done]
    worlds = sum(c["worlds"] for _, _, c in done)
    rollouts = sum(c["rollouts"] for _, _, c in done)
    draws = sum(c["draws"] for _, _, c in done)
    searches = any(get_bot(game, level).searches for level in (bot, against))
    cpu = [c for _, cs, _ in done for c in cs]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {
        "game": game,
        "bot": bot,
        "against": against,
        "deals": deals,
        "seed": seed,
        "iterations": budget.iterations if searches else None,
        "seconds_per_move": budget.seconds if searches and not budget.iterations else None,
        "mean_diff": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "won": _share(sum(d > 0 for d in diffs), deals),
        "tied": _share(sum(d == 0 for d in diffs), deals),
        "lost": _share(sum(d < 0 for d in diffs), deals),
        "moves": len(cpu),
        "cpu_per_move_ms": {
            "mean": round(1000 * statistics.fmean(cpu), 2) if cpu else 0.0,
            "p95": round(1000 * _percentile(cpu, 0.95), 2),
        },
        "searched": {
            "worlds_per_move": round(worlds / len(cpu), 1) if cpu else 0.0,
            "draws_per_move": round(draws / len(cpu), 1) if cpu else 0.0,
            "rollouts_per_move": round(rollouts / len(cpu), 1) if cpu else 0.0,
            "rollouts_per_cpu_second": round(rollouts / sum(cpu)) if sum(cpu) else 0,
        },
        "seconds": round(time.perf_counter() - started, 1),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def auctions(game: str, deals: int, level: str = "basic", first_seed: int = 0) -> dict[str, Any]:
    """How the auctions of four `level` bots go over seeded deals (see the module docstring)."""
    seats = registry.get_game(game).seats
    players = [chooser(game, level)] * seats
    bid_by: Counter[int] = Counter()  # auction position -> deals in which it bid at least once
    declared_by: Counter[int] = Counter()
    contracts: Counter[str] = Counter()
    won: Counter[str] = Counter()
    pay: Counter[str] = Counter()
    biddable = biddable_contract = hopeless_contract = 0
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + deals):
        match = play_table(game, seed, players)
        view = match.view(None)
        eldest = view["eldest"]
        for s in {b["seat"] for b in view["bids"] if b["act"] == "bid"}:
            bid_by[(s - eldest) % seats] += 1
        contract = view["contract"] or "thrown in"
        contracts[contract] += 1
        if view["contract"]:
            declarer = view["declarer"]
            declared_by[(declarer - eldest) % seats] += 1
            won[contract] += view["outcome"]["won"]
            pay[contract] += match.result()["totals"]["payouts"][declarer]
        # Could anyone have won the lowest contract? (index 1: the first bid after "pass")
        can = any(
            play_table(game, seed, players, forced={s: 1}).view(None)["outcome"]["won"]
            for s in range(seats)
        )
        biddable += can
        if view["contract"]:
            biddable_contract += can
            hopeless_contract += not can
    played = deals - contracts["thrown in"]
    return {
        "game": game,
        "level": level,
        "deals": deals,
        "contract_rate": _share(played, deals),
        "contracts": {c: _share(n, deals) for c, n in contracts.most_common()},
        "bid_by_position": [_share(bid_by[p], deals) for p in range(seats)],
        "declarer_by_position": [_share(declared_by[p], deals) for p in range(seats)],
        "declarer_won": {c: _share(won[c], n) for c, n in contracts.items() if c != "thrown in"},
        "declarer_mean_payout": {
            c: round(pay[c] / n, 2) for c, n in contracts.items() if c != "thrown in"
        },
        "declarer_won_overall": _share(sum(won.values()), played),
        "biddable": _share(biddable, deals),
        "contract_rate_when_biddable": _share(biddable_contract, biddable),
        "contract_rate_when_not_biddable": _share(hopeless_contract, deals - biddable),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bot", help="the level under test (default: strong; basic with --auctions)"
    )
    parser.add_argument("--against", default="basic", help="the baseline it is compared with")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, help="worlds per move (reproducible)")
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per move")
    parser.add_argument("--games", default=",".join(registry.game_names()))
    choices = [name for name in INFERENCE if name]
    parser.add_argument(
        "--inference", choices=choices, help="the bot's inference (default: the level's)"
    )
    parser.add_argument(
        "--against-inference", choices=choices, help="the baseline's inference (a searching one)"
    )
    parser.add_argument("--processes", type=int, default=1, help="deals played in parallel")
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument(
        "--auctions", action="store_true", help="how auctions go among four --bot bots"
    )
    args = parser.parse_args(argv)
    args.bot = args.bot or ("basic" if args.auctions else "strong")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        budget = Budget(
            seconds=args.seconds, iterations=args.iterations, inference=INFERENCE[args.inference]
        )
        against_budget = replace(budget, inference=INFERENCE[args.against_inference])
    except ValueError as exc:
        parser.error(str(exc))
    for game in args.games.split(","):
        if game not in registry.game_names():
            parser.error(f"unknown game {game!r}")
        for name in (args.bot, args.against):
            known = levels(game, unoffered=True)  # the evaluation's own levels too
            if name not in known:
                parser.error(f"no {name!r} bot for {game} (levels: {', '.join(known)})")
    for game in args.games.split(","):
        if args.auctions:
            out = auctions(game, args.deals, args.bot)
        else:
            out = duplicate(
                game,
                args.bot,
                args.against,
                args.deals,
                args.seed,
                budget,
                args.processes,
                against_budget,
            )
        print(json.dumps(out) if args.json else _text(out), flush=True)


def _text(out: dict[str, Any]) -> str:
    if "mean_diff" not in out:
        return str(out)
    lo, hi = out["ci95"]
    cpu = out["cpu_per_move_ms"]
    return (
        f"{out['game']}: {out['bot']} - {out['against']} over {out['deals']} deals: "
        f"{out['mean_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}]; won/tied/lost "
        f"{out['won']:.0%}/{out['tied']:.0%}/{out['lost']:.0%}; CPU per move "
        f"{cpu['mean']:.1f} ms mean, {cpu['p95']:.1f} ms p95 ({out['moves']} moves); "
        f"{out['seconds']} s"
    )


if __name__ == "__main__":
    main()
