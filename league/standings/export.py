"""The standings as CSV rows, header first: the one writer of the served `standings.csv`.

Pure (no file, no Django): the view writes the rows with `league.csv_safe.writer`. Columns are
machine names, for the scripts and spreadsheets that read the file; cells keep their types, so
the safe writer leaves numbers alone (a negative payout stays a number) and only text can be
neutralised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .records import StandingsRow
from .tiebreaks import StandingsConfig

Cell = str | int | float

BASE_COLUMNS = (
    "rank",
    "player_id",
    "player",
    "matches_played",
    "match_points",
    "total_payouts",
    "wins",
    "byes",
)


def csv_header(config: StandingsConfig, *, with_names: bool = True) -> list[str]:
    """Column names: the fixed columns, then each configured tie-break's registry name (`player`,
    the display name, only `with_names`)."""
    head = [c for c in BASE_COLUMNS if with_names or c != "player"]
    return head + list(config.tiebreaks)


def standings_csv_rows(
    rows: Sequence[StandingsRow],
    config: StandingsConfig,
    names: Mapping[int, str] | None = None,
) -> list[list[Cell]]:
    """Header + one list of cells per row, ready for `league.csv_safe.writer(...).writerows`.

    `names` (player id → display name) fills the `player` column; without them it is left out.
    A shared rank is the number the tied rows share (`tied` is the page's "=" marker, not a
    column); tie-break values are written as computed, in the configuration's order. Names are
    anyone's text: write the rows with the safe writer only.
    """
    out: list[list[Cell]] = [csv_header(config, with_names=names is not None)]
    for r in rows:
        line: list[Cell] = [r.rank, r.player_id]
        if names is not None:
            line.append(names.get(r.player_id, ""))
        line += [r.matches_played, r.match_points, r.total_payouts, r.wins, r.byes]
        line += list(r.tiebreak_values)
        out.append(line)
    return out
