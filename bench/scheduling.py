"""Scheduling benchmark (not a test): time and quality of league schedules and Swiss rounds.

    .venv/bin/python bench/scheduling.py            # the figures in docs/scheduling.md
    .venv/bin/python bench/scheduling.py --table    # rounds without repeats, N = 3..40

Quality: max pair meetings, pairs that met more than once, seat imbalance (largest
most-minus-fewest seat count of any player) at the end and the worst after any round.
Times are wall clock on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.scheduling import PairHistory, PlayerRecord, plan_round
from league.scheduling.league import _sequence, build_league_schedule, no_repeat_bound
from league.scheduling.metrics import schedule_quality
from league.scheduling.preview import simulate_swiss

FIELDS = [9, 15, 16, 21, 28, 32, 40, 100, 300, 3000]
# Best published no-repeat round counts for fields that fill their tables (social golfer
# literature); None where we know only the counting bound.
LITERATURE = {
    (6, 3): 1, (9, 3): 4, (12, 3): 4, (15, 3): 7, (18, 3): 8, (21, 3): 10, (24, 3): 11,
    (27, 3): 13, (30, 3): 14, (33, 3): 16, (36, 3): 17, (39, 3): 19,
    (8, 4): 1, (12, 4): 1, (16, 4): 5, (20, 4): 5, (24, 4): 7, (28, 4): 9, (32, 4): 10,
    (36, 4): 11, (40, 4): 13,
}  # fmt: skip


def table_size_for(n: int) -> int:
    return 4 if n % 4 == 0 and n % 3 != 0 else 3


def worst_seat_imbalance(plans: list, players: list[int], k: int) -> int:
    """Largest seat imbalance of any player after any round (prefix balance)."""
    seats = {p: [0] * k for p in players}
    worst = 0
    for plan in plans:
        for t in plan.tables:
            for s, p in enumerate(t):
                if p is not None:
                    seats[p][s] += 1
        worst = max(worst, max(max(c) - min(c) for c in seats.values()))
    return worst


def league_row(n: int, k: int, rounds: int) -> str:
    ids = list(range(n))
    start = time.perf_counter()
    plans = build_league_schedule(ids, k, rounds, seed=0)
    elapsed = time.perf_counter() - start
    q = schedule_quality(plans, ids, k)
    return (
        f"| {n} | {k} | {rounds} | {elapsed:.2f} | {q.max_pair_meetings} | "
        f"{q.repeated_pairs} | {q.seat_imbalance} | {worst_seat_imbalance(plans, ids, k)} |"
    )


def swiss_row(n: int, k: int, rounds: int) -> str:
    """Times plan_round alone for the last round, after simulated earlier rounds."""
    played = simulate_swiss(n, k, rounds - 1, seed=0) if rounds > 1 else []
    seats = {p: [0] * k for p in range(n)}
    byes = dict.fromkeys(range(n), 0)
    for plan in played:
        for t in plan.tables:
            for s, p in enumerate(t):
                if p is not None:
                    seats[p][s] += 1
        for p in plan.byes:
            byes[p] += 1
    records = [
        PlayerRecord(id=p, position=p + 1, seat_counts=tuple(seats[p]), byes=byes[p])
        for p in range(n)
    ]
    history = PairHistory.from_rounds(played)
    start = time.perf_counter()
    plan = plan_round(records, history, k, "swiss", rounds)
    elapsed = time.perf_counter() - start
    q = schedule_quality([*played, plan], list(range(n)), k)
    worst = worst_seat_imbalance([*played, plan], list(range(n)), k)
    return (
        f"| {n} | {k} | {rounds} | {elapsed:.3f} | {q.max_pair_meetings} | "
        f"{q.repeated_pairs} | {q.seat_imbalance} | {worst} |"
    )


def no_repeat_table() -> None:
    print("| N | k | rounds without repeats reached | literature | counting bound | seconds |")
    print("|---|---|---|---|---|---|")
    for k in (3, 4):
        for n in range(k, 41):
            if n % k:
                continue
            start = time.perf_counter()
            seq = _sequence(tuple(range(n)), k, "bye", 0)
            seq.first(1)
            elapsed = time.perf_counter() - start
            reached = seq.first_cycle_length
            lit = LITERATURE.get((n, k), no_repeat_bound(n, k) if n <= k * k else None)
            shown = "?" if lit is None else lit
            print(f"| {n} | {k} | {reached} | {shown} | {no_repeat_bound(n, k)} | {elapsed:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="print the N = 3..40 table")
    args = parser.parse_args()
    if args.table:
        no_repeat_table()
        return
    print("League schedules (rounds = counting bound for N <= 40, else 10)")
    print(
        "| N | k | rounds | seconds | max meetings | repeated pairs | seat imbalance "
        "| worst after any round |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in FIELDS:
        if n > 300:
            continue  # a round robin of 3,000 is not an event anyone runs: Swiss below
        k = table_size_for(n)
        rounds = no_repeat_bound(n, k) if n <= 40 else 10
        print(league_row(n, k, rounds), flush=True)
    print()
    print("Swiss: one plan_round call for round 5 after 4 simulated rounds")
    print(
        "| N | k | round | seconds | max meetings | repeated pairs | seat imbalance "
        "| worst after any round |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in FIELDS:
        k = 3 if n in (300, 3000) else table_size_for(n)
        print(swiss_row(n, k, 5), flush=True)


if __name__ == "__main__":
    main()
