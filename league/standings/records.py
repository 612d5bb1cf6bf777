"""The plain values standings are computed from and returned as: no ORM, no Django.

The league service turns fixture, result and bye rows into these records, calls
`compute_standings` and caches the rows it returns; keeping them frozen lets the same records be
reused for several recomputations (and hashed) without fear of one run altering the next.

The bottom of the package's stack: records <- tally <- tiebreaks (and `StandingsConfig`, which
checks names against their registry) <- table, export. Nothing here imports the layers above.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

Value = int | float


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One finished (or forfeited) fixture: who sat where and what each seat took home.

    `payouts[i]` belongs to `players[i]` and is the sum over the deals played; payouts are
    zero-sum. `winners` are player ids (the game's own definition); `forfeited` holds the
    players who lost the match by clock or withdrawal — they rank below every other seat;
    `absent` those of them who were absent (a no-show, or one who left: the absence mark).
    Tables of three and four in one event: `points_per_opponent` weighs each opponent beaten
    (3 at a three, 2 at a four, so that both give -6 to +6) and `sat_out[i]` counts the deals
    `players[i]` sat out as the dealer of a table of four (not deals played).
    """

    fixture_id: int
    round_no: int
    players: tuple[int, ...]
    payouts: tuple[int, ...]
    winners: tuple[int, ...]
    forfeited: frozenset[int]
    deals_played: int
    absent: frozenset[int] = frozenset()
    points_per_opponent: int = 1
    sat_out: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ByeRecord:
    """A round a player sat out: worth the event's bye match points and nothing else."""

    player_id: int
    round_no: int
    match_points: int


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line of the table; `tiebreak_values` follow `StandingsConfig.tiebreaks` in order.

    `rank` is shared (1, 1, 3) by players still tied after every configured tie-break; `tied`
    says so, for the page's "=" marker. None: listed without a place (a bot that filled seats,
    `table.rank_people`).
    """

    rank: int | None
    player_id: int
    matches_played: int
    match_points: int
    total_payouts: int
    wins: int
    byes: int
    tiebreak_values: tuple[Value, ...] = ()
    tied: bool = False
    forfeits: int = 0
    deals_played: int = 0
    bye_points: int = 0
    absences: int = 0  # matches the player was marked absent from (among `forfeits`)
    round_reached: int = 0  # knockout standings only: the last round the player was in
    # duplicate scoring only (exact; rounded where written out): Σ differences, mean percentage
    # (None: no deal yet), over the deals of the completed sections the player sat in
    duplicate_total: Fraction | None = None
    matchpoint_pct: Fraction | None = None
    duplicate_deals: int = 0
