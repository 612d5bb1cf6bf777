"""Rank the entrants: match points first, then the configured tie-breaks, group by group.

A duplicate event (`StandingsConfig.scoring`) ranks by its duplicate total or matchpoint
percentage (`config.duplicate_rank`) first instead, exactly (the `Fraction`s themselves), and
the same tie-breaks after.

Ranking refines tied groups rather than sorting on one composite key, because head-to-head is
only defined inside the group still tied when it is reached: each tie-break splits every group
that is still tied, and the next one only sees what is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .duplicate_arithmetic import PlayerDuplicate
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
    duplicate: Mapping[int, PlayerDuplicate] | None = None,
) -> list[StandingsRow]:
    """The standings table, best first; the same for any order of the inputs.

    `players` is every entrant (withdrawn ones included: they keep their results). Raises
    `UnknownTiebreak` for a name not in the registry and `StandingsFault` for records that
    break the contract. A knockout (`config.mode`) ranks by `progress`, the rounds reached.
    Duplicate scoring (`config.scoring`) ranks by `duplicate` (`score_event(...).totals`: a
    player missing there has no deal yet: total 0, no percentage, ranked below any percentage).
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
    if config.scoring == "duplicate":
        return rank_tally(tally, tiebreaks, duplicate_figures(tally, duplicate or {}, config))
    return rank_tally(tally, tiebreaks)


# Below every percentage (they are 0 to 100): a player with no deal yet ranks after them all.
_NO_PERCENTAGE = Fraction(-1)


@dataclass(frozen=True, slots=True)
class DuplicateFigures:
    """The duplicate columns of each player, and `key`, what they are ranked by first."""

    key: Mapping[int, Fraction]
    totals: Mapping[int, Fraction]
    percentages: Mapping[int, Fraction | None]
    deals: Mapping[int, int]


def duplicate_figures(
    tally: EventTally, duplicate: Mapping[int, PlayerDuplicate], config: StandingsConfig
) -> DuplicateFigures:
    """Each tallied player's duplicate total and percentage, and the key they rank by first."""
    totals = {p: Fraction(0) for p in tally.players}
    pcts: dict[int, Fraction | None] = dict.fromkeys(tally.players)
    deals = dict.fromkeys(tally.players, 0)
    for p in tally.players:
        figures = duplicate.get(p)
        if figures is not None:
            totals[p], pcts[p], deals[p] = figures.total, figures.percentage, figures.deals
    if config.duplicate_rank == "percentage":
        key = {p: _NO_PERCENTAGE if v is None else v for p, v in pcts.items()}
    else:
        key = dict(totals)
    return DuplicateFigures(key, totals, pcts, deals)


def rank_tally(
    tally: EventTally, tiebreaks: Sequence[Tiebreak], dup: DuplicateFigures | None = None
) -> list[StandingsRow]:
    """Order a tally's players by match points (or, in duplicate, by `dup.key`), then each
    tie-break within the tied groups."""
    ids = sorted(tally.players)  # ascending id: the stable order of players tied to the end
    n = len(tiebreaks)
    tb_values: dict[int, list[Value]] = {p: [0] * n for p in ids}

    first = MatchPoints().values(tally, ids) if dup is None else [dup.key[p] for p in ids]
    groups = _split(ids, first)
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
                    absences=t.absences,
                    deals_played=t.deals_played,
                    bye_points=t.bye_points,
                    duplicate_total=None if dup is None else dup.totals[p],
                    matchpoint_pct=None if dup is None else dup.percentages[p],
                    duplicate_deals=0 if dup is None else dup.deals[p],
                )
            )
        position += len(group)
    return rows


def _split(group: list[int], values: Sequence[Value | Fraction]) -> list[list[int]]:
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


def rank_people(rows: Sequence[StandingsRow], unranked: Collection[int]) -> list[StandingsRow]:
    """The people first, placed among themselves; then the `unranked` (the bots that filled
    seats) in their own order, with no place (`rank` None): places and prize lists count
    people only. A tie among people stays a tie (1, 1, 3 → 1, 1, 3 with a bot between them
    taken out: the bot's place goes to the next person)."""
    people = [r for r in rows if r.player_id not in unranked]
    shared = Counter(r.rank for r in people)
    first: dict[int | None, int] = {}
    placed = []
    for position, row in enumerate(people, start=1):
        rank = first.setdefault(row.rank, position)
        placed.append(replace(row, rank=rank, tied=shared[row.rank] > 1))
    return placed + [replace(r, rank=None, tied=False) for r in rows if r.player_id in unranked]
