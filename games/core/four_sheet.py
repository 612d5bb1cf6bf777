"""Score sheets and grids at a table of four (../shared/rules/tables-of-four.md).

Each deal of a table of four is a one-deal match of the game among the three seats after the
sitter (the dealer), the third of them in the dealer's roles (`four.FourSeats`). So a sheet
deal of a table of four is the game's own one-deal sheet with a fourth, empty column: every
per-seat list has four entries, the sitter's 0 (a grid leaves his cells blank), and a seat
named in a grid (a Jungfrau, a declarer) is one of the three who played. `FourSheet` folds a
deal into the game's own sheet rules (`SheetRules`, fresh for each deal, as the deal is a
match of its own) and widens what they score back to four seats, the sitter's 0. Nothing
here names a game; a game whose match spans deals (3-5-8's early win) overrides `_ended`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.sheet_rules import FULL, SheetError, SheetRules

FOUR = 4
# The seat of the three who play that has the dealer's roles (four.Seating: sitter + 3).
INNER_DEALER = 2


def playing(sitter: int) -> list[int]:
    """The seats that play a deal, as its inner match numbers them (inner seat i)."""
    return [(sitter + k) % FOUR for k in (1, 2, 3)]


def widen(values: list[Any], sitter: int, filler: Any = 0) -> list[Any]:
    """A three-seat list as four seats, the sitter's entry `filler`."""
    out = [filler] * FOUR
    for inner, outer in enumerate(playing(sitter)):
        out[outer] = values[inner]
    return out


class FourSheet(SheetRules):
    """A game's sheet rules at a table of four; `over(rules)` makes the game's subclass."""

    INNER: ClassVar[type[SheetRules]]

    @classmethod
    def over(cls, inner: type[SheetRules]) -> type[FourSheet]:
        return type(
            f"Four{inner.__name__}",
            (cls,),
            {"INNER": inner, "LAYOUTS": inner.LAYOUTS, "__doc__": cls.__doc__},
        )

    def __init__(self, variant: dict[str, Any], display_name: str) -> None:
        super().__init__(variant, display_name)
        self.balances = [0] * FOUR  # payouts so far, by seat
        self.rows = self.INNER(variant, display_name)  # grid rows are converted in order
        self.row_sitter = 0

    # ------------------------------------------------------------------ sheet deals
    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        """`dealer` is the sitter: he dealt the deal and sits it out."""
        sitter = dealer
        folded: dict[str, Any] = {}
        for key, value in deal.items():
            if key == "payouts":
                continue  # checked on all four seats by `sheets.score_sheet`
            if isinstance(value, list):
                if len(value) != FOUR:
                    raise SheetError(f"{key} must be a list of {FOUR} whole numbers")
                if value[sitter] not in (0, None):
                    raise SheetError(
                        f"seat {sitter} sits out this deal: its {key} must be 0",
                        field=key,
                        seat=sitter,
                    )
                value = [value[s] for s in playing(sitter)]
            folded[key] = value
        rules = self.INNER(self.variant, self.display_name)
        scores, payouts, _dealer = rules.deal(folded, INNER_DEALER)
        scores, payouts = widen(scores, sitter), widen(payouts, sitter)
        self.balances = [b + p for b, p in zip(self.balances, payouts, strict=True)]
        self._ended(rules, sitter, scores)
        return scores, payouts, dealer

    def _ended(self, rules: SheetRules, sitter: int, scores: list[int]) -> None:
        """Whether this deal ended the match by the game's own rule (`winner`): as the inner
        match's rules say, for the seat that played."""
        if rules.winner is not None:
            self.winner = playing(sitter)[rules.winner]

    def thrown_in(self) -> None:
        self.INNER(self.variant, self.display_name).thrown_in()

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        if self.winner is not None:
            return [self.winner]
        return self.INNER(self.variant, self.display_name).winners(scores, payouts)

    # ------------------------------------------------------------------ grids
    def grid(self, layout: str = FULL) -> list:
        return self.rows.grid() if layout == FULL else self.rows.grid(layout)

    def start_row(self, index: int) -> None:
        self.row_sitter = index % FOUR  # the league's tables: seat 0 deals first

    def blank_seat(self) -> int | None:
        return self.row_sitter

    def from_row(self, row: dict[str, Any], layout: str = FULL) -> dict[str, Any]:
        """A checked grid row of four seats (the sitter's cells 0, `grid.grid_to_sheet`) as a
        sheet deal of four seats."""
        sitter = self.row_sitter
        seat_fields = {f.name for f in self.grid(layout) if f.kind == "seat"}
        folded: dict[str, Any] = {}
        for key, value in row.items():
            if isinstance(value, list) and len(value) == FOUR:
                value = [value[s] for s in playing(sitter)]
            elif key in seat_fields and value is not None:
                if value == sitter:
                    raise SheetError("the player chosen sits out this deal", field=key)
                value = playing(sitter).index(value)
            folded[key] = value
        deal = self.rows.from_row(folded) if layout == FULL else self.rows.from_row(folded, layout)
        return {
            k: widen(v, sitter) if isinstance(v, list) and len(v) == FOUR - 1 else v
            for k, v in deal.items()
        }
