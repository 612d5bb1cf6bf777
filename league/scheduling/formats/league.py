"""League: everybody meets everybody as evenly as possible, from a schedule made in advance.

Round r is round r of the precomputed schedule for these player ids and seed
(`league.scheduling.league`), as long as what was played (pair meetings and byes) matches that
schedule; after withdrawals or late entries it does not, and the round is optimised against
the history instead. Rounds do not wait for results, and late entries are welcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from league.scheduling import local_search
from league.scheduling.formats.base import Format, gettext_noop, seat_counts
from league.scheduling.league import build_league_schedule
from league.scheduling.leftovers import choose_byes, choose_fours, table_sizes
from league.scheduling.records import PairHistory, PlayerRecord, RoundPlan
from league.scheduling.seating import seat_mixed_round, seat_round

# Annealing steps per player when one league round is planned around what was played.
_FALLBACK_ITERATIONS_PER_PLAYER = 3000


class League(Format):
    name = "league"
    label = gettext_noop("League (everybody meets everybody as evenly as possible)")
    title = gettext_noop("League")
    supports_duplicate = True

    def plan_round(
        self,
        players: Sequence[PlayerRecord],
        history: PairHistory,
        *,
        table_size: int,
        round_no: int,
        leftover: str,
        seed: int,
    ) -> RoundPlan:
        ids = [p.id for p in players]
        schedule = build_league_schedule(ids, table_size, round_no, seed, leftover)
        if _schedule_was_followed(schedule[: round_no - 1], players, history):
            return schedule[round_no - 1]
        return history_aware_round(players, history, table_size, leftover, seed, round_no)

    def preview(
        self, n_players: int, *, table_size: int, rounds: int, seed: int, leftover: str
    ) -> list[RoundPlan]:
        return build_league_schedule(list(range(n_players)), table_size, rounds, seed, leftover)


def _schedule_was_followed(
    played: list[RoundPlan], players: Sequence[PlayerRecord], history: PairHistory
) -> bool:
    """True when history is exactly what the schedule's earlier rounds would have produced."""
    expected = PairHistory.from_rounds(played).meetings
    actual = {k: v for k, v in history.meetings.items() if v}
    if expected != actual:
        return False
    byes: dict[int, int] = {}
    for plan in played:
        for b in plan.byes:
            byes[b] = byes.get(b, 0) + 1
    return all(byes.get(p.id, 0) == p.byes for p in players)


def history_aware_round(
    players: Sequence[PlayerRecord],
    history: PairHistory,
    table_size: int,
    leftover: str,
    seed: int,
    round_no: int,
) -> RoundPlan:
    """One league round that spreads meetings given who has met whom so far.

    Byes go to those with the fewest, by a seeded lottery among equals; tables are found by
    the same annealing as whole schedules, with the history as the starting counts.
    """
    rng = Random(f"league-round:{seed}:{round_no}:{table_size}:{leftover}")
    ordered = sorted(players, key=lambda p: p.id)
    lottery = {p.id: rng.random() for p in ordered}
    sizes, n_byes = table_sizes(len(ordered), table_size, leftover)
    bye_ids = {p.id for p in choose_byes(ordered, n_byes, key=lambda p: lottery[p.id])}
    index = {p.id: i for i, p in enumerate(ordered)}
    n = len(ordered)
    counts = [[0] * n for _ in range(n)]
    for (a, b), m in history.meetings.items():
        if a in index and b in index:
            counts[index[a]][index[b]] = counts[index[b]][index[a]] = m
    sitting = [index[p.id] for p in ordered if p.id not in bye_ids]
    budget = _FALLBACK_ITERATIONS_PER_PLAYER * n
    seats = {p.id: seat_counts(p, table_size) for p in ordered}
    if 4 in sizes and table_size == 3:  # tables of three and four
        at_fours = [s for s in sizes if s == 4]
        present = [ordered[i] for i in sitting]
        chosen = {p.id for p in choose_fours(present, 4 * len(at_fours), lambda p: lottery[p.id])}
        fours = [index[p.id] for p in present if p.id in chosen]
        threes = [index[p.id] for p in present if p.id not in chosen]
        tables = local_search.greedy_round(fours, at_fours, counts, rng)
        tables += local_search.greedy_round(threes, [3] * (len(sizes) - len(at_fours)), counts, rng)
        four_counts = [p.fours + (p.id in chosen) for p in ordered]
        tables = local_search.optimise(n, [tables], counts, rng, budget, four_counts)[0]
        labelled = [[ordered[i].id for i in t] for t in tables]
        return RoundPlan(seat_mixed_round(labelled, seats), tuple(sorted(bye_ids)))
    tables = local_search.greedy_round(sitting, sizes, counts, rng)
    tables = local_search.optimise(n, [tables], counts, rng, budget)[0]
    labelled = [[ordered[i].id for i in t] + [None] * (table_size - len(t)) for t in tables]
    return RoundPlan(seat_round(labelled, seats, table_size), tuple(sorted(bye_ids)))
