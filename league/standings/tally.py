"""One pass over the event's records: every per-player total the table and tie-breaks need.

Kept apart from ranking so tie-breaks read precomputed totals (O(1) per player) instead of
walking the matches again, which is what keeps 20,000 fixtures well under a second.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import StandingsFault
from .records import ByeRecord, MatchRecord

_FORFEIT = float(
    "-inf"
)  # a forfeiter's comparison key: below any payout, equal to other forfeiters


def pairwise_points(match: MatchRecord) -> tuple[int, ...]:
    """Each seat's match points: +1 per opponent below it, -1 per opponent above it (times
    `points_per_opponent` in an event of tables of three and four).

    A forfeiter compares as below every non-forfeiter and equal to other forfeiters, whatever
    the payouts of the deals actually played (those still count in total payouts).
    """
    keys = _keys(match)
    ordered = sorted(keys)
    n = len(keys)
    per = match.points_per_opponent
    return tuple(per * (bisect_left(ordered, k) + bisect_right(ordered, k) - n) for k in keys)


def _keys(match: MatchRecord) -> list[float]:
    forfeited = match.forfeited
    if not forfeited:
        return list(match.payouts)
    return [
        _FORFEIT if p in forfeited else pay
        for p, pay in zip(match.players, match.payouts, strict=True)
    ]


@dataclass(slots=True)
class PlayerTally:
    """Running totals of one entrant."""

    player_id: int
    matches_played: int = 0
    match_points: int = 0
    total_payouts: int = 0
    wins: int = 0
    byes: int = 0
    bye_points: int = 0
    forfeits: int = 0
    absences: int = 0
    deals_played: int = 0
    opponents_payout_sum: int = 0  # Σ over matches, over opponents met, of their total payouts
    opponents_met: int = 0  # how many terms are in that sum


@dataclass(slots=True)
class EventTally:
    """Everything the ranking needs, computed once per recomputation.

    `pair_points[p][q]` is the match-point sum of p against q over the matches they shared;
    it is only built when a tie-break needs it (head-to-head), because it is the largest
    structure here.
    """

    players: dict[int, PlayerTally]
    lot_seed: int = 0
    pair_points: dict[int, dict[int, int]] | None = None


def tally_event(
    players: Sequence[int],
    matches: Iterable[MatchRecord],
    byes: Iterable[ByeRecord] = (),
    *,
    lot_seed: int = 0,
    with_pairs: bool = False,
) -> EventTally:
    """Sum every record into per-player totals, checking the records against the contract."""
    tallies: dict[int, PlayerTally] = {}
    for p in players:
        if p in tallies:
            raise StandingsFault(f"player {p} is listed twice among the entrants")
        tallies[p] = PlayerTally(p)
    pairs: dict[int, dict[int, int]] | None = {p: {} for p in tallies} if with_pairs else None

    seen_fixtures: set[int] = set()
    # Opponents' averages need every player's final total, so remember who met whom per match
    # and settle the sums after the pass (one more O(seats) step per match, no second walk).
    tables: list[tuple[int, ...]] = []
    for m in matches:
        seats = m.players
        _check_match(m, tallies, seen_fixtures)
        tables.append(seats)
        keys = _keys(m)
        n = len(seats)
        ordered = sorted(keys)
        winners = m.winners
        forfeited = m.forfeited
        payouts = m.payouts
        deals = m.deals_played
        per = m.points_per_opponent
        sat_out = m.sat_out or (0,) * n
        for i, p in enumerate(seats):
            t = tallies[p]
            k = keys[i]
            t.matches_played += 1
            t.total_payouts += payouts[i]
            t.deals_played += deals - sat_out[i]
            # (#opponents below) - (#opponents above), from the sorted keys in two C calls.
            t.match_points += per * (bisect_left(ordered, k) + bisect_right(ordered, k) - n)
            if p in winners:
                t.wins += 1
            if p in forfeited:
                t.forfeits += 1
                if p in m.absent:
                    t.absences += 1
        if pairs is not None:
            # Each pair once: what p scores against q, q scores back negated.
            for i in range(n - 1):
                p, k, row = seats[i], keys[i], pairs[seats[i]]
                for j in range(i + 1, n):
                    q = seats[j]
                    o = keys[j]
                    sign = per * ((k > o) - (k < o))
                    row[q] = row.get(q, 0) + sign
                    back = pairs[q]
                    back[p] = back.get(p, 0) - sign

    for seats in tables:
        totals = [tallies[p].total_payouts for p in seats]
        whole = sum(totals)
        others = len(seats) - 1
        for p, own in zip(seats, totals, strict=True):
            t = tallies[p]
            t.opponents_payout_sum += whole - own
            t.opponents_met += others

    seen_byes: set[tuple[int, int]] = set()
    for b in byes:
        t = tallies.get(b.player_id)
        if t is None:
            raise StandingsFault(f"bye of round {b.round_no} for {b.player_id}, not an entrant")
        if (b.player_id, b.round_no) in seen_byes:
            raise StandingsFault(f"player {b.player_id} has two byes in round {b.round_no}")
        seen_byes.add((b.player_id, b.round_no))
        t.byes += 1
        t.bye_points += b.match_points
        t.match_points += b.match_points

    return EventTally(tallies, lot_seed=lot_seed, pair_points=pairs)


def _check_match(m: MatchRecord, tallies: dict[int, PlayerTally], seen: set[int]) -> None:
    """Refuse records the loader should never produce; cheap enough to run on every match."""
    seats = m.players
    n = len(seats)
    if n not in (3, 4) or len(m.payouts) != n or len(set(seats)) != n:
        raise StandingsFault(
            f"fixture {m.fixture_id}: seats {seats} / payouts {m.payouts} are not 3 or 4 "
            "distinct players with one payout each"
        )
    if m.sat_out and len(m.sat_out) != n:
        raise StandingsFault(f"fixture {m.fixture_id}: deals sat out {m.sat_out} for {seats}")
    if sum(m.payouts) != 0:
        raise StandingsFault(f"fixture {m.fixture_id}: payouts {m.payouts} do not sum to zero")
    for p in seats:
        if p not in tallies:
            raise StandingsFault(f"fixture {m.fixture_id}: player {p} is not an entrant")
    if not set(m.winners) <= set(seats) or not m.absent <= m.forfeited <= set(seats):
        raise StandingsFault(
            f"fixture {m.fixture_id}: winners {m.winners} / forfeited {sorted(m.forfeited)} "
            f"(absent {sorted(m.absent)}, who forfeit) are not all seated in {seats}"
        )
    if m.fixture_id in seen:
        raise StandingsFault(f"fixture {m.fixture_id} appears twice")
    seen.add(m.fixture_id)
