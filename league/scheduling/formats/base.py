"""What an event format is: the rule that decides who plays whom, round after round.

A format plans rounds, says who goes on to the next one and what the organizer may do between
rounds. It never scores: how a round's results become match points (today the payouts; the
duplicate scoring mode later) is the standings' business (`league/standings/`), which do not
ask the format. A knockout's "who advances" reads each table's own result (its winners and
payouts, `TableResult`), not the event's scoring.

Pure, like the rest of the scheduler: no Django import. Labels are plain English marked with
`gettext_noop` below, a no-op of the name `makemessages` looks for (so they are extracted
without this layer importing Django), and translated where they are shown
(`league.models.format_choices`, the services' messages).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from league.scheduling.errors import SchedulingError
from league.scheduling.records import (
    Advance,
    Note,
    PairHistory,
    PlayerId,
    PlayerRecord,
    RoundOutcome,
    RoundPlan,
    TableResult,
)


def gettext_noop(message: str) -> str:
    """Mark `message` for translation; it is translated where a person reads it."""
    return message


# What an absence counts for (`Format.absence_rules`), the event's help page says.
ABSENT_LOSES = gettext_noop(
    "A player the organizer marks absent loses the match: they forfeit and count below "
    "everyone at the table, and each player who was there wins it. The round closes with "
    "this result as with any other."
)
ABSENT_PAYOUTS = gettext_noop(
    "Marked absent before the first deal (nobody came), the match pays nothing. Marked absent "
    "after deal k (the player left), deals 1 to k count as played, with their payouts for "
    "everyone at the table, and the rest of the match pays nothing: the payouts still add up "
    "to zero."
)
ABSENCE_UNDONE = gettext_noop(
    "A player who arrives before the first deal is played: the organizer takes the absence "
    "back and the table plays as usual."
)
ABSENCE_UNDONE_NEEDS_RESULTS = gettext_noop(
    "A player who arrives before the first deal is played: the organizer takes the absence "
    "back and the table plays as usual, unless the next round has already been made from "
    "this round's results."
)
ABSENT_DUPLICATE = gettext_noop(
    "Duplicate: the table stops at the absence. For each deal it did not play, the absent "
    "player gets the smallest of 0 and the lowest difference of their seat at the tables that "
    "played the deal, and a percentage of 0; the others at the table get a difference of 0 "
    "and a percentage of 50."
)


class Format:
    """One event format. Subclass it, set the class attributes, write `plan_round` (and
    `preview` if the rounds can be worked out in advance), and register an instance in
    `league/scheduling/formats/__init__.py`.

    The flags are the organizer-facing rules the league services apply between rounds.
    """

    name: ClassVar[str]  # stored in Event.format: lowercase, at most 12 characters
    label: ClassVar[str]  # offered in forms, e.g. "Swiss (tables by current standings)"
    title: ClassVar[str]  # in messages, e.g. "Swiss rounds need them"
    late_entries: ClassVar[bool] = True  # players may enter after round 1 is planned
    needs_results: ClassVar[bool] = False  # a round waits for every result of the one before
    short_field: ClassVar[bool] = False  # fewer players than seats may play (with bot seats)
    # Whether an event of this format may be scored in duplicate (every table of a section
    # plays the same deals): the format decides who meets whom, the scoring the standings.
    # A knockout advances on each table's own result, which duplicate does not score.
    supports_duplicate: ClassVar[bool] = False
    # Whether the format seats tables of three and four (leftover "mixed"); a knockout does not:
    # one goes on from each table, and a table of four would be harder to come out of.
    mixed_tables: ClassVar[bool] = True
    # How the standings rank: "points" (match points, then the event's tie-breaks) or
    # "knockout" (the round reached, then the stated order; league.standings.knockout).
    standings_mode: ClassVar[str] = "points"
    decided_message: ClassVar[str] = gettext_noop("the event is decided")

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
        """Tables (in seat order; None is a bot seat) and byes for round `round_no` (1-based).

        Called by `plan_round`, which has checked the input already (table size, leftover,
        duplicates, enough players, seat counts of the right length)."""
        raise NotImplementedError

    def advance(self, outcome: RoundOutcome) -> Advance | None:
        """Who may play the next round, and why, from the last round's results and the
        event's totals (asked only of formats with `needs_results`, once all are in); None:
        everyone still entered (checked in and not withdrawn)."""
        return None

    def advancers(
        self, tables: Sequence[TableResult], byes: Sequence[PlayerId]
    ) -> list[PlayerId] | None:
        """`advance` from the tables and byes alone (no totals, seed 0): its players."""
        decision = self.advance(RoundOutcome(tables=tables, byes=byes))
        return None if decision is None else list(decision.players)

    def rules(self, round_no: int, *, n_players: int, table_size: int, leftover: str) -> list[Note]:
        """What a round page says about how round `round_no` was made and who goes on."""
        return []

    def first_round_seeding(
        self, players: Sequence[PlayerRecord], seed: int
    ) -> list[PlayerRecord] | None:
        """The order round 1 is cut from (a round page shows it), or None if round 1 does
        not seat by an order (a league's schedule)."""
        return None

    def absence_winners(self, n_seats: int, absent: frozenset[int]) -> frozenset[int]:
        """Who wins a match some seats were absent from (league.services.absences): by
        default everyone who was there. The absent seats forfeit (below everyone at the
        table); the deals played before the absence count as played, the rest pay nothing."""
        return frozenset(range(n_seats)) - absent

    def absence_rules(self, *, duplicate: bool = False) -> list[Note]:
        """What the event's help page says an absence counts for, under this format (and,
        `duplicate`, under the duplicate scoring's forfeit rule)."""
        notes = [
            Note(ABSENT_LOSES),
            Note(ABSENT_PAYOUTS),
            Note(ABSENCE_UNDONE_NEEDS_RESULTS if self.needs_results else ABSENCE_UNDONE),
        ]
        if duplicate:
            notes.append(Note(ABSENT_DUPLICATE))
        return notes

    def rounds_needed(self, n_players: int, *, table_size: int, leftover: str) -> int | None:
        """The rounds an event of `n_players` needs to be decided; None: as many as it has."""
        return None

    def is_decided(self, last: RoundPlan) -> bool:
        """Whether no round may follow `last`, whatever the event's number of rounds says."""
        return False

    def preview(
        self, n_players: int, *, table_size: int, rounds: int, seed: int, leftover: str
    ) -> list[RoundPlan]:
        """The rounds of a whole event for players 0..n-1, before anything is played.

        Formats that cannot work their rounds out in advance leave this out (`can_preview`)."""
        raise SchedulingError(f"{self.title} events have no preview: their rounds need results.")

    @property
    def picks_players(self) -> bool:
        """Whether the format decides who plays the next round (it overrides `advance`)."""
        return type(self).advance is not Format.advance

    @property
    def can_preview(self) -> bool:
        """Whether the format has a preview (it overrides `preview`)."""
        return type(self).preview is not Format.preview

    def __repr__(self) -> str:
        return f"<Format {self.name}>"


def seat_counts(player: PlayerRecord, table_size: int) -> list[int]:
    """The player's seat counts so far, as a list the seating can update."""
    return list(player.seat_counts) if player.seat_counts else [0] * table_size
