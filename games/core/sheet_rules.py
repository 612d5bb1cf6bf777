"""What every game's score-sheet rules share: the error, field checks, the grid's fields, and the
interface.

A game's sheet rules (a `SheetRules` subclass beside its engine, named by the engine's `SHEET`)
turn one deal as written on paper into that deal's scores and payouts. `sheets.score_sheet`
walks a whole sheet through them; nothing there names a game.

The rules also describe the **score grid** (`SheetRules.grid`): the fields a player writes on
paper for one deal of that game, with their types, bounds and choices (`GridField`), and convert
one filled-in grid row to a sheet deal (`SheetRules.from_row`). `grid.py` reads, checks and
converts whole grids from those descriptions; nothing there names a game either.

A grid comes in one or more **layouts** (`SheetRules.LAYOUTS`, names from `LAYOUTS` here): the
`full` grid, everything a player writes on paper, and for a game whose payouts follow from the
deal's scores alone a `scores` grid, each seat's score for the deal and nothing else. Every
layout of a game converts to the same sheet deal, so the rules score it the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core.errors import EngineError
from games.core.hints import gettext_noop


class SheetError(EngineError):
    """A score sheet the rules cannot accept; the message names the deal and the reason.

    The parts are kept for whoever shows the error beside the field that is wrong: `deal` (from
    0, as records count; set by `sheets.score_sheet`), `field` (a grid field's name), `seat`
    (for a field written once per seat) and `reason` (the message without the deal)."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        seat: int | None = None,
        deal: int | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.seat = seat
        self.deal = deal
        self.reason = reason if reason is not None else message

    def at_deal(self, index: int) -> SheetError:
        """The same error, named by its deal (``deal 0: …``)."""
        return SheetError(
            f"deal {index}: {self.reason}",
            field=self.field,
            seat=self.seat,
            deal=index,
            reason=self.reason,
        )


def ints(value: Any, n: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise SheetError(f"{what} must be a list of {n} whole numbers")
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SheetError(f"{what} must be whole numbers")
    return list(value)


def seat(value: Any, n: int, what: str, field: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise SheetError(f"{what} must be a seat from 0 to {n - 1}", field=field)
    return value


# The layouts a grid may come in: (English label, help), translated where shown. A game offers
# those its sheet rules name in `LAYOUTS`; a new kind of layout is added here first.
FULL = "full"
SCORES = "scores"
LAYOUTS: dict[str, tuple[str, str]] = {
    FULL: (
        gettext_noop("Full grid"),
        gettext_noop("everything written on paper for each deal, each part checked by the rules"),
    ),
    SCORES: (
        gettext_noop("Final scores only"),
        gettext_noop(
            "each player's score for each deal, as a club's score sheet has it: the payouts "
            "follow by the rules, but how the deal came about cannot be checked"
        ),
    ),
}


# What a grid field holds: a whole number, a tick, one of a few named choices, or a seat.
FIELD_KINDS = ("int", "bool", "choice", "seat")


@dataclass(frozen=True)
class GridField:
    """One thing a player writes on paper for a deal: once per deal, or once per seat.

    `min`/`max` bound an int; `choices` are (value, English label) pairs; an `optional` seat or
    choice may be left blank (`blank` says what blank means); `sum` is what a per-seat int's
    values add up to in every deal; `when` are (field, value) pairs that must all hold for the
    field to be asked at all (a Grand Hand's fields only when the deal was one). Labels and
    help are English, marked with `gettext_noop`, translated where they are shown."""

    name: str
    label: str
    kind: str
    per_seat: bool = False
    min: int | None = None
    max: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    optional: bool = False
    blank: str = ""
    sum: int | None = None
    when: tuple[tuple[str, Any], ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"grid field {self.name!r}: unknown kind {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"grid field {self.name!r}: a choice needs its choices")

    def describe(self) -> dict[str, Any]:
        """The field as plain JSON data (for pages, their script and the API's documentation)."""
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "per_seat": self.per_seat,
            "min": self.min,
            "max": self.max,
            "choices": [list(c) for c in self.choices],
            "optional": self.optional,
            "blank": self.blank,
            "sum": self.sum,
            "when": [list(w) for w in self.when],
            "help": self.help,
        }


class SheetRules(ABC):
    """One match's sheet, deal by deal (stateful: some games carry a balance across deals).

    Subclasses implement `deal`; a game that can throw a deal in overrides `thrown_in`, one
    that ends early sets `winner`, one whose winners are not the highest payouts overrides
    `winners`. A game with a score grid implements `grid` and `from_row`; `EXAMPLE` is a small
    sheet of that game, for the API's documentation. A game whose deal scores alone decide its
    payouts may offer a second layout (`LAYOUTS`, e.g. `(FULL, SCORES)`): `grid` and `from_row`
    are then called with the layout's name for it (only for a layout other than `FULL`, so a
    game with one layout need not know about layouts at all).
    """

    EXAMPLE: ClassVar[dict[str, Any]] = {}
    LAYOUTS: ClassVar[tuple[str, ...]] = (FULL,)

    def __init__(self, variant: dict[str, Any], display_name: str) -> None:
        self.variant = variant
        self.display_name = display_name
        self.winner: int | None = None  # set when the match was won before its last deal

    @abstractmethod
    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        """Scores, derived payouts and the deal's dealer (a bid may decide who deals)."""

    def thrown_in(self) -> None:
        """Accept a thrown-in deal or raise `SheetError`."""
        raise SheetError(f"a {self.display_name} deal cannot be thrown in", field="thrown_in")

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        """The match's winners from the sheet's totals: the highest payouts share the win."""
        if self.winner is not None:
            return [self.winner]
        best = max(payouts)
        return [i for i, p in enumerate(payouts) if p == best]

    def grid(self, layout: str = FULL) -> list[GridField]:
        """The score grid's fields for one deal under this variant, in this layout (one of
        `LAYOUTS`; none: no grid)."""
        return []

    def start_row(self, index: int) -> None:
        """The deal (from 0) the next `from_row` converts; at a table of four it says who sits
        out (`four_sheet.FourSheet`)."""
        return None

    def blank_seat(self) -> int | None:
        """The seat whose cells the row started (`start_row`) leaves blank: a table of four's
        sitter; None at a table where everybody plays every deal."""
        return None

    def from_row(self, row: dict[str, Any], layout: str = FULL) -> dict[str, Any]:
        """One grid row of this layout — the fields `grid` asks for under this row's answers,
        checked against their own bounds, blanks as None — as a sheet deal. Called in deal order
        on one rules object of its own (a game may remember earlier rows); raises `SheetError`
        naming the field (and seat) that is wrong."""
        raise SheetError(f"{self.display_name} has no score grid")
