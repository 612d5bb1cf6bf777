"""Knockout: the top of each table goes through, until one final table is left.

Rounds wait for the previous round's results (they decide who is still in); nobody enters
once the first round is planned; a field too small for a full table may still play with bot
seats (the final of three in a four-seat game). The tables come from
`league.scheduling.knockout` (snake seeding, rematches separated within a tier).
"""

from __future__ import annotations

from collections.abc import Sequence

from league.scheduling.formats.base import Format, gettext_noop, seat_counts
from league.scheduling.knockout import advancers, knockout_round
from league.scheduling.records import PairHistory, PlayerId, PlayerRecord, RoundPlan, TableResult
from league.scheduling.swiss import standings_order


class Knockout(Format):
    name = "knockout"
    label = gettext_noop("Knockout (table winners advance)")
    title = gettext_noop("Knockout")
    late_entries = False
    needs_results = True
    short_field = True
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
        """The players still in, seeded by `position`, dealt in snake order."""
        seeds = [p.id for p in standings_order(players)]
        counts = {p.id: seat_counts(p, table_size) for p in players}
        return knockout_round(seeds, table_size, history, leftover, counts)

    def advancers(
        self, tables: Sequence[TableResult], byes: Sequence[PlayerId]
    ) -> list[PlayerId] | None:
        """Each table's best person (winners first, then by payout; bots never advance), in
        table order, then those who had a bye (they go through)."""
        return [*advancers([table.finishing_order() for table in tables]), *byes]

    def is_decided(self, last: RoundPlan) -> bool:
        """The final: a round of one table that nobody sat out."""
        return len(last.tables) == 1 and not last.byes
