"""Quality check of the rating models on a synthetic league with hidden true skills.

    .venv/bin/python bench/ratings.py [--players 300] [--matches 20000] [--holdout 0.1]
                                      [--noise 1.0] [--seeds 1]

Each player gets a hidden skill ~ N(0, 1). Each match seats 3 players drawn at random; each
plays a performance = skill + N(0, noise) and the finishing order follows the performances
(a tie when two performances round to the same tenth, so ties happen as in card games).
The models rate the first 90 % of the matches in order; then, with ratings frozen, each predicts
the winner of the held-out 10 % as its player with the highest mu (Elo: highest rating). The
table gives that accuracy (chance is 1/3; "oracle" picks the highest true skill) and the
Spearman correlation of every player's final mu with the true skills, plus the time per match.

Contenders: openskill's five Weng-Lin models with default parameters, and pairwise Elo (each
match = three two-player games by place, K = 16, scale 400, updates from pre-match ratings).
Figures go to docs/ratings.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from league.ratings.compute import finishing_ranks

OPENSKILL_MODELS = [
    PlackettLuce,
    BradleyTerryFull,
    BradleyTerryPart,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
]


@dataclass(frozen=True)
class League:
    skills: list[float]
    matches: list[tuple[tuple[int, ...], list[int]]]  # (players in seat order, ranks)


def make_league(n_players: int, n_matches: int, noise: float, seed: int) -> League:
    rng = random.Random(seed)
    skills = [rng.gauss(0.0, 1.0) for _ in range(n_players)]
    matches = []
    for _ in range(n_matches):
        players = tuple(rng.sample(range(n_players), 3))
        # Performances to a tenth, as payouts: equal ones are a tie (shared place).
        payouts = [round((skills[p] + rng.gauss(0.0, noise)) * 10) for p in players]
        matches.append((players, finishing_ranks(payouts)))
    return League(skills, matches)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var


def accuracy(league: League, test: range, strength: Callable[[int], float]) -> float:
    """Share of held-out matches whose predicted winner (highest strength) finished first."""
    hits = 0
    for i in test:
        players, ranks = league.matches[i]
        pick = max(range(len(players)), key=lambda s: strength(players[s]))
        hits += ranks[pick] == 1
    return hits / len(test)


@dataclass
class Row:
    name: str
    accuracy: float
    spearman: float
    us_per_match: float


def run_openskill(model_class: type, league: League, train: int, test: range) -> Row:
    model = model_class()
    ratings = [model.rating() for _ in league.skills]
    started = time.perf_counter()
    for players, ranks in league.matches[:train]:
        rated = model.rate([[ratings[p]] for p in players], ranks=list(ranks))
        for p, team in zip(players, rated):
            ratings[p] = team[0]
    elapsed = time.perf_counter() - started
    mus = [r.mu for r in ratings]
    return Row(
        model_class.__name__,
        accuracy(league, test, lambda p: mus[p]),
        spearman(mus, league.skills),
        elapsed / train * 1e6,
    )


def run_elo(league: League, train: int, test: range, k: float = 16.0) -> Row:
    ratings = [1500.0] * len(league.skills)
    started = time.perf_counter()
    for players, ranks in league.matches[:train]:
        delta = [0.0] * len(players)
        for a in range(len(players)):
            for b in range(a + 1, len(players)):
                ra, rb = ratings[players[a]], ratings[players[b]]
                expected = 1 / (1 + 10 ** ((rb - ra) / 400))
                score = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                delta[a] += k * (score - expected)
                delta[b] -= k * (score - expected)
        for seat, p in enumerate(players):
            ratings[p] += delta[seat]
    elapsed = time.perf_counter() - started
    return Row(
        f"pairwise Elo (K={k:g})",
        accuracy(league, test, lambda p: ratings[p]),
        spearman(ratings, league.skills),
        elapsed / train * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--matches", type=int, default=20000)
    parser.add_argument("--holdout", type=float, default=0.1)
    parser.add_argument("--noise", type=float, default=1.0, help="performance noise (sd)")
    parser.add_argument("--seeds", type=int, default=1, help="leagues to average over")
    args = parser.parse_args()

    results: dict[str, list[Row]] = {}
    for seed in range(1, args.seeds + 1):
        league = make_league(args.players, args.matches, args.noise, seed)
        train = int(len(league.matches) * (1 - args.holdout))
        test = range(train, len(league.matches))
        rows = [run_openskill(m, league, train, test) for m in OPENSKILL_MODELS]
        rows.append(run_elo(league, train, test))
        skills = league.skills
        oracle = accuracy(league, test, skills.__getitem__)
        rows.append(Row("oracle (true skills)", oracle, 1.0, 0.0))
        for row in rows:
            results.setdefault(row.name, []).append(row)

    print(
        f"{args.players} players, {args.matches} matches of 3, noise {args.noise}, "
        f"held out {args.holdout:.0%}, {args.seeds} league(s)\n"
    )
    print("| model | winner predicted (held out) | Spearman vs true skill | µs per match |")
    print("|---|---|---|---|")
    for name, rows in results.items():
        acc = statistics.fmean(r.accuracy for r in rows)
        rho = statistics.fmean(r.spearman for r in rows)
        us = statistics.fmean(r.us_per_match for r in rows)
        timing = f"{us:.0f}" if us else "—"
        print(f"| {name} | {acc:.1%} | {rho:.4f} | {timing} |")


if __name__ == "__main__":
    main()
