"""Plain, frozen input and output records of the scheduler.

The league app builds these from its models; the scheduler never sees the ORM, so every
algorithm here can be tested without a database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

PlayerId = int
# "mixed": tables of three and four (the dealer sits out each deal at a four), no byes from six
# players up; only for tables of three of a game that has a table of four (`leftovers.py`).
Leftover = Literal["bye", "bot", "mixed"]
LEFTOVERS: tuple[str, ...] = ("bye", "bot", "mixed")

Table = tuple[PlayerId | None, ...]


@dataclass(frozen=True)
class PlayerRecord:
    """One player as the scheduler needs them.

    position: place in the current standings, 1 = leader (Swiss and knockout seeding).
    seat_counts: seat_counts[s] = rounds played in seat s (seat 0 = first dealer / first to act);
    empty means "none yet".
    byes: rounds the player sat out because the field did not divide into full tables.
    fours: rounds played at a table of four in an event of tables of three and four (seat
    counts then count the tables of three only: at a four every seat deals and sits out alike).
    """

    id: PlayerId
    position: int = 0
    match_points: float = 0.0
    rating: float | None = None
    seat_counts: tuple[int, ...] = ()
    byes: int = 0
    fours: int = 0


def pair_key(a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId]:
    """Pairs are unordered; store them with the smaller id first."""
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class PairHistory:
    """How often each pair of players has sat at the same table (bots are not players)."""

    meetings: Mapping[tuple[PlayerId, PlayerId], int] = field(default_factory=dict)

    def count(self, a: PlayerId, b: PlayerId) -> int:
        return self.meetings.get(pair_key(a, b), 0)

    @classmethod
    def from_tables(cls, tables: Iterable[Sequence[PlayerId | None]]) -> PairHistory:
        """Count meetings from any iterable of tables (e.g. every table of every round so far)."""
        counts: Counter[tuple[PlayerId, PlayerId]] = Counter()
        for table in tables:
            humans = [p for p in table if p is not None]
            for i, a in enumerate(humans):
                for b in humans[i + 1 :]:
                    counts[pair_key(a, b)] += 1
        return cls(dict(counts))

    @classmethod
    def from_rounds(cls, rounds: Iterable[RoundPlan]) -> PairHistory:
        return cls.from_tables(t for plan in rounds for t in plan.tables)


@dataclass(frozen=True)
class RoundPlan:
    """One round: tables in seat order (entry 0 deals first; None is a bot seat) and byes."""

    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()

    def players(self) -> list[PlayerId]:
        return [p for t in self.tables for p in t if p is not None]


@dataclass(frozen=True)
class TableResult:
    """One table's counted result as a format reads it (to say who advances).

    seats: the players in seat order, None for a bot seat; winners: the winning seat numbers;
    payouts: each seat's payout total for the match (the game's own result, not the event's
    scoring: how results become match points is the standings' business, never a format's);
    absent: the seats an organizer marked absent (they forfeited; a format may leave them out).
    """

    seats: tuple[PlayerId | None, ...]
    winners: frozenset[int]
    payouts: tuple[int, ...]
    absent: frozenset[int] = frozenset()

    def finishing_order(self) -> list[PlayerId]:
        """The people at the table, best first: winners, then by payout, then by seat.

        Bots are left out: a bot that filled a seat never places, the best person after it does.
        """
        order = sorted(
            range(len(self.seats)), key=lambda s: (s not in self.winners, -self.payouts[s], s)
        )
        return [p for s in order if (p := self.seats[s]) is not None]


@dataclass(frozen=True)
class Standing:
    """A player's totals in the event so far, as a knockout reads them to break ties and pick
    the best non-winners: total payout first, then match points (then the event's draw)."""

    total_payouts: int = 0
    match_points: float = 0.0


@dataclass(frozen=True)
class RoundOutcome:
    """Everything a format needs to say who plays the next round, once a round is played.

    tables: every table's result, table 1 first; byes: who sat out; standing: the totals of
    every entrant through this round (missing: all zero); active: who is still entered (None:
    everybody); table_size: seats per table (None: the tables' own); leftover and seed: the
    event's (the seed draws the lots that break the last ties).
    """

    tables: Sequence[TableResult]
    byes: Sequence[PlayerId] = ()
    standing: Mapping[PlayerId, Standing] = field(default_factory=dict)
    active: frozenset[PlayerId] | None = None
    table_size: int | None = None
    leftover: str = "bye"
    seed: int = 0


@dataclass(frozen=True)
class TableCall:
    """Who goes on from one table, and why.

    decided_by: the first criterion on which the advancer beat the next person at the table
    ("won", "table_payout", "total_payouts", "match_points", "draw"; "alone": the only person
    still in; "": nobody goes on); level: the people who were level with the advancer before
    that criterion (a tie at the table), advancer first, empty when the table itself decided;
    bot_won: a built-in bot won the table (bots never advance).
    """

    table: int
    advancer: PlayerId | None
    decided_by: str
    level: tuple[PlayerId, ...] = ()
    bot_won: bool = False


@dataclass(frozen=True)
class Advance:
    """A knockout's decision after a round: the next round's field and the reasons.

    players: the next round's field (table goers, byes, then the best non-winners taken to
    fill its tables); filled: those best non-winners, best first; fill_decided_by: the
    criterion that separated the last one taken from `next_out`, the best one left out
    ("" when nobody was left out or nobody taken); final: the next round is the final.
    """

    players: tuple[PlayerId, ...]
    calls: tuple[TableCall, ...]
    byes: tuple[PlayerId, ...] = ()
    filled: tuple[PlayerId, ...] = ()
    fill_decided_by: str = ""
    next_out: PlayerId | None = None
    final: bool = False


@dataclass(frozen=True)
class Note:
    """One sentence a round page shows about its format's rules: `text` is plain English
    marked for translation (`gettext_noop`), with `%(name)s` placeholders filled from params."""

    text: str
    params: Mapping[str, int | str] = field(default_factory=dict)
