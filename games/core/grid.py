"""Score grids: a match typed deal by deal in the fields a player writes on paper.

A game's sheet rules describe the fields (`SheetRules.grid`, a list of `GridField`) and turn
one filled-in row into a sheet deal (`SheetRules.from_row`). This module does what is the same
for every game, from the description alone: read a row from a form's text inputs, check each
field against its own type, bounds, choices and sum, convert a whole grid into the sheet that
`sheets.score_sheet` scores, and score a grid row by row for running totals as it is typed.

A grid row is JSON: ``{field: value}`` for a field asked once per deal, ``{field: [v0, v1, …]}``
for one asked per seat; a blank is ``null``. Form inputs are named ``d<deal>.<field>`` and
``d<deal>.<field>.<seat>`` (deals from 0). Problems are `SheetError`s with `deal`, `field` and
`seat` set, so a page can show each beside its input. Nothing here names a game.

Every function takes the grid's `layout` (`sheet_rules.LAYOUTS`; `full` unless said): the
layouts a game offers are those its sheet rules name (`grid_layouts`), each described, read,
checked and converted the same way, into the same sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.core.registry import get_game
from games.core.sheet_rules import FULL, LAYOUTS, GridField, SheetError, SheetRules
from games.core.sheets import score_sheet

__all__ = [
    "active_fields",
    "check_grid",
    "describe_grid",
    "grid_layouts",
    "grid_to_sheet",
    "input_name",
    "read_form",
]

TRUE = {"on", "1", "true", "yes"}


def _rules(
    game: str, variant: dict[str, Any], n_seats: int | None = None
) -> tuple[SheetRules, int, dict[str, Any]]:
    """The sheet rules at a table of `n_seats` (None, or a size the game is not played at:
    its own; four of a game of three: `four_sheet.FourSheet`, the sitter's cells blank)."""
    spec = get_game(game)
    variant = spec.validate_variant(variant)
    seats = n_seats if n_seats in spec.table_sizes else spec.seats
    return spec.engine_for(seats).SHEET(variant, spec.display_name), seats, variant


def _fields_of(rules: SheetRules, layout: str) -> list[GridField]:
    """A layout's fields (none: the rules do not offer it)."""
    if not isinstance(layout, str) or layout not in rules.LAYOUTS or layout not in LAYOUTS:
        return []
    return rules.grid() if layout == FULL else rules.grid(layout)


def _offered(rules: SheetRules) -> list[str]:
    return [name for name in rules.LAYOUTS if _fields_of(rules, name)]


def _layout_fields(rules: SheetRules, layout: Any) -> list[GridField]:
    """A layout's fields, or `SheetError` (no deal) saying which layouts there are."""
    fields = _fields_of(rules, layout)
    if fields:
        return fields
    offered = _offered(rules)
    if not offered:
        raise SheetError(f"{rules.display_name} has no score grid")
    shown = layout if isinstance(layout, str) else repr(layout)
    raise SheetError(
        f"{rules.display_name} has no score grid laid out as {shown!r}; "
        f"its layouts: {', '.join(offered)}"
    )


def grid_layouts(game: str, variant: dict[str, Any]) -> list[dict[str, str]]:
    """The layouts a game's grid comes in under a variant, `full` first: each one's name and
    English label and help (translated where shown)."""
    rules, _, _ = _rules(game, variant)
    return [
        {"name": name, "label": LAYOUTS[name][0], "help": LAYOUTS[name][1]}
        for name in _offered(rules)
    ]


def describe_grid(
    game: str, variant: dict[str, Any], layout: str = FULL, n_seats: int | None = None
) -> dict[str, Any]:
    """The grid of a game under a variant in one layout, as JSON data: its seats, its fields
    and the layouts offered. Raises `SheetError` for a layout the game does not offer."""
    rules, seats, _ = _rules(game, variant, n_seats)
    fields = _layout_fields(rules, layout) if layout != FULL else rules.grid()
    return {
        "game": game,
        "seats": seats,
        "layout": layout,
        "layouts": _offered(rules),
        "fields": [f.describe() for f in fields],
    }


def input_name(deal: int, field: str, seat: int | None = None) -> str:
    """The name of a form input (and the key of its error): ``d0.points.2``."""
    return f"d{deal}.{field}" if seat is None else f"d{deal}.{field}.{seat}"


def active_fields(fields: Sequence[GridField], row: dict[str, Any]) -> list[GridField]:
    """The fields this row asks for: those whose `when` holds (on fields asked themselves)."""
    asked: dict[str, GridField] = {}
    for field in fields:
        if all(name in asked and row.get(name) == value for name, value in field.when):
            asked[field.name] = field
    return list(asked.values())


def _blank(field: GridField) -> Any:
    return False if field.kind == "bool" else None


def _parse(field: GridField, text: str | None) -> Any:
    """One input's text as the field's value; raises `SheetError` (without a deal) if it is
    no value of that kind."""
    text = (text or "").strip()
    if field.kind == "bool":
        return text.lower() in TRUE
    if not text:
        return None
    if field.kind == "choice":
        if text not in {value for value, _ in field.choices}:
            raise SheetError("choose one of the options", field=field.name)
        return text
    try:
        return int(text)
    except ValueError:
        raise SheetError("a whole number", field=field.name) from None


def read_form(
    game: str,
    variant: dict[str, Any],
    n_rows: int,
    get: Callable[[str], str | None],
    layout: str = FULL,
    n_seats: int | None = None,
) -> tuple[list[dict[str, Any]], list[SheetError]]:
    """Rows from a form's text inputs (`get(name)`) in a layout, and the inputs that hold no
    value of their field's kind. A field the row does not ask is blank; blank rows at the end
    are left out. A layout the game does not offer is one problem (no deal), and no rows."""
    rules, seats, _ = _rules(game, variant, n_seats)
    try:
        fields = _layout_fields(rules, layout)
    except SheetError as exc:
        return [], [exc]
    rows: list[dict[str, Any]] = []
    problems: list[SheetError] = []
    for d in range(n_rows):
        row: dict[str, Any] = {}
        found: list[SheetError] = []
        for field in fields:
            seat_list = range(seats) if field.per_seat else [None]
            values = []
            for s in seat_list:
                try:
                    values.append(_parse(field, get(input_name(d, field.name, s))))
                except SheetError as exc:
                    found.append(_named(exc, d, field.name, s))
                    values.append(None)
            row[field.name] = values if field.per_seat else values[0]
        row = _only_asked(fields, row, seats)
        asked = {f.name for f in active_fields(fields, row)}
        problems += [p for p in found if p.field in asked]
        rows.append(row)
    while rows and _is_blank(fields, rows[-1]):
        rows.pop()  # the deals not played (a match won early) stay blank
    return rows, problems


def _only_asked(fields: Sequence[GridField], row: dict[str, Any], seats: int) -> dict[str, Any]:
    """The row with the fields it does not ask blanked (what was typed in a hidden field)."""
    asked = {f.name for f in active_fields(fields, row)}
    for field in fields:
        if field.name not in asked:
            row[field.name] = [_blank(field)] * seats if field.per_seat else _blank(field)
    return row


def _named(exc: SheetError, deal: int, field: str | None, seat: int | None) -> SheetError:
    return SheetError(
        f"deal {deal}: {exc.reason}",
        deal=deal,
        field=exc.field or field,
        seat=exc.seat if exc.seat is not None else seat,
        reason=exc.reason,
    )


def _is_blank(fields: Sequence[GridField], row: Any) -> bool:
    if not isinstance(row, dict):
        return False
    for field in fields:
        value = row.get(field.name)
        values = value if field.per_seat and isinstance(value, list) else [value]
        if any(v not in (None, False, "") for v in values):
            return False
    return True


def _check_value(field: GridField, value: Any, seats: int) -> None:
    """One value against its field's kind and bounds (raises `SheetError`)."""
    if value is None:
        if field.optional:
            return
        raise SheetError("fill this in" if field.kind != "choice" else "choose one")
    if field.kind == "bool":
        if not isinstance(value, bool):
            raise SheetError("yes or no (true or false)")
    elif field.kind == "choice":
        if value not in {v for v, _ in field.choices}:
            raise SheetError(f"one of {', '.join(v for v, _ in field.choices)}")
    else:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SheetError("a whole number")
        if field.kind == "seat":
            if not 0 <= value < seats:
                raise SheetError(f"a seat from 0 to {seats - 1}")
        elif (field.min is not None and value < field.min) or (
            field.max is not None and value > field.max
        ):
            raise SheetError(_bounds(field.min, field.max))


def _bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def check_row(
    fields: Sequence[GridField], row: Any, seats: int, deal: int
) -> tuple[dict[str, Any], list[SheetError]]:
    """The asked fields of a row, each checked on its own (kind, bounds, choices, a per-seat
    sum); the problems name the deal, the field and the seat."""
    if not isinstance(row, dict):
        message = "each row is an object"
        return {}, [SheetError(f"deal {deal}: {message}", deal=deal, reason=message)]
    clean: dict[str, Any] = {}
    problems: list[SheetError] = []
    for field in active_fields(fields, row):
        value = row.get(field.name, _blank(field))
        if field.per_seat:
            if not isinstance(value, list) or len(value) != seats:
                message = f"one value per seat ({seats})"
                problems.append(_named(SheetError(message), deal, field.name, None))
                continue
            bad = False
            for s, v in enumerate(value):
                try:
                    _check_value(field, v, seats)
                except SheetError as exc:
                    problems.append(_named(exc, deal, field.name, s))
                    bad = True
            if not bad and field.sum is not None and sum(value) != field.sum:
                message = f"these add up to {sum(value)}; they must add up to {field.sum}"
                problems.append(_named(SheetError(message), deal, field.name, None))
                bad = True
            if not bad:
                clean[field.name] = list(value)
        else:
            try:
                _check_value(field, value, seats)
            except SheetError as exc:
                problems.append(_named(exc, deal, field.name, None))
                continue
            clean[field.name] = value
    return clean, problems


def grid_to_sheet(
    game: str, variant: dict[str, Any], rows: Any, layout: str = FULL, n_seats: int | None = None
) -> tuple[dict[str, Any], list[SheetError]]:
    """The sheet a grid of this layout stands for (``{"deals": [...]}``, blank rows at the end
    left out) and every problem found on the way (none: the sheet is what the rules will
    score). Every layout of a game gives the same sheet for the same deals. At a table of
    four the sitter's cells of each row must be blank (`SheetRules.blank_seat`)."""
    rules, seats, _ = _rules(game, variant, n_seats)
    try:
        fields = _layout_fields(rules, layout)
    except SheetError as exc:
        return {"deals": []}, [exc]
    if not isinstance(rows, list) or not rows:
        return {"deals": []}, [SheetError("a score grid is a list of rows, one per deal")]
    last = max((i for i, row in enumerate(rows) if not _is_blank(fields, row)), default=-1)
    if last < 0:
        return {"deals": []}, [
            SheetError(
                "deal 0: fill in at least one deal", deal=0, reason="fill in at least one deal"
            )
        ]
    deals: list[dict[str, Any]] = []
    problems: list[SheetError] = []
    for d, row in enumerate(rows[: last + 1]):
        if _is_blank(fields, row):
            message = "this deal is empty, but a later one is filled in"
            problems.append(SheetError(f"deal {d}: {message}", deal=d, reason=message))
            continue
        rules.start_row(d)
        row, found = _without_blank_seat(fields, row, rules.blank_seat(), d)
        if not found:
            clean, found = check_row(fields, row, seats, d)
        problems += found
        if found:
            continue
        try:
            deals.append(rules.from_row(clean) if layout == FULL else rules.from_row(clean, layout))
        except SheetError as exc:
            problems.append(_named(exc, d, exc.field, exc.seat))
    return {"deals": deals}, problems


def _without_blank_seat(
    fields: Sequence[GridField], row: Any, seat: int | None, deal: int
) -> tuple[Any, list[SheetError]]:
    """The row with the cells of the seat that sits the deal out (None: nobody) checked blank
    and filled with 0, so the row checks as a whole; a problem for each filled one."""
    if seat is None or not isinstance(row, dict):
        return row, []
    row = dict(row)
    problems = []
    for field in fields:
        value = row.get(field.name)
        if not field.per_seat or not isinstance(value, list) or len(value) <= seat:
            continue
        if value[seat] not in (None, "", 0):
            message = "this player sits out this deal: leave it blank"  # the seat: beside it
            problems.append(_named(SheetError(message), deal, field.name, seat))
        row[field.name] = [0 if s == seat else v for s, v in enumerate(value)]
    return row, problems


def check_grid(
    game: str,
    variant: dict[str, Any],
    rows: Any,
    *,
    dealer: int = 0,
    n_seats: int | None = None,
    n_deals: int | None = None,
    layout: str = FULL,
) -> dict[str, Any]:
    """A grid as it is being typed: each deal's scores, payouts and running totals as far as the
    rows are right, and every problem (field by field). `sheet` and `scored` are set only when
    there is no problem (the grid is ready to count; `scored` may still be incomplete)."""
    sheet, problems = grid_to_sheet(game, variant, rows, layout, n_seats)
    out: dict[str, Any] = {"deals": [], "problems": problems, "sheet": None, "scored": None}
    first_bad = min((p.deal for p in problems if p.deal is not None), default=None)
    if any(p.deal is None for p in problems):
        return out
    good = sheet["deals"] if first_bad is None else sheet["deals"][:first_bad]
    # A row that cannot be scored (an earlier hand won the match…) stops the running totals.
    while good:
        try:
            scored = score_sheet(
                game, variant, {"deals": good}, dealer=dealer, n_seats=n_seats, n_deals=n_deals
            )
        except SheetError as exc:
            if exc.deal is None:
                problems.append(exc)
                return out
            problems.append(exc)
            good = good[: exc.deal]
            first_bad = exc.deal
            continue
        running = [0] * len(scored["totals"]["payouts"])
        running_scores = [0] * len(running)
        for deal in scored["deals"]:
            running = [a + b for a, b in zip(running, deal["payouts"], strict=True)]
            running_scores = [a + b for a, b in zip(running_scores, deal["scores"], strict=True)]
            out["deals"].append(
                {**deal, "running_payouts": running, "running_scores": running_scores}
            )
        if first_bad is None:
            out["sheet"], out["scored"] = sheet, scored
        break
    problems.sort(key=lambda p: p.deal if p.deal is not None else -1)
    return out
