"""Scheduling benchmark (not a test): league schedules of tables of three and four.

    .venv/bin/python bench/mixed_tables.py 6 40    # the table in docs/scheduling.md

For each headcount, a round robin's length of rounds (an average player could meet everyone
once), seed 0: the rounds reached without a repeated pair against the counting bound
(`no_repeat_bound`), the repeats (meetings beyond a pair's first) against a lower bound, the
most meetings of a pair, the spread of tables of four (at the end, and the worst after any
round), the seat spread at the tables of three, and the seconds to build it on one core.

The lower bound on repeats: M - P (pair meetings the rounds hold minus the pairs there are),
or, if larger, half the sum over players of their meetings beyond n - 1 others (a player
who played f fours in R rounds met 2R + f, with the fours shared as evenly as possible).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.scheduling.league import build_league_schedule, no_repeat_bound
from league.scheduling.leftovers import table_sizes
from league.scheduling.metrics import schedule_quality


def lower_bound(n: int, rounds: int, sizes: list[int]) -> int:
    """Fewest repeats any schedule of these rounds can have (see the docstring)."""
    pairs = n * (n - 1) // 2
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    q, r = divmod(4 * sizes.count(4) * rounds, n)
    beyond = sum(max(0, 2 * rounds + f - (n - 1)) for f in [q + 1] * r + [q] * (n - r))
    return max(meetings - pairs, -(-beyond // 2), 0)


def row(n: int) -> str:
    start = time.perf_counter()
    sizes, byes = table_sizes(n, 3, "mixed")
    rounds = max(1, -(-(n - 1) * n // sum(s * (s - 1) for s in sizes)))
    plans = build_league_schedule(list(range(n)), 3, rounds, seed=0, leftover="mixed")
    elapsed = time.perf_counter() - start
    meet: Counter[tuple[int, int]] = Counter()
    reached = None
    worst_fours = 0
    for i, plan in enumerate(plans):
        for table in plan.tables:
            for j, a in enumerate(table):
                for b in table[j + 1 :]:
                    meet[(min(a, b), max(a, b))] += 1
        if reached is None and max(meet.values()) > 1:
            reached = i
        worst_fours = max(worst_fours, schedule_quality(plans[: i + 1], range(n), 3).four_spread)
    repeats = sum(m - 1 for m in meet.values() if m > 1)
    quality = schedule_quality(plans, list(range(n)), 3)
    shape = "+".join(f"{sizes.count(s)} x {s}" for s in (4, 3) if sizes.count(s))
    shape += f", {byes} bye" if byes else ""
    return (
        f"| {n} | {shape} | {rounds} | {rounds if reached is None else reached} | "
        f"{no_repeat_bound(n, 3, 'mixed')} | {repeats} | {lower_bound(n, rounds, sizes)} | "
        f"{max(meet.values())} | {quality.four_spread} ({worst_fours}) | "
        f"{quality.seat_imbalance} | {elapsed:.2f} |"
    )


def main() -> None:
    low, high = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (6, 40)
    print(
        "| N | tables | rounds | reached without a repeat | counting bound | repeats | "
        "lower bound | most meetings | fours spread (worst after any round) | "
        "seat spread at threes | seconds |"
    )
    print("|" + "---|" * 11)
    for n in range(low, high + 1):
        print(row(n), flush=True)


if __name__ == "__main__":
    main()
