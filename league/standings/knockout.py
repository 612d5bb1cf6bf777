"""Knockout standings: by the round reached, then the stated order.

A knockout's places are not points: whoever went further ranks higher. The final's players
rank by the final's own result (its winners, then the payout at the table); everyone else,
and the final's players until its result is in, by the stated order that also picks a
knockout's best non-winners and breaks its ties (league.scheduling.knockout): total payout
in the event, then match points, then the event's draw (the lot, which never ties).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from league.draws import lot_number

from .records import MatchRecord, StandingsRow, Value
from .tally import EventTally
from .tiebreaks import Tiebreak


@dataclass(frozen=True, slots=True)
class KnockoutProgress:
    """How far each entrant got: `reached[p]` is the last round p was in (at a table or with
    a bye; 0 or missing: none); `final_round` the round that is the final, once planned."""

    reached: Mapping[int, int] = field(default_factory=dict)
    final_round: int | None = None


def rank_knockout(
    tally: EventTally,
    tiebreaks: Sequence[Tiebreak],
    matches: Iterable[MatchRecord],
    progress: KnockoutProgress,
) -> list[StandingsRow]:
    """The table, best first: round reached, the final's result, then the stated order."""
    ids = sorted(tally.players)
    final_keys: dict[int, tuple[int, int]] = {}
    if progress.final_round is not None:
        for m in matches:
            if m.round_no == progress.final_round:
                for p, pay in zip(m.players, m.payouts, strict=True):
                    final_keys[p] = (int(p in m.winners), pay)

    def key(p: int) -> tuple:
        t = tally.players[p]
        return (
            progress.reached.get(p, 0),
            final_keys.get(p, (0, 0)),
            t.total_payouts,
            t.match_points,
            lot_number(tally.lot_seed, p),
        )

    order = sorted(ids, key=key, reverse=True)
    values: dict[int, list[Value]] = {p: [] for p in ids}
    for tb in tiebreaks:  # shown as columns; the ranking above does not read them
        # A tie-break among a tied group (head-to-head) has no group here: over everyone it
        # would only repeat match points, so it has no value (None: a dash on the page).
        column = [None] * len(ids) if tb.per_group else tb.values(tally, ids)
        for p, v in zip(ids, column, strict=True):
            values[p].append(v)
    rows = []
    for rank, p in enumerate(order, start=1):
        t = tally.players[p]
        rows.append(
            StandingsRow(
                rank=rank,
                player_id=p,
                matches_played=t.matches_played,
                match_points=t.match_points,
                total_payouts=t.total_payouts,
                wins=t.wins,
                byes=t.byes,
                tiebreak_values=tuple(values[p]),
                forfeits=t.forfeits,
                absences=t.absences,
                deals_played=t.deals_played,
                bye_points=t.bye_points,
                round_reached=progress.reached.get(p, 0),
            )
        )
    return rows
