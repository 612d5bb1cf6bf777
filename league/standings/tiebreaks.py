"""The tie-break registry: small classes chosen by name in the event's configuration.

As in Tabbycat's `standings/metrics.py`, each tie-break is a class with a `name` (stored in the
event's configuration), a `label` (shown on the page and in the form) and a key computed from the
whole event. Higher keys rank first for every tie-break. A tie-break whose value depends on who is
still tied (head-to-head) says so with `per_group = True` and is handed that group.

Each one also brings what a player reads about it on the event's help page
(`/events/<slug>/help/`): `help`, what it compares, and `example`, a small case worked through.
Like the labels they are English marked with `gettext_noop` (a no-op of the name `makemessages`
looks for, so this pure layer imports no Django) and translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import ClassVar

from games.core.named import Registry
from league.draws import lot_number

from .errors import StandingsError, UnknownTiebreak
from .records import Value
from .tally import EventTally


def gettext_noop(message: str) -> str:
    """Mark `message` for translation; it is translated where a person reads it."""
    return message


class Tiebreak:
    """One way of ordering players; subclasses set `name`, `label`, `description`, `help`,
    `example` and `values` (or `value`)."""

    name: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str]  # for developers: how the key is computed
    help: ClassVar[str]  # for players: what it compares (the help page)
    example: ClassVar[str]  # for players: a small case worked through (the help page)
    #: True when the key of a player depends on the group still tied with him.
    per_group: ClassVar[bool] = False
    #: Whether it gets a column of its own on the page and in the CSV: not when its value is one
    #: of the fixed columns already (a second `total_payouts`).
    own_column: ClassVar[bool] = True
    #: Whether its values are nobody's to read (the lot's give the event's secret seed back):
    #: never a column, and null in the API (`public_values`). The ranks it decides are shown.
    secret: ClassVar[bool] = False
    #: Places after the point its values are shown with (page and CSV); None: whole numbers.
    decimals: ClassVar[int | None] = None

    def values(self, tally: EventTally, group: Sequence[int]) -> list[Value]:
        """The key of each player of `group` (in the same order); higher ranks first."""
        return [self.value(tally, p) for p in group]

    def value(self, tally: EventTally, player_id: int) -> Value:
        """The key of one player, for tie-breaks that do not depend on the group."""
        raise NotImplementedError

    def cell(self, value: Value | None) -> Value | Decimal | str:
        """The value as the page and the CSV show it, still a number (the CSV's safe writer leaves
        numbers alone): `decimals` places, rounded half up as the page's numbers always were
        (-1.625 → -1.63, 3 → 3.00), never -0.00."""
        if value is None:  # no value here (head-to-head in a knockout): an empty cell
            return ""
        if self.decimals is None:
            return value
        # From the shortest repr, not the binary float: 0.285 is 0.285 to a reader, not 0.28499….
        places = Decimal(1).scaleb(-self.decimals)
        rounded = Decimal(repr(float(value))).quantize(places, ROUND_HALF_UP)
        return rounded if rounded else abs(rounded)

    def format(self, value: Value | None) -> str:
        """The value as text, exactly as the CSV writes it."""
        return str(self.cell(value))


TIEBREAKS: Registry[str, type[Tiebreak]] = Registry("tie-break", UnknownTiebreak)


def register(cls: type[Tiebreak]) -> type[Tiebreak]:
    """Add a tie-break to the registry under its `name` (class decorator)."""
    if cls.name in TIEBREAKS:
        raise ValueError(f"two tie-breaks are named {cls.name!r}")
    return TIEBREAKS.register(cls.name, cls)


def tiebreak_choices() -> list[tuple[str, str]]:
    """(name, label) of every tie-break, in registry order: the event form's choices."""
    return [(name, cls.label) for name, cls in TIEBREAKS.items()]


def get_tiebreak(name: str) -> Tiebreak:
    """An instance of the tie-break called `name`, or `UnknownTiebreak` with the known names."""
    return TIEBREAKS.get(name)()


def column_tiebreaks(names: Sequence[str]) -> list[tuple[int, Tiebreak]]:
    """(position in the configuration, tie-break) of those with a column of their own, in the
    configuration's order: the page's and the CSV's extra columns. The others still rank (the
    lot decides the ranks) but their values are the fixed columns' or nobody's to read."""
    picked = [(i, get_tiebreak(name)) for i, name in enumerate(names)]
    return [(i, tb) for i, tb in picked if tb.own_column and not tb.secret]


def public_values(names: Sequence[str], values: Sequence[Value]) -> list[Value | None]:
    """A row's tie-break values (in the configuration's order) as anyone may read them: a secret
    tie-break's (`Tiebreak.secret`, the lot) is None, the others as computed. The API's list
    keeps one place per configured tie-break, so a client pairing it with the event's
    `tiebreaks` still finds each value where it was. A name the registry no longer knows is
    hidden too: nothing vouches that its value may be read."""
    registered = [TIEBREAKS.find(name) for name in names]
    return [
        v if tb is not None and not tb.secret else None
        for tb, v in zip(registered, values, strict=False)
    ]


def validate_tiebreaks(names: Iterable[str]) -> None:
    """Refuse unknown or repeated names, with a message the organizer can act on."""
    seen: set[str] = set()
    for name in names:
        get_tiebreak(name)
        if name in seen:
            raise StandingsError(f"The tie-break “{TIEBREAKS.get(name).label}” is listed twice.")
        seen.add(name)


