"""Rank the entrants: match points first, then the configured tie-breaks, group by group.

Ranking refines tied groups rather than sorting on one composite key, because head-to-head is
only defined inside the group still tied when it is reached: each tie-break splits every group
that is still tied, and the next one only sees what is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .knockout import KnockoutProgress, rank_knockout
from .records import ByeRecord, MatchRecord, StandingsRow, Value
from .tally import EventTally, tally_event
from .tiebreaks import MatchPoints, StandingsConfig, Tiebreak, get_tiebreak


def compute_standings(
    players: Sequence[int],
    matches: Iterable[MatchRecord],
    byes: Iterable[ByeRecord],
    config: StandingsConfig,
    progress: KnockoutProgress | None = None,
) -> list[StandingsRow]:
    """The standings table, best first; the same for any order of the inputs.

    `players` is every entrant (withdrawn ones included: they keep their results). Raises
    `UnknownTiebreak` for a name not in the registry and `StandingsFault` for records that
    break the contract. A knockout (`config.mode`) ranks by `progress`, the rounds reached.
    """
    tiebreaks = [get_tiebreak(name) for name in config.tiebreaks]
    matches = list(matches)
    tally = tally_event(
        players,
        matches,
        byes,
        lot_seed=config.lot_seed,
        with_pairs=any(tb.per_group for tb in tiebreaks),
    )
    if config.mode == "knockout":
        return rank_knockout(tally, tiebreaks, matches, progress or KnockoutProgress())
    return rank_tally(tally, tiebreaks)


def rank_tally(tally: EventTally, tiebreaks: Sequence[Tiebreak]) -> list[StandingsRow]:
    """Order a tally's players by match points, then each tie-break within the tied groups."""
    ids = sorted(tally.players)  # ascending id: the stable order of players tied to the end
    n = len(tiebreaks)
    tb_values: dict[int, list[Value]] = {p: [0] * n for p in ids}

    groups = _split(ids, MatchPoints().values(tally, ids))
    for index, tb in enumerate(tiebreaks):
        refined: list[list[int]] = []
        for group in groups:
            values = tb.values(tally, group)
            for p, v in zip(group, values, strict=True):
                tb_values[p][index] = v
            if len(group) == 1:
                refined.append(group)
            else:
                refined.extend(_split(group, values))
        groups = refined

    rows: list[StandingsRow] = []
    position = 1
    for group in groups:
        tied = len(group) > 1
        for p in group:
            t = tally.players[p]
            rows.append(
                StandingsRow(
                    rank=position,
                    player_id=p,
                    matches_played=t.matches_played,
                    match_points=t.match_points,
                    total_payouts=t.total_payouts,
                    wins=t.wins,
                    byes=t.byes,
                    tiebreak_values=tuple(tb_values[p]),
                    tied=tied,
                    forfeits=t.forfeits,
                    deals_played=t.deals_played,
                    bye_points=t.bye_points,
                )
            )
        position += len(group)
    return rows


def _split(group: list[int], values: list[Value]) -> list[list[int]]:
    """Split `group` into runs of equal value, highest first; stable within each run."""
    order = sorted(range(len(group)), key=values.__getitem__, reverse=True)
    out: list[list[int]] = []
    last: Value | None = None
    for i in order:
        v = values[i]
        if out and v == last:
            out[-1].append(group[i])
        else:
            out.append([group[i]])
            last = v
    return out
