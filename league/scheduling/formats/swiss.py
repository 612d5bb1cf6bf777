"""Swiss: by the standings first, seat balance second, avoiding rematches.

Each round waits for the previous round's results (they make the standings it is cut from).
Round 1 is cut from the seeding (rating, then the event's draw: `league.scheduling.seeding`).
The tables come from `league.scheduling.swiss`. A preview cannot know the results, so it
simulates them: each player gets a hidden strength drawn from the seed, each table finishes in
order of strength plus seeded noise, and the standings that follow seed the next round. Same
seed, same preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from league.scheduling.formats.base import Format, gettext_noop
from league.scheduling.records import Note, PairHistory, PlayerRecord, RoundPlan
from league.scheduling.seeding import SEEDING, first_round_order
from league.scheduling.swiss import swiss_round
from league.scheduling.validation import check_event


class Swiss(Format):
    name = "swiss"
    label = gettext_noop("Swiss (tables by current standings)")
    title = gettext_noop("Swiss")
    needs_results = True
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
        if round_no == 1:
            players = first_round_order(players, seed)
        return swiss_round(players, history, table_size, leftover)

    def first_round_seeding(
        self, players: Sequence[PlayerRecord], seed: int
    ) -> list[PlayerRecord] | None:
        return first_round_order(players, seed)

    def rules(self, round_no: int, *, n_players: int, table_size: int, leftover: str) -> list[Note]:
        if round_no == 1:
            first = Note(SEEDING)
            order = Note(gettext_noop("Neighbours in that order share a table, seed 1 at table 1."))
            return [first, order]
        return [
            Note(
                gettext_noop(
                    "Tables by the standings after round %(last)s. Rematches are avoided "
                    "first; then the top scorers sit at the top table, and a table mixes a "
                    "score with a lower one only when players of that score cannot fill it "
                    "without meeting again; then, where the standings leave a choice, each "
                    "player gets a seat they have held least."
                ),
                {"last": round_no - 1},
            ),
            Note(gettext_noop("Byes go to the lowest-placed among those with the fewest byes.")),
        ]

    def preview(
        self, n_players: int, *, table_size: int, rounds: int, seed: int, leftover: str
    ) -> list[RoundPlan]:
        return simulate_swiss(n_players, table_size, rounds, seed, leftover)


def simulate_swiss(
    n_players: int, table_size: int, rounds: int, seed: int, leftover: str = "bye"
) -> list[RoundPlan]:
    """Swiss rounds with results simulated from the seed (see the module docstring)."""
    check_event(list(range(n_players)), table_size, leftover, rounds=rounds)
    rng = Random(f"swiss-preview:{seed}:{n_players}:{table_size}")
    strength = [rng.gauss(0.0, 1.0) for _ in range(n_players)]
    points = [0.0] * n_players
    seats = [[0] * table_size for _ in range(n_players)]
    byes = [0] * n_players
    fours = [0] * n_players
    plans: list[RoundPlan] = []
    tables_so_far: list = []
    history = PairHistory()
    for _round_no in range(1, rounds + 1):
        order = sorted(range(n_players), key=lambda p: (-points[p], -strength[p], p))
        position = {p: i + 1 for i, p in enumerate(order)}
        records = [
            PlayerRecord(
                id=p,
                position=position[p],
                match_points=points[p],
                seat_counts=tuple(seats[p]),
                byes=byes[p],
                fours=fours[p],
            )
            for p in range(n_players)
        ]
        plan = swiss_round(records, history, table_size, leftover)
        plans.append(plan)
        for table in plan.tables:
            humans = [p for p in table if p is not None]
            for seat, p in enumerate(table):
                if p is None:
                    continue
                if len(table) > table_size:  # a table of four among threes
                    fours[p] += 1
                else:
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
