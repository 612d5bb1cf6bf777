"""Benchmark: recompute the standings of a 2,000-player, 20,000-fixture event in pure Python.

    .venv/bin/python bench/standings.py [--players 2000] [--fixtures 20000] [--runs 5] [--no-django]

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
# The Django part: the same event stored as rows, recomputed through the service (loading the
# results from the database) and the standings page rendered from its snapshot.
# ---------------------------------------------------------------------------------------------
def bench_render_page(event: SyntheticEvent, runs: int = 3) -> dict[str, float]:
    """Seconds (median) of the service recompute and of one standings page render."""
    import tempfile

    import django

    tmp = tempfile.mkdtemp(prefix="mediana-bench-")
    # A throwaway SQLite database in a temp dir: never the deployment's (or CI's) database.
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("SECRET_KEY", "bench")
    os.environ["MEDIANA_VAR_DIR"] = tmp
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from league.models import Entry, Event, Fixture, Player, Result, Round, Seat
    from league.services.standings import compute_rows, refresh_standings

    call_command("migrate", verbosity=0)
    Event.objects.filter(slug="bench-standings").delete()
    ev = Event.objects.create(
        slug="bench-standings",
        name="Bench",
        game="saichugen",
        visibility="published",
        tiebreaks=list(ALL_TIEBREAKS),
        seed=7,
    )
    people = Player.objects.bulk_create(Player(name=f"bench-{ev.pk}-{p}") for p in event.players)
    pid = {p: person.pk for p, person in zip(event.players, people)}
    Entry.objects.bulk_create(Entry(event=ev, player_id=pid[p]) for p in event.players)
    rounds = {
        n: Round.objects.create(event=ev, number=n, status="published")
        for n in sorted({m.round_no for m in event.matches})
    }
    fixtures = Fixture.objects.bulk_create(
        Fixture(round=rounds[m.round_no], number=i) for i, m in enumerate(event.matches)
    )
    Seat.objects.bulk_create(
        Seat(fixture=f, number=n, player_id=pid[p])
        for f, m in zip(fixtures, event.matches)
        for n, p in enumerate(m.players)
    )
    results = []
    for f, m in zip(fixtures, event.matches):
        winners = [n for n, p in enumerate(m.players) if p in m.winners]
        deal = {"dealer": 0, "scores": [0] * len(m.players), "payouts": list(m.payouts)}
        scored = {
            "game": "saichugen",
            "complete": True,
            "deals": [deal],
            "totals": {"scores": deal["scores"], "payouts": list(m.payouts)},
            "winners": winners,
        }
        forfeited = [n for n, p in enumerate(m.players) if p in m.forfeited]
        results.append(
            Result(fixture=f, version=1, source="sheet", scored=scored, forfeited_seats=forfeited)
        )
    Result.objects.bulk_create(results, batch_size=2000)
    recompute, _ = time_it(lambda: compute_rows(ev), runs)
    refresh_standings(ev)
    ev.refresh_from_db()
    client = Client()
    url = f"/events/{ev.slug}/standings/"

    def render() -> None:
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"standings page answered {response.status_code}")

    page, _ = time_it(render, runs)
    return {
        "service recompute (DB load + rank)": recompute,
        "standings page render (one page of 100 rows)": page,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--fixtures", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-django",
        dest="django",
        action="store_false",
        help="skip the database recompute and page render (on a throwaway SQLite database)",
    )
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

    if args.django:
        for label, seconds in bench_render_page(event, args.runs).items():
            print(f"{label}: median {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
