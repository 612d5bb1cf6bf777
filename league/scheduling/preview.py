"""Whole-event previews for organizers (and the preview_schedule command).

A Swiss event depends on results, so its preview simulates them: each player gets a hidden
strength drawn from the seed, each table finishes in order of strength plus seeded noise,
and the standings that follow seed the next round. Same seed, same preview.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from league.scheduling.errors import SchedulingError
from league.scheduling.league import build_league_schedule
from league.scheduling.metrics import ScheduleQuality, schedule_quality
from league.scheduling.planner import plan_round
from league.scheduling.records import PairHistory, PlayerRecord, RoundPlan
from league.scheduling.validation import check_event


@dataclass(frozen=True)
class Preview:
    rounds: list[RoundPlan]
    quality: ScheduleQuality


def preview_event(
    n_players: int,
    table_size: int,
    rounds: int,
    fmt: str,
    seed: int = 0,
    leftover: str = "bye",
) -> Preview:
    """Schedule players 0..n-1 for `rounds` rounds of a league or Swiss event."""
    ids = list(range(n_players))
    check_event(ids, table_size, leftover, rounds=rounds, fmt=fmt)
    if fmt == "league":
        plans = build_league_schedule(ids, table_size, rounds, seed, leftover)
    elif fmt == "swiss":
        plans = simulate_swiss(n_players, table_size, rounds, seed, leftover)
    else:
        raise SchedulingError("Previews cover league and swiss events; knockout needs results.")
    return Preview(plans, schedule_quality(plans, ids, table_size))


def simulate_swiss(
    n_players: int, table_size: int, rounds: int, seed: int, leftover: str = "bye"
) -> list[RoundPlan]:
    """Swiss rounds with results simulated from the seed (see module docstring)."""
    rng = Random(f"swiss-preview:{seed}:{n_players}:{table_size}")
    strength = [rng.gauss(0.0, 1.0) for _ in range(n_players)]
    points = [0.0] * n_players
    seats = [[0] * table_size for _ in range(n_players)]
    byes = [0] * n_players
    plans: list[RoundPlan] = []
    tables_so_far: list = []
    history = PairHistory()
    for round_no in range(1, rounds + 1):
        order = sorted(range(n_players), key=lambda p: (-points[p], -strength[p], p))
        position = {p: i + 1 for i, p in enumerate(order)}
        records = [
            PlayerRecord(
                id=p,
                position=position[p],
                match_points=points[p],
                seat_counts=tuple(seats[p]),
                byes=byes[p],
            )
            for p in range(n_players)
        ]
        plan = plan_round(records, history, table_size, "swiss", round_no, leftover, seed)
        plans.append(plan)
        for table in plan.tables:
            humans = [p for p in table if p is not None]
            for seat, p in enumerate(table):
                if p is not None:
                    seats[p][seat] += 1
            finish = sorted(humans, key=lambda p: -(strength[p] + rng.gauss(0.0, 1.0)))
            for place, p in enumerate(finish):
                points[p] += len(humans) - 1 - place
        for p in plan.byes:
            byes[p] += 1
            points[p] += (table_size - 1) / 2
        tables_so_far += plan.tables
        history = PairHistory.from_tables(tables_so_far)
    return plans
