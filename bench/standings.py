"""Benchmark: recompute the standings of a 2,000-player, 20,000-fixture event in pure Python.

    .venv/bin/python bench/standings.py [--players 2000] [--fixtures 20000] [--runs 5]

The event is synthetic and seeded (same records every run): tables of 3 and 4 drawn at random
each round, zero-sum payouts small enough to make many ties (so every tie-break does real work),
~1% forfeits and a bye now and then. Figures go to docs/standings.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.standings import (
    ByeRecord,
    MatchRecord,
    StandingsConfig,
    StandingsRow,
    compute_standings,
    standings_csv_rows,
)

ALL_TIEBREAKS = (
    "head_to_head",
    "opponents_average_payout",
    "wins",
    "total_payouts",
    "lot",
)


@dataclass(frozen=True)
class SyntheticEvent:
    players: list[int]
    matches: list[MatchRecord]
    byes: list[ByeRecord]


def make_event(n_players: int = 2000, n_fixtures: int = 20000, seed: int = 1) -> SyntheticEvent:
    """A seeded event: each round seats everybody at tables of 4 and 3 (a bye if 1-2 are left)."""
    rng = random.Random(seed)
    players = list(range(1001, 1001 + n_players))
    matches: list[MatchRecord] = []
    byes: list[ByeRecord] = []
    round_no = 0
    while len(matches) < n_fixtures:
        round_no += 1
        order = players[:]
        rng.shuffle(order)
        while order and len(matches) < n_fixtures:
            if len(order) < 3:
                byes.extend(ByeRecord(p, round_no, 2) for p in order)
                break
            k = 3 if len(order) in (3, 6) or rng.random() < 0.5 else 4
            seats = tuple(order[:k])
            del order[:k]
            deals = rng.randint(3, 8)
            pay = [rng.randint(-6, 6) for _ in range(k - 1)]
            pay.append(-sum(pay))
            forfeited = frozenset({seats[0]}) if rng.random() < 0.01 else frozenset()
            best = max(pay)
            winners = tuple(sorted(p for p, x in zip(seats, pay) if x == best))
            matches.append(
                MatchRecord(
                    fixture_id=len(matches) + 1,
                    round_no=round_no,
                    players=seats,
                    payouts=tuple(pay),
                    winners=winners,
                    forfeited=forfeited,
                    deals_played=deals,
                )
            )
    return SyntheticEvent(players, matches, byes)


def time_it(fn: Callable[[], object], runs: int) -> tuple[float, list[float]]:
    """Median and all timings (seconds) of `runs` calls."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


# ---------------------------------------------------------------------------------------------
# HOOK for the lead: time "render the standings page" here (needs Django, so it lives outside
# league/standings). Return the seconds of one render, or None while it is not implemented.
# It receives the synthetic event and the rows the pure recomputation produced.
# ---------------------------------------------------------------------------------------------
def bench_render_page(event: SyntheticEvent, rows: list[StandingsRow]) -> float | None:
    """Time rendering the standings page for `rows` (Django part: to be added by the lead)."""
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--fixtures", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    event = make_event(args.players, args.fixtures, args.seed)
    rounds = max(m.round_no for m in event.matches)
    print(
        f"event: {len(event.players)} players, {len(event.matches)} fixtures, "
        f"{rounds} rounds, {len(event.byes)} byes (seed {args.seed}); "
        f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    configs = {
        "no tie-breaks": StandingsConfig(()),
        "total_payouts, wins, lot": StandingsConfig(("total_payouts", "wins", "lot"), 7),
        "all (head_to_head first)": StandingsConfig(ALL_TIEBREAKS, 7),
    }
    rows: list[StandingsRow] = []
    for label, config in configs.items():
        median, times = time_it(
            lambda config=config: compute_standings(
                event.players, event.matches, event.byes, config
            ),
            args.runs,
        )
        print(
            f"compute_standings [{label}]: median {median * 1000:.0f} ms "
            f"(runs: {', '.join(f'{t * 1000:.0f}' for t in times)} ms)"
        )
    config = configs["all (head_to_head first)"]
    rows = compute_standings(event.players, event.matches, event.byes, config)
    median, _ = time_it(lambda: standings_csv_rows(rows, config), args.runs)
    print(f"standings_csv_rows: median {median * 1000:.1f} ms")

    render = bench_render_page(event, rows)
    print(
        "render standings page: "
        + ("not measured yet (bench_render_page hook)" if render is None else f"{render:.3f} s")
    )


if __name__ == "__main__":
    main()
