"""Shared personas and record builders for the standings tests.

Alice, Bob, Carol and Dave are entrants 1-4; Erin and Frank (5, 6) make up second tables.
`match()` fills the fields a test does not care about so each test states only what matters.
"""

from __future__ import annotations

from itertools import count

from league.standings import ByeRecord, MatchRecord

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = 1, 2, 3, 4, 5, 6
EVERYONE = (ALICE, BOB, CAROL, DAVE, ERIN, FRANK)

_fixture_ids = count(1)


def match(
    seats: dict[int, int],
    *,
    round_no: int = 1,
    forfeited: tuple[int, ...] = (),
    winners: tuple[int, ...] | None = None,
    deals: int = 4,
    fixture_id: int | None = None,
    absent: tuple[int, ...] = (),
) -> MatchRecord:
    """A match from {player: total payout}; winners default to the highest payouts; `absent`
    players (marked absent) forfeit too."""
    players = tuple(seats)
    payouts = tuple(seats.values())
    if winners is None:
        best = max(payouts)
        winners = tuple(p for p, x in seats.items() if x == best)
    return MatchRecord(
        fixture_id=next(_fixture_ids) if fixture_id is None else fixture_id,
        round_no=round_no,
        players=players,
        payouts=payouts,
        winners=winners,
        forfeited=frozenset(forfeited) | frozenset(absent),
        deals_played=deals,
        absent=frozenset(absent),
    )


def bye(player: int, round_no: int = 1, points: int = 2) -> ByeRecord:
    return ByeRecord(player_id=player, round_no=round_no, match_points=points)
