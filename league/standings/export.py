"""The standings as CSV rows, header first: the one writer of the served `standings.csv`.

Pure (no file, no Django): the view writes the rows with `league.csv_safe.writer`. Columns are
machine names, for the scripts and spreadsheets that read the file, each name once; cells keep
their types, so the safe writer leaves numbers alone (a negative payout stays a number) and only
text can be neutralised.

The fixed columns come first, then the configured tie-breaks that have a column of their own
(`column_tiebreaks`): a tie-break that is a fixed column already (`total_payouts`) is not
written twice, and a secret one, the drawing of lots, is never written (its numbers give the
event's secret seed back) — the `rank` it decides is. Decimal values have the tie-break's
places (two for the opponents' average: `-1.63`, `3.00`), as the page shows them. A knockout
event (`StandingsConfig.mode`) has `round_reached` after the player, as its page does: what it
ranks by first. A duplicate event (`StandingsConfig.scoring`) has `duplicate_total` and
`matchpoint_pct` after the player (the one it ranks by first), exact values rounded half to even
to 6 places as the spec writes them out (an empty cell: no deal yet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from .duplicate_arithmetic import API_PLACES, round_half_even
from .records import StandingsRow
from .tiebreaks import StandingsConfig, column_tiebreaks

Cell = str | int | float | Decimal

BASE_COLUMNS = (
    "rank",
    "player_id",
    "player",
    "matches_played",
    "match_points",
    "total_payouts",
    "wins",
    "byes",
    "absences",
)


# Knockout standings only, after `player` (after `player_id` without names): the last round
# the player was in (0: none yet), which they rank by first.
KNOCKOUT_COLUMNS = ("round_reached",)

# Duplicate scoring only, after `player`: the figure it ranks by first, then the other.
DUPLICATE_COLUMNS = {
    "total": ("duplicate_total", "matchpoint_pct"),
    "percentage": ("matchpoint_pct", "duplicate_total"),
}


def csv_header(config: StandingsConfig, *, with_names: bool = True) -> list[str]:
    """Column names, each once: the fixed columns (a knockout's `round_reached` among them),
    then the registry name of each configured tie-break with a column of its own (`player`,
    the display name, only `with_names`)."""
    head = [c for c in BASE_COLUMNS if with_names or c != "player"]
    if config.mode == "knockout":
        after = head.index("player" if with_names else "player_id") + 1
        head[after:after] = KNOCKOUT_COLUMNS
    elif config.scoring == "duplicate":
        after = head.index("player" if with_names else "player_id") + 1
        head[after:after] = DUPLICATE_COLUMNS[config.duplicate_rank]
    return head + [tiebreak.name for _, tiebreak in column_tiebreaks(config.tiebreaks)]


def standings_csv_rows(
    rows: Sequence[StandingsRow],
    config: StandingsConfig,
    names: Mapping[int, str] | None = None,
) -> list[list[Cell]]:
    """Header + one list of cells per row, ready for `league.csv_safe.writer(...).writerows`.

    `names` (player id → display name) fills the `player` column; without them it is left out.
    A shared rank is the number the tied rows share (`tied` is the page's "=" marker, not a
    column); tie-break values are written as `Tiebreak.cell` rounds them, in the
    configuration's order. Names are anyone's text: write the rows with the safe writer only.
    """
    columns = column_tiebreaks(config.tiebreaks)
    knockout = config.mode == "knockout"
    out: list[list[Cell]] = [csv_header(config, with_names=names is not None)]
    for r in rows:
        line: list[Cell] = [r.rank, r.player_id]
        if names is not None:
            line.append(names.get(r.player_id, ""))
        if knockout:
            line.append(r.round_reached)
        elif config.scoring == "duplicate":
            figures = {"duplicate_total": r.duplicate_total, "matchpoint_pct": r.matchpoint_pct}
            line += [
                "" if figures[c] is None else round_half_even(figures[c], API_PLACES)
                for c in DUPLICATE_COLUMNS[config.duplicate_rank]
            ]
        line += [r.matches_played, r.match_points, r.total_payouts, r.wins, r.byes, r.absences]
        line += [tiebreak.cell(r.tiebreak_values[i]) for i, tiebreak in columns]
        out.append(line)
    return out
