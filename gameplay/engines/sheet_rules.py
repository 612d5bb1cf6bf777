"""What every game's score-sheet rules share: the error, field checks, and the interface.

A game's sheet rules (a `SheetRules` subclass beside its engine, named by the engine's `SHEET`)
turn one deal as written on paper into that deal's scores and payouts. `sheets.score_sheet`
walks a whole sheet through them; nothing there names a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .errors import EngineError


class SheetError(EngineError):
    """A score sheet the rules cannot accept; the message names the deal and the reason."""


def ints(value: Any, n: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise SheetError(f"{what} must be a list of {n} whole numbers")
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SheetError(f"{what} must be whole numbers")
    return list(value)


def seat(value: Any, n: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise SheetError(f"{what} must be a seat from 0 to {n - 1}")
    return value


class SheetRules(ABC):
    """One match's sheet, deal by deal (stateful: some games carry a balance across deals).

    Subclasses implement `deal`; a game that can throw a deal in overrides `thrown_in`, one
    that ends early sets `winner`, one whose winners are not the highest payouts overrides
    `winners`.
    """

    def __init__(self, variant: dict[str, Any], display_name: str) -> None:
        self.variant = variant
        self.display_name = display_name
        self.winner: int | None = None  # set when the match was won before its last deal

    @abstractmethod
    def deal(self, deal: dict[str, Any], dealer: int) -> tuple[list[int], list[int], int]:
        """Scores, derived payouts and the deal's dealer (a bid may decide who deals)."""

    def thrown_in(self) -> None:
        """Accept a thrown-in deal or raise `SheetError`."""
        raise SheetError(f"a {self.display_name} deal cannot be thrown in")

    def winners(self, scores: list[int], payouts: list[int]) -> list[int]:
        """The match's winners from the sheet's totals: the highest payouts share the win."""
        if self.winner is not None:
            return [self.winner]
        best = max(payouts)
        return [i for i, p in enumerate(payouts) if p == best]
