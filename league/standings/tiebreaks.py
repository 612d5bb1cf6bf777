"""The tie-break registry: small classes chosen by name in the event's configuration.

As in Tabbycat's `standings/metrics.py`, each tie-break is a class with a `name` (stored in the
event's configuration), a `label` (shown on the page and in the form) and a key computed from the
whole event. Higher keys rank first for every tie-break. A tie-break whose value depends on who is
still tied (head-to-head) says so with `per_group = True` and is handed that group.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from league.draws import lot_number

from .errors import StandingsError, UnknownTiebreak
from .records import Value
from .tally import EventTally


class Tiebreak:
    """One way of ordering players; subclasses set `name`, `label`, `description`, `values`."""

    name: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str]
    #: True when the key of a player depends on the group still tied with him.
    per_group: ClassVar[bool] = False

    def values(self, tally: EventTally, group: Sequence[int]) -> list[Value]:
        """The key of each player of `group` (in the same order); higher ranks first."""
        return [self.value(tally, p) for p in group]

    def value(self, tally: EventTally, player_id: int) -> Value:
        """The key of one player, for tie-breaks that do not depend on the group."""
        raise NotImplementedError

    def format(self, value: Value) -> str:
        """The value as the page and the CSV show it."""
        return str(value)


TIEBREAKS: dict[str, type[Tiebreak]] = {}


def register(cls: type[Tiebreak]) -> type[Tiebreak]:
    """Add a tie-break to the registry under its `name` (class decorator)."""
    if cls.name in TIEBREAKS:
        raise ValueError(f"two tie-breaks are named {cls.name!r}")
    TIEBREAKS[cls.name] = cls
    return cls


def tiebreak_choices() -> list[tuple[str, str]]:
    """(name, label) of every tie-break, in registry order: the event form's choices."""
    return [(name, cls.label) for name, cls in TIEBREAKS.items()]


def get_tiebreak(name: str) -> Tiebreak:
    """An instance of the tie-break called `name`, or `UnknownTiebreak` with the known names."""
    try:
        return TIEBREAKS[name]()
    except KeyError:
        raise UnknownTiebreak(name, tuple(TIEBREAKS)) from None


def validate_tiebreaks(names: Iterable[str]) -> None:
    """Refuse unknown or repeated names, with a message the organizer can act on."""
    seen: set[str] = set()
    for name in names:
        get_tiebreak(name)
        if name in seen:
            raise StandingsError(f"The tie-break “{TIEBREAKS[name].label}” is listed twice.")
        seen.add(name)


MODES = ("points", "knockout")


@dataclass(frozen=True, slots=True)
class StandingsConfig:
    """How the event breaks ties: registry names in order, and the seed of the drawing of lots.

    The names are checked on construction so a bad configuration fails where it is made; it
    lives beside the registry it checks against, so records.py needs nothing above it.
    """

    tiebreaks: tuple[str, ...] = ()
    lot_seed: int = 0
    # "points": match points, then the tie-breaks; "knockout": the round reached, then the
    # stated order (league.standings.knockout), the tie-breaks shown but not ranked by.
    mode: str = "points"

    def __post_init__(self) -> None:
        # A JSON field hands us a list; keep the config hashable and immutable all the same.
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        validate_tiebreaks(self.tiebreaks)
        if self.mode not in MODES:
            raise StandingsError(f"Unknown standings mode {self.mode!r}; choose {MODES}.")


@register
class MatchPoints(Tiebreak):
    name = "match_points"
    label = "Match points"
    description = "Pairwise match points, byes included (also the primary sort)."

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].match_points


@register
class TotalPayouts(Tiebreak):
    name = "total_payouts"
    label = "Total payouts"
    description = "Sum of the player's payouts over every deal played, forfeited matches too."

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].total_payouts


@register
class Wins(Tiebreak):
    name = "wins"
    label = "Matches won"
    description = "Matches the player won as the game defines it (byes are not wins)."

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].wins


@register
class OpponentsAveragePayout(Tiebreak):
    name = "opponents_average_payout"
    label = "Opponents' average payout"
    description = (
        "Buchholz-like: the average total payout of the opponents met, each counted once per "
        "match shared; 0 without opponents."
    )

    def value(self, tally: EventTally, player_id: int) -> Value:
        t = tally.players[player_id]
        # int / int is correctly rounded, so equal averages give equal floats (ties stay ties).
        return t.opponents_payout_sum / t.opponents_met if t.opponents_met else 0.0

    def format(self, value: Value) -> str:
        return f"{value:.2f}"


@register
class HeadToHead(Tiebreak):
    name = "head_to_head"
    label = "Head-to-head"
    description = (
        "Among the players still tied at this point only: match points scored against each "
        "other in the matches they shared."
    )
    per_group = True

    def values(self, tally: EventTally, group: Sequence[int]) -> list[Value]:
        pairs = tally.pair_points
        if pairs is None:  # the ranking asks for pairs when this tie-break is configured
            raise RuntimeError("head_to_head needs a tally built with with_pairs=True")
        if len(group) == 1:
            return [0]
        members = set(group)
        out: list[Value] = []
        for p in group:
            row = pairs[p]
            # Walk whichever is smaller, the player's opponents or the group: linear overall.
            if len(row) <= len(members):
                out.append(sum(v for q, v in row.items() if q in members))
            else:
                out.append(sum(row.get(q, 0) for q in group))
        return out


@register
class Lot(Tiebreak):
    name = "lot"
    label = "Drawing of lots"
    description = (
        "A pseudo-random number from the event's lot seed and the player: stable across "
        "recomputations, and never equal for two players, so it always breaks the tie."
    )

    def value(self, tally: EventTally, player_id: int) -> Value:
        return lot_number(tally.lot_seed, player_id)