MODES = ("points", "knockout")
# How a table's result is scored: "match" (each table on its own: match points, the tie-breaks)
# or "duplicate" (against the other tables of a section: league.standings.duplicate_arithmetic),
# which then ranks by the duplicate total or the matchpoint percentage, the tie-breaks after.
SCORINGS = ("match", "duplicate")
DUPLICATE_RANKS = ("total", "percentage")


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
    scoring: str = "match"
    duplicate_rank: str = "total"

    def __post_init__(self) -> None:
        # A JSON field hands us a list; keep the config hashable and immutable all the same.
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        validate_tiebreaks(self.tiebreaks)
        if self.mode not in MODES:
            raise StandingsError(f"Unknown standings mode {self.mode!r}; choose {MODES}.")
        if self.scoring not in SCORINGS:
            raise StandingsError(f"Unknown scoring {self.scoring!r}; choose {SCORINGS}.")
        if self.duplicate_rank not in DUPLICATE_RANKS:
            raise StandingsError(
                f"Unknown duplicate rank {self.duplicate_rank!r}; choose {DUPLICATE_RANKS}."
            )


@register
class MatchPoints(Tiebreak):
    name = "match_points"
    label = gettext_noop("Match points")
    description = "Pairwise match points, byes included (also the primary sort)."
    help = gettext_noop(
        "The match points themselves. The standings always sort by match points first, so as a "
        "tie-break they separate nobody: it only shows where the organizer put them in the order."
    )
    example = gettext_noop(
        "Ana and Ben both have 3 match points: this tie-break gives each of them 3 and leaves "
        "them level, and the next one decides."
    )
    own_column = False  # a fixed column already

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].match_points


@register
class TotalPayouts(Tiebreak):
    name = "total_payouts"
    label = gettext_noop("Total payouts")
    description = "Sum of the player's payouts over every deal played, forfeited matches too."
    help = gettext_noop(
        "The sum of the player's payouts over every deal played in the event, forfeited "
        "matches included. The higher total ranks first."
    )
    example = gettext_noop(
        "Ana and Ben both have 3 match points. Ana's payouts add up to +7 and Ben's to +2: Ana "
        "ranks above Ben."
    )
    own_column = False  # a fixed column already

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].total_payouts


@register
class Wins(Tiebreak):
    name = "wins"
    label = gettext_noop("Matches won")
    description = "Matches the player won as the game defines it (byes are not wins)."
    help = gettext_noop(
        "How many matches the player won, as the game decides who wins a match (see the "
        "payouts). A bye is not a win. More wins rank first."
    )
    example = gettext_noop(
        "Ana and Ben both have 3 match points; Ana won 2 of her matches and Ben 1: Ana ranks "
        "above Ben."
    )
    own_column = False  # a fixed column already

    def value(self, tally: EventTally, player_id: int) -> Value:
        return tally.players[player_id].wins


@register
class OpponentsAveragePayout(Tiebreak):
    name = "opponents_average_payout"
    label = gettext_noop("Opponents' average payout")
    description = (
        "Buchholz-like: the average total payout of the opponents met, each counted once per "
        "match shared; 0 without opponents."
    )
    help = gettext_noop(
        "The average of the total payouts (in the whole event) of the opponents the player "
        "met, each opponent counted once for every match they shared: it favours whoever met "
        "the stronger field. 0 for a player who has met nobody yet. The higher average ranks "
        "first."
    )
    example = gettext_noop(
        "Ana and Ben both have 3 match points. Ana met Cleo (total payouts +6) and Dan (-2): "
        "her average is (6 - 2) / 2 = 2.00. Ben met Eva (+1) and Finn (-3): -1.00. Ana ranks "
        "above Ben."
    )
    decimals = 2

    def value(self, tally: EventTally, player_id: int) -> Value:
        t = tally.players[player_id]
        # int / int is correctly rounded, so equal averages give equal floats (ties stay ties).
        return t.opponents_payout_sum / t.opponents_met if t.opponents_met else 0.0


@register
class HeadToHead(Tiebreak):
    name = "head_to_head"
    label = gettext_noop("Head-to-head")
    description = (
        "Among the players still tied at this point only: match points scored against each "
        "other in the matches they shared."
    )
    help = gettext_noop(
        "Only among the players still level when this tie-break is reached: the match points "
        "each of them scored against the others of that group, in the matches they shared "
        "(+1 for each of them below you at the table, -1 for each above). Where it stands in "
        "the order matters: a tie-break before it may already have separated some of them."
    )
    example = gettext_noop(
        "Ana and Ben are level and met once; Ana's payout at that table was higher than Ben's, "
        "so she has +1 against him and he -1: Ana ranks above Ben. Had they never met, both "
        "would have 0 and stay level."
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
    label = gettext_noop("Drawing of lots")
    description = (
        "A pseudo-random number from the event's lot seed and the player: stable across "
        "recomputations, and never equal for two players, so it always breaks the tie."
    )
    help = gettext_noop(
        "The event's drawing of lots: every player has a place in one draw, made once for the "
        "event from its secret seed. It stays the same every time the standings are worked "
        "out, and no two players share a place, so it always breaks the tie. The draw itself "
        "is not shown."
    )
    example = gettext_noop(
        "Ana and Ben are level on everything before it. The event's draw has Ana ahead of Ben, "
        "so she ranks above him, now and every time the standings are worked out again."
    )
    # The number gives the event's secret schedule seed back (the mix inverts): the ranks it
    # decides are shown, never the number (no column, null in the API).
    secret = True

    def value(self, tally: EventTally, player_id: int) -> Value:
        return lot_number(tally.lot_seed, player_id)
