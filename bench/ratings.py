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

`--duplicate` measures instead whether duplicate events (`shared/spec/duplicate.md`) would rate
better from their differences than from their payouts (docs/ratings.md, "Duplicate events"):

    .venv/bin/python bench/ratings.py --duplicate [--players 120] [--seats 3,4] [--luck 0,1,2,4,8]
        [--rounds 7,30] [--heldout-rounds 10] [--deals 6] [--section-tables 10] [--noise 1.0]
        [--seeds 10] [--json]

Each round seats every player at a table of `--seats` (at random), the tables in sections of
`--section-tables` that play the same deals. On deal k the seat s of every table of a section
gets the same luck L[k][s] ~ N(0, luck) (the cards; zero-sum over the seats); the player there
adds their hidden skill ~ N(0, 1) and play noise N(0, noise); the table's payouts are those
performances minus the table's mean, in tenths (integers, zero-sum per table), so "luck : skill"
is the ratio of the two standard deviations. The same rating code (`league.ratings.compute`:
PlackettLuce, finishing places) is fed three ways, from the same games:

- raw: each match ranked by total payout, as every event is rated today;
- duplicate: each match ranked by its players' duplicate totals (sum of differences from the
  datum, `league.standings.duplicate_arithmetic.score_section`);
- field: each section rated as one match of all its players ranked by duplicate total (the
  differences compare every player of the section, not only the three or four at a table).

