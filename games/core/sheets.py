"""Score sheets: results of over-the-table play typed by an organizer, checked by the rules.

A sheet has no cards, only each deal's outcome. Wherever the rules derive payouts from the
outcome (every game here does), the sheet's payouts are derived, and payouts the organizer
typed must sum to zero and match them. The result has the shape of `score_record`'s output.

Sheet format (JSON): ``{"deals": [DEAL, ...]}``, one DEAL per deal in play order; any deal may be
``{"thrown_in": true}`` where the game allows it. What a DEAL holds is the game's own: see the
docstring of its sheet rules (the engine's ``SHEET``, e.g. ``saichugen.SaichugenSheet``). Every
deal may also carry ``"payouts"``, checked as above.

Errors count deals from 0 (``deal 0: …``), as records do; the `SheetError` keeps the deal, the
reason and, where the rules know it, the grid field and seat apart for pages that number deals
from 1 (`grid.py` builds sheets from score grids).
"""

from __future__ import annotations

from typing import Any

from games.core.registry import games, get_game
from games.core.sheet_rules import SheetError, ints

__all__ = ["SheetError", "score_sheet", "sheet_examples"]


def _check_payouts(deal: dict[str, Any], derived: list[int], n: int) -> list[int]:
    if "payouts" not in deal or deal["payouts"] is None:
        return derived
    typed = ints(deal["payouts"], n, "payouts")
    if sum(typed) != 0:
        raise SheetError(f"payouts {typed} do not sum to zero", field="payouts")
    if typed != derived:
        raise SheetError(
            f"payouts {typed} do not follow from the deal; the rules give {derived}",
            field="payouts",
        )
    return typed


def score_sheet(
    game: str,
    variant: dict[str, Any],
    sheet: Any,
    *,
    dealer: int = 0,
    n_seats: int | None = None,
    n_deals: int | None = None,
) -> dict[str, Any]:
    """Check a sheet against the rules and score it (the shape of `score_record`'s output).

    With `n_deals` (the match length) a sheet with fewer deals is not complete, unless the
    match was won early (3-5-8)."""
    spec = get_game(game)
    variant = spec.validate_variant(variant)
    n = spec.seats
    engine = spec.engine
    if n_seats is not None and n_seats != n and n_seats in spec.table_sizes:
        # A table of four of a game of three: the dealer sits out (four_sheet.FourSheet).
        n, engine = n_seats, spec.engine_for(n_seats)
        problem = engine.four_problem(variant)  # 3-5-8's Woburn bidding, say
        if problem:
            raise SheetError(problem)
    if n_seats is not None and n_seats != n:
        raise SheetError(f"{spec.display_name} is played by {n}, not {n_seats}")
    if (
        not isinstance(sheet, dict)
        or not isinstance(sheet.get("deals"), list)
        or not sheet["deals"]
    ):
        raise SheetError('a score sheet is {"deals": [...]} with at least one deal')
    rules = engine.SHEET(variant, spec.display_name)
    deals, totals_s, totals_p = [], [0] * n, [0] * n
    for index, deal in enumerate(sheet["deals"]):
        try:
            if not isinstance(deal, dict):
                raise SheetError("each deal is an object")
            if rules.winner is not None:
                raise SheetError("the match was already won in an earlier hand")
            if deal.get("thrown_in"):
                rules.thrown_in()
                scores, payouts = [0] * n, [0] * n
            else:
                scores, payouts, dealer = rules.deal(deal, dealer)
            payouts = _check_payouts(deal, payouts, n)
        except SheetError as exc:
            raise exc.at_deal(index) from None
        deals.append({"dealer": dealer, "scores": scores, "payouts": payouts})
        if n != spec.seats:
            deals[-1]["sitter"] = dealer  # records.md: at a table of four the dealer sits out
        totals_s = [a + b for a, b in zip(totals_s, scores, strict=True)]
        totals_p = [a + b for a, b in zip(totals_p, payouts, strict=True)]
        dealer = (dealer + 1) % n
    complete = n_deals is None or len(deals) >= n_deals or rules.winner is not None
    return {
        "game": game,
        "complete": complete,
        "deals": deals,
        "totals": {"scores": totals_s, "payouts": totals_p},
        "winners": rules.winners(totals_s, totals_p) if complete else [],
    }


def sheet_examples() -> list[dict[str, Any]]:
    """Per game: what one sheet deal holds (its sheet rules' docstring) and a small example
    sheet (`EXAMPLE`), for the API's documentation."""
    out = []
    for spec in games():
        rules = spec.engine.SHEET
        doc = " ".join((rules.__doc__ or "").split())
        out.append(
            {
                "game": spec.name,
                "display_name": spec.display_name,
                "description": doc,
                "example": rules.EXAMPLE,
            }
        )
    return out
