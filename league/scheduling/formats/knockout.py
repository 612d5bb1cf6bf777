"""Knockout: the best person of each table goes on, until one final table of k is left.

Rounds wait for the previous round's results (they decide who is still in); nobody enters
once the first round is planned; a field too small for a full table may still play with bot
seats (the final of three in a four-seat game). The rule for any field, ties and the best
non-winners who fill the tables are in `league.scheduling.knockout`; round 1 is seeded by
rating, then by the event's draw; the standings rank by the round reached (`standings_mode`).
"""

from __future__ import annotations

from collections.abc import Sequence

from league.scheduling.formats.base import Format, gettext_noop, seat_counts
from league.scheduling.knockout import decide, knockout_round, rounds_needed
from league.scheduling.records import (
    Advance,
    Note,
    PairHistory,
    PlayerRecord,
    RoundOutcome,
    RoundPlan,
)
from league.scheduling.seeding import SEEDING, first_round_order
from league.scheduling.swiss import standings_order


class Knockout(Format):
    name = "knockout"
    label = gettext_noop("Knockout (table winners advance)")
    title = gettext_noop("Knockout")
    late_entries = False
    needs_results = True
    short_field = True
    mixed_tables = False
    standings_mode = "knockout"
    decided_message = gettext_noop("the final has been played: the knockout is decided")

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
        """The players still in, seeded (round 1: by rating, then the draw; later by
        `position`), dealt in snake order."""
        ordered = first_round_order(players, seed) if round_no == 1 else standings_order(players)
        counts = {p.id: seat_counts(p, table_size) for p in players}
        byes = {p.id: p.byes for p in players}
        return knockout_round(
            [p.id for p in ordered], table_size, history, leftover, counts, byes_had=byes
        )

    def advance(self, outcome: RoundOutcome) -> Advance:
        """Each table's best person, those who had a bye, then the best non-winners to fill
        the next round's tables (see `league.scheduling.knockout`)."""
        return decide(outcome)

    def is_decided(self, last: RoundPlan) -> bool:
        """The final: a round of one table that nobody sat out."""
        return len(last.tables) == 1 and not last.byes

    def rounds_needed(self, n_players: int, *, table_size: int, leftover: str) -> int | None:
        return rounds_needed(n_players, table_size, leftover)

    def first_round_seeding(
        self, players: Sequence[PlayerRecord], seed: int
    ) -> list[PlayerRecord] | None:
        return first_round_order(players, seed)

    def absence_rules(self, *, duplicate: bool = False) -> list[Note]:
        """The absent player is out as well (`league.scheduling.knockout.decide`)."""
        return [
            *super().absence_rules(duplicate=duplicate),
            Note(
                gettext_noop(
                    "An absent player is out: the players who were at the table decide who "
                    "goes on, as above, and an absent player never fills the next round as one "
                    "of the best non-winners."
                )
            ),
        ]

    def rules(self, round_no: int, *, n_players: int, table_size: int, leftover: str) -> list[Note]:
        notes = []
        if round_no == 1:
            notes.append(Note(SEEDING))
        else:
            notes.append(Note(gettext_noop("Seeded by the standings after the last round.")))
        notes += [
            Note(
                gettext_noop(
                    "From each table the best person goes on: the game's winners first, then "
                    "the payout at the table. A tie at the table is broken by total payout in "
                    "the event, then match points, then the event's draw. Built-in bots never "
                    "go on."
                )
            ),
            Note(
                gettext_noop(
                    "When those who go on do not fill tables of %(k)s, the best non-winners of "
                    "the round fill them, in the same order: total payout, then match points, "
                    "then the draw. With %(k)s or fewer left, the next round is the final, "
                    "filled to %(k)s the same way."
                ),
                {"k": table_size},
            ),
        ]
        if round_no == 1 and n_players % table_size and n_players > table_size:
            bots = gettext_noop("Bots fill the seats the field leaves open in round 1.")
            byes = gettext_noop(
                "The top seeds who do not fill a table sit out round 1 and go through "
                "(nobody sits out twice while another has not)."
            )
            notes.append(Note(bots if leftover == "bot" else byes))
        notes.append(
            Note(
                gettext_noop("%(n)s players reach the final in %(rounds)s rounds."),
                {"n": n_players, "rounds": rounds_needed(n_players, table_size, leftover)},
            )
            if round_no == 1
            else Note(gettext_noop("The final seats %(k)s players."), {"k": table_size})
        )
        return notes