After each number of `--rounds`, with ratings frozen: "winner predicted" is the share of the
tables of `--heldout-rounds` new rounds (new seats, new deals) whose raw winner (highest total
payout, as the event ranks them) is the seated player with the highest μ (oracle: highest true
skill; chance 1/seats); "pairs in order" is the share of all pairs of players that μ orders as
the hidden skills do (a tie in μ counts half); Spearman is μ against the skills. Averages over
`--seeds` leagues; the gain column is duplicate - raw on pairs, ± its standard error over the
leagues (paired: the same games). `--quick` makes every mode tiny (the tests run it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from league.ratings.compute import RatingState, finishing_ranks, initial_state, rate_match
from league.standings.duplicate_arithmetic import DuplicateTable, Section, score_section

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


# --- duplicate events ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateResult:
    """One table's match in a duplicate section: players by seat, total payout and duplicate
    total (sum of differences from the section's datum) per seat."""

    players: tuple[int, ...]
    raw: tuple[int, ...]
    duplicate: tuple[Fraction, ...]


Round = list[list[DuplicateResult]]  # sections of tables


def table_payouts(rng: random.Random, performances: Sequence[float]) -> tuple[int, ...]:
    """One deal at one table: the performances minus their mean, in tenths, zero-sum integers
    (the rounding's remainder goes to a seat drawn at random, so no seat is favoured)."""
    mean = statistics.fmean(performances)
    payouts = [round((x - mean) * 10) for x in performances]
    payouts[rng.randrange(len(payouts))] -= sum(payouts)
    return tuple(payouts)


def duplicate_round(
    rng: random.Random,
    skills: Sequence[float],
    seats: int,
    section_tables: int,
    deals: int,
    luck: float,
    noise: float,
) -> Round:
    """One round of a duplicate event, scored: random tables, sections sharing their deals."""
    order = list(range(len(skills)))
    rng.shuffle(order)
    tables = [tuple(order[i : i + seats]) for i in range(0, len(order) - seats + 1, seats)]
    groups = [tables[i : i + section_tables] for i in range(0, len(tables), section_tables)]
    if len(groups) > 1 and len(groups[-1]) < 2:  # a section needs two tables to compare
        groups[-2].extend(groups.pop())
    scored_round: Round = []
    for group in groups:
        cards = []  # luck per deal and seat, the same at every table of the section
        for _ in range(deals):
            row = [rng.gauss(0.0, luck) for _ in range(seats)]
            mean = statistics.fmean(row)
            cards.append([x - mean for x in row])
        built = []
        for fixture, players in enumerate(group):
            match = tuple(
                table_payouts(
                    rng,
                    [
                        cards[k][s] + skills[p] + rng.gauss(0.0, noise)
                        for s, p in enumerate(players)
                    ],
                )
                for k in range(deals)
            )
            built.append(DuplicateTable(fixture, players, match))
        scores = score_section(Section(tuple(built), deals))
        results = []
        for index, table in enumerate(built):
            raw = tuple(sum(deal[s] for deal in table.deals) for s in range(seats))
            dup = tuple(
                sum((t.tables[index].differences[s] for t in scores.travellers), Fraction(0))
                for s in range(seats)
            )
            results.append(DuplicateResult(table.players, raw, dup))
        scored_round.append(results)
    return scored_round


FEEDS = ("raw", "duplicate", "field")


def rate_round(states: list[RatingState], feed: str, scored_round: Round) -> None:
    """Rate one round's matches into `states` (by player), the way `feed` says."""
    for section in scored_round:
        if feed == "field":
            matches = [
                (
                    [p for r in section for p in r.players],
                    [d for r in section for d in r.duplicate],
                )
            ]
        else:
            matches = [(r.players, r.raw if feed == "raw" else r.duplicate) for r in section]
        for players, scores in matches:
            after = rate_match([states[p] for p in players], finishing_ranks(scores))
            for p, state in zip(players, after):
                states[p] = state


def pairs_in_order(mus: Sequence[float], skills: Sequence[float]) -> float:
    """Share of the pairs of players whose μ order is their true skills' order (a μ tie: half)."""
    agree = 0.0
    pairs = 0
    for i in range(len(mus)):
        for j in range(i + 1, len(mus)):
            product = (mus[i] - mus[j]) * (skills[i] - skills[j])
            agree += 1.0 if product > 0 else 0.5 if product == 0 else 0.0
            pairs += 1
    return agree / pairs


def raw_winner_predicted(heldout: Sequence[Round], strength: Callable[[int], float]) -> float:
    """Share of held-out tables whose raw winner (shared first place too) is the seated player
    with the highest strength."""
    hits = tables = 0
    for scored_round in heldout:
        for section in scored_round:
            for r in section:
                ranks = finishing_ranks(r.raw)
                pick = max(range(len(r.players)), key=lambda s: strength(r.players[s]))
                hits += ranks[pick] == 1
                tables += 1
    return hits / tables


def duplicate_league(
    args: argparse.Namespace, seats: int, luck: float, seed: int, checkpoints: Sequence[int]
) -> dict[int, dict]:
    """One league: figures per checkpoint (rounds rated) for every feed, and the oracle's."""
    rng = random.Random(f"duplicate/{seed}/{seats}/{luck}")
    skills = [rng.gauss(0.0, 1.0) for _ in range(args.players)]

    def play() -> Round:
        return duplicate_round(
            rng, skills, seats, args.section_tables, args.deals, luck, args.noise
        )

    rounds = [play() for _ in range(max(checkpoints))]
    heldout = [play() for _ in range(args.heldout_rounds)]
    oracle = raw_winner_predicted(heldout, skills.__getitem__)
    states = {feed: [initial_state()] * args.players for feed in FEEDS}
    out: dict[int, dict] = {}
    for n, scored_round in enumerate(rounds, start=1):
        for feed in FEEDS:
            rate_round(states[feed], feed, scored_round)
        if n in checkpoints:
            figures: dict = {"oracle_winner": oracle}
            for feed in FEEDS:
                mus = [s.mu for s in states[feed]]
                figures[feed] = {
                    "winner": raw_winner_predicted(heldout, mus.__getitem__),
                    "pairs": pairs_in_order(mus, skills),
                    "spearman": spearman(mus, skills),
                }
            out[n] = figures
    return out


def run_duplicate(args: argparse.Namespace) -> list[dict]:
    """Every (rounds, luck, seats) cell averaged over the seeds, as JSON-ready records."""
    checkpoints = sorted(set(args.rounds))
    records = []
    cells: dict[tuple[int, float, int], list[dict]] = {}
    for seats in args.seats:
        for luck in args.luck:
            for seed in range(1, args.seeds + 1):
                for n, figures in duplicate_league(args, seats, luck, seed, checkpoints).items():
                    cells.setdefault((n, luck, seats), []).append(figures)
    for (n, luck, seats), leagues in sorted(cells.items()):
        record: dict = {
            "rounds": n,
            "luck": luck,
            "seats": seats,
            "leagues": len(leagues),
            "chance_winner": 1 / seats,
            "oracle_winner": statistics.fmean(f["oracle_winner"] for f in leagues),
        }
        for feed in FEEDS:
            record[feed] = {
                key: statistics.fmean(f[feed][key] for f in leagues)
                for key in ("winner", "pairs", "spearman")
            }
        gains = [f["duplicate"]["pairs"] - f["raw"]["pairs"] for f in leagues]
        record["pairs_gain"] = statistics.fmean(gains)
        record["pairs_gain_se"] = (
            statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else None
        )
        records.append(record)
    return records


def print_duplicate(args: argparse.Namespace, records: list[dict]) -> None:
    print(
        f"{args.players} players, sections of {args.section_tables} tables, {args.deals} deals "
        f"a match, skill ~ N(0, 1), play noise {args.noise}, {args.heldout_rounds} held-out "
        f"rounds, {args.seeds} league(s) per cell"
    )
    for n in sorted({r["rounds"] for r in records}):
        print(f"\nAfter {n} rounds rated (one match each per round):\n")
        print(
            "| luck : skill | seats | winner predicted: raw / duplicate / field (oracle) "
            "| pairs in skill order: raw / duplicate / field | Spearman: raw / duplicate / field "
            "| duplicate - raw (pairs) |"
        )
        print("|---|---|---|---|---|---|")
        for r in (r for r in records if r["rounds"] == n):
            winners = " / ".join(f"{r[f]['winner']:.1%}" for f in FEEDS)
            pairs = " / ".join(f"{r[f]['pairs']:.1%}" for f in FEEDS)
            rhos = " / ".join(f"{r[f]['spearman']:.3f}" for f in FEEDS)
            se = r["pairs_gain_se"]
            gain = f"{r['pairs_gain'] * 100:+.1f}" + (
                f" ± {se * 100:.1f}" if se is not None else ""
            )
            print(
                f"| {r['luck']:g} | {r['seats']} | {winners} ({r['oracle_winner']:.1%}) "
                f"| {pairs} | {rhos} | {gain} pt |"
            )


def numbers(kind: type) -> Callable[[str], list]:
    return lambda text: [kind(x) for x in text.split(",") if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, help="300 (--duplicate: 120)")
    parser.add_argument("--matches", type=int, default=20000)
    parser.add_argument("--holdout", type=float, default=0.1)
    parser.add_argument("--noise", type=float, default=1.0, help="performance noise (sd)")
    parser.add_argument("--seeds", type=int, help="leagues to average over (1; --duplicate: 10)")
    parser.add_argument("--quick", action="store_true", help="a tiny run (for the tests)")
    duplicate = parser.add_argument_group("duplicate events (--duplicate)")
    duplicate.add_argument("--duplicate", action="store_true", help="raw payouts vs differences")
    duplicate.add_argument("--seats", type=numbers(int), default=[3, 4])
    duplicate.add_argument("--luck", type=numbers(float), default=[0, 1, 2, 4, 8])
    duplicate.add_argument("--rounds", type=numbers(int), default=[7, 30])
    duplicate.add_argument("--heldout-rounds", type=int, default=10)
    duplicate.add_argument("--deals", type=int, default=6, help="deals a match")
    duplicate.add_argument("--section-tables", type=int, default=10)
    duplicate.add_argument("--json", action="store_true", help="one JSON list instead of tables")
    args = parser.parse_args()
    if args.duplicate:
        if args.quick:
            args.players, args.seats, args.luck = 24, [3, 4], [0.0, 4.0]
            args.rounds, args.heldout_rounds, args.deals, args.section_tables = [2, 4], 2, 3, 4
            args.seeds = 2
        args.players = args.players or 120
        args.seeds = args.seeds or 10
        if args.players < 2 * max(args.seats) or min(args.seats) < 2:
            parser.error("--duplicate needs seats ≥ 2 and players for two tables of the most seats")
        if min(args.rounds) < 1 or args.heldout_rounds < 1 or args.deals < 1:
            parser.error("--rounds, --heldout-rounds and --deals must be at least 1")
        records = run_duplicate(args)
        if args.json:
            print(json.dumps(records))
        else:
            print_duplicate(args, records)
        return
    if args.quick:
        args.players, args.matches = 30, 600
    args.players = args.players or 300
    args.seeds = args.seeds or 1

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
