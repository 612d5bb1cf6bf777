"""Measure the bots: strength on duplicate deals, and how their auctions go.

    .venv/bin/python -m gameplay.bots.evaluate [--deals 500] [--games saichugen,...]
    .venv/bin/python -m gameplay.bots.evaluate --games mediatore --level basic \\
        --baseline random --others basic
    .venv/bin/python -m gameplay.bots.evaluate --auctions --games mediatore --deals 2000

Strength: for deal i (seed i, one-deal match) the seat under test is i mod seats; the other seats
play at the `--others` level (default: uniformly random legal actions), each from its own seeded
generator. The deal is played twice, once with the `--level` bot in that seat and once with the
`--baseline` one; the figure is the mean payout difference (level - baseline) with a 95%
confidence interval (paired, normal approximation).

Auctions (`--auctions`, games with a bidding phase): all seats play the `--level` bot; it counts
how often each seat (by auction position, eldest first) bids, which contract the auction ends in
and how often its declarer wins. A deal counts as *biddable* when some seat, made to declare the
game's lowest contract while the others pass, wins it with the same bot playing every seat: a
hindsight bound on how many auctions a perfect bidder would open.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from typing import Any

from gameplay.bots import choose_action, get_bot
from gameplay.bots.common import random_action
from gameplay.bots.registry import Chooser
from gameplay.engines import registry
from gameplay.engines.base import Match


def _random(view: dict[str, Any], legal: list[Any], rng: random.Random) -> dict[str, Any]:
    return random_action(legal, rng)


def chooser(game: str, level: str) -> Chooser:
    """The choose function of a level (`random` is the shared baseline)."""
    return _random if level == "random" else get_bot(game, level).choose


def play_table(
    game: str, seed: int, players: list[Chooser], forced: dict[int, int] | None = None
) -> Match:
    """One seeded one-deal match played to its end, seat s by ``players[s]`` (each with its own
    generator). ``forced`` {seat: index}: in the auction that seat's first turn takes its
    ``index``-th legal action and every other turn there passes (a contract made to order)."""
    match = registry.start_match(game, seed=seed, n_deals=1)
    rngs = [random.Random(f"{seed}/{s}") for s in range(match.SEATS)]
    pending = dict(forced or {})
    while not match.finished:
        s = match.to_act()[0]
        legal = match.legal(s)
        if forced is not None and {"act": "pass"} in legal:
            action = dict(legal[pending.pop(s)]) if s in pending else {"act": "pass"}
        else:
            action = players[s](match.view(s), legal, rngs[s])
        match.apply(s, action)
    return match


def play_deal(game: str, seed: int, seat: int, bot: bool) -> int:
    """Payout of `seat` in one seeded deal, played by the basic bot or at random (the others
    at random)."""
    players = [_random] * registry.get_game(game).seats
    if bot:
        players[seat] = lambda view, legal, rng: choose_action(game, view, legal, rng)
    return play_table(game, seed, players).result()["totals"]["payouts"][seat]


def compare(
    game: str, deals: int, level: str = "basic", baseline: str = "random", others: str = "random"
) -> dict[str, Any]:
    """Duplicate deals: `level` against `baseline` in the same seat, the rest at `others`."""
    seats = registry.get_game(game).seats
    test, base, rest = chooser(game, level), chooser(game, baseline), chooser(game, others)
    diffs = []
    started = time.perf_counter()
    for i in range(deals):
        seat = i % seats
        pays = []
        for player in (test, base):
            players = [rest] * seats
            players[seat] = player
            pays.append(play_table(game, i, players).result()["totals"]["payouts"][seat])
        diffs.append(pays[0] - pays[1])
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {
        "game": game,
        "level": level,
        "baseline": baseline,
        "others": others,
        "deals": deals,
        "mean_diff": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "bot_better": sum(d > 0 for d in diffs),
        "equal": sum(d == 0 for d in diffs),
        "seconds": round(time.perf_counter() - started, 1),
    }


def evaluate(game: str, deals: int) -> dict[str, Any]:
    """The standard figure: the basic bot against a random player, the others random."""
    out = compare(game, deals)
    for key in ("level", "baseline", "others"):
        del out[key]
    return out


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--games", default=",".join(registry.game_names()))
    parser.add_argument("--level", default="basic", help="the bot under test")
    parser.add_argument("--baseline", default="random", help="what it is compared with")
    parser.add_argument("--others", default="random", help="who plays the other seats")
    parser.add_argument(
        "--auctions", action="store_true", help="how auctions go among four --level bots"
    )
    args = parser.parse_args()
    for game in args.games.split(","):
        if args.auctions:
            print(auctions(game, args.deals, args.level), flush=True)
        else:
            print(compare(game, args.deals, args.level, args.baseline, args.others), flush=True)


if __name__ == "__main__":
    main()
