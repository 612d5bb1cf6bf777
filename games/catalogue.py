"""What pages, forms and the API know about the games, as plain data (no Django).

The registry's look-ups shaped for the site: a game's info, the choices of a form, its display
name, a variant checked, records and score sheets scored, score grids read and checked (their
problems as plain dicts). `league` and gameplay's pages import it directly; `gameplay.api` keeps
the table lifecycle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import registry
from games.core import records
from games.core.errors import EngineError, RecordError, VariantError
from games.core.grid import check_grid as _check_grid
from games.core.grid import describe_grid, grid_layouts, grid_to_sheet, input_name, read_form
from games.core.registry import GameSpec
from games.core.sheet_rules import FULL
from games.core.sheets import score_sheet as _score_sheet
from games.core.sheets import sheet_examples as _sheet_examples

__all__ = [
    "FULL_GRID",
    "EngineError",
    "GameInfo",
    "RecordError",
    "VariantError",
    "check_grid",
    "display_name",
    "game",
    "game_choices",
    "games",
    "grid_input_name",
    "grid_layout_choices",
    "grid_sheet",
    "random_record",
    "read_grid",
    "score_record",
    "score_sheet",
    "sheet_examples",
    "sheet_grid",
    "use_language",
    "validate_variant",
]


# The language a person reads the site in now (the site sets it: Django's active language,
# gameplay/apps.py); nothing set: English names. Games' names in it: the engines' NAMES.
def _no_language() -> str | None:
    return None


_language: Callable[[], str | None] = _no_language


def use_language(current: Callable[[], str | None]) -> None:
    """Where the names below find the page's language (called once, when the site starts)."""
    global _language
    _language = current


def _name(spec: GameSpec) -> str:
    return spec.name_in(_language())


FULL_GRID = FULL  # the layout of a grid that says none


@dataclass(frozen=True)
class GameInfo:
    """What forms, pages and the API need to know about a game."""

    name: str
    display_name: str
    seats: int
    variant_schema: list[dict[str, Any]]
    defaults: dict[str, Any]
    goal: str = ""  # the game's aim in one line (the engine's GOAL), for cards and the lobby
    # The sizes of table it is played at: (3, 4) for a three-player game that is also played
    # at a table of four, the dealer sitting out (docs/engines.md, "Tables of four")
    table_sizes: tuple[int, ...] = ()


def _info(spec: GameSpec) -> GameInfo:
    return GameInfo(
        spec.name,
        _name(spec),
        spec.seats,
        spec.variant_schema(),
        spec.defaults(),
        spec.goal,
        spec.table_sizes,
    )


def games() -> list[GameInfo]:
    """Every registered game, in registration order."""
    return [_info(s) for s in registry.games()]


def game(name: str) -> GameInfo:
    """One game's info; `KeyError` for an unknown name."""
    return _info(registry.get_game(name))


def game_choices() -> list[tuple[str, str]]:
    """(name, display name) pairs for a form's choice field."""
    return [(s.name, _name(s)) for s in registry.games()]


def display_name(game_name: str) -> str:
    """The name a person reads for a game ("3-5-8" for `three_five_eight`): ids stay in URLs,
    the API and CSVs; in the page's language (the engine's NAMES: 最中限 in Japanese). An
    unknown id (a game since removed) is shown as it is, not an error."""
    try:
        return _name(registry.get_game(game_name))
    except KeyError:
        return game_name


def validate_variant(game_name: str, variant: Any) -> dict[str, Any]:
    """The full variant of a game (defaults filled in); raises `VariantError` with a reason."""
    try:
        spec = registry.get_game(game_name)
    except KeyError:
        raise VariantError(f"unknown game {game_name!r}") from None
    return spec.validate_variant(variant)


def score_record(record: Any, *, n_deals: int | None = None) -> dict[str, Any]:
    """Replay a `mediana.record/1` record and score it (the output of `score_record`).

    Raises `RecordError` whose message is the one-line report of records.md.
    """
    return records.score_record(record, n_deals=n_deals)


def random_record(
    game_name: str,
    *,
    players: list[str],
    variant: dict[str, Any] | None = None,
    n_deals: int = 1,
    seed: int = 0,
    deal_seed: str | None = None,
) -> dict[str, Any]:
    """A complete record of a match played with random legal moves (demo data, tests).

    `deal_seed`: deal from this seed instead of `seed` (the moves still come from `seed`), as
    a table started with it is dealt: records of a duplicate section's tables (`start_table`
    given its seed) then hold the same deals and commitments, played differently."""
    match = registry.start_match(
        game_name,
        variant=variant,
        n_deals=n_deals,
        seed=seed if deal_seed is None else str(deal_seed),
        players=players,
        seats=len(players),  # a table of four of a three-player game, too
    )
    rng = random.Random(seed)
    while not match.finished:
        seat = rng.choice(match.to_act())
        match.apply(seat, match.move_to_action(match.random_move(seat, rng)))
    return match.export()


def score_sheet(
    game_name: str,
    variant: dict[str, Any],
    sheet: Any,
    *,
    dealer: int = 0,
    n_seats: int,
    n_deals: int | None = None,
) -> dict[str, Any]:
    """Check a typed score sheet against the rules and score it like a record.

    Raises `EngineError` (a `SheetError`) naming the deal and the reason.
    """
    return _score_sheet(game_name, variant, sheet, dealer=dealer, n_seats=n_seats, n_deals=n_deals)


def _problem(exc: Any) -> dict[str, Any]:
    """A grid problem as plain data: its deal (from 0), field, seat, reason and message."""
    return {
        "deal": exc.deal,
        "field": exc.field,
        "seat": exc.seat,
        "reason": exc.reason,
        "message": str(exc),
    }


def sheet_grid(
    game_name: str, variant: dict[str, Any], layout: str = FULL, n_seats: int | None = None
) -> dict[str, Any]:
    """The game's score grid under this variant in a layout: ``{"game", "seats", "layout",
    "layouts", "fields": [...]}``, each field's name, English label, kind, bounds, choices,
    per-seat flag, sum and `when`. Raises `EngineError` for a layout the game does not offer.
    `n_seats`: a table of four of a game of three (the sitter's cells blank)."""
    return describe_grid(game_name, variant, layout, n_seats)


def grid_layout_choices(game_name: str, variant: dict[str, Any]) -> list[dict[str, str]]:
    """The layouts the game's grid comes in (``full`` first): name, English label and help."""
    return grid_layouts(game_name, variant)


def grid_input_name(deal: int, field: str, seat: int | None = None) -> str:
    """The form input of a grid field (and the key of its problem): ``d0.points.2``."""
    return input_name(deal, field, seat)


def read_grid(
    game_name: str,
    variant: dict[str, Any],
    n_rows: int,
    get: Any,
    layout: str = FULL,
    n_seats: int | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grid rows of a layout from a form's inputs (`get(name)` gives an input's text; names as
    `grid.input_name`), and the inputs that hold no value of their kind (as problems)."""
    rows, problems = read_form(game_name, variant, n_rows, get, layout, n_seats)
    return rows, [_problem(p) for p in problems]


def grid_sheet(
    game_name: str,
    variant: dict[str, Any],
    rows: Any,
    layout: str = FULL,
    n_seats: int | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The score sheet a grid of this layout stands for, and every problem found (field by
    field); the sheet counts only without problems."""
    sheet, problems = grid_to_sheet(game_name, variant, rows, layout, n_seats)
    return sheet, [_problem(p) for p in problems]


def check_grid(
    game_name: str,
    variant: dict[str, Any],
    rows: Any,
    *,
    n_seats: int,
    n_deals: int,
    layout: str = FULL,
) -> dict[str, Any]:
    """A grid as it is typed: each deal's dealer, scores, payouts and running totals as far as
    the rows are right, every problem, and (without problems) the sheet and its score."""
    out = _check_grid(game_name, variant, rows, n_seats=n_seats, n_deals=n_deals, layout=layout)
    out["problems"] = [_problem(p) for p in out["problems"]]
    return out


def sheet_examples() -> list[dict[str, Any]]:
    """Per game: what a score sheet's deal holds and an example sheet (the API's schema)."""
    return _sheet_examples()
