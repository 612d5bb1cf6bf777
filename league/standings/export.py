"""The table as CSV rows (header first): pure, so the view decides how and where to write them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .records import StandingsRow
from .tiebreaks import StandingsConfig, get_tiebreak

BASE_COLUMNS = (
    "Rank",
    "Player",
    "Matches played",
    "Match points",
    "Total payouts",
    "Wins",
    "Byes",
)


def csv_header(config: StandingsConfig, *, with_names: bool = False) -> list[str]:
    """Column titles: the fixed columns, then each configured tie-break's label."""
    head = list(BASE_COLUMNS)
    if with_names:
        head.insert(2, "Name")
    return head + [get_tiebreak(name).label for name in config.tiebreaks]


def standings_csv_rows(
    rows: Sequence[StandingsRow],
    config: StandingsConfig,
    names: Mapping[int, str] | None = None,
) -> list[list[str]]:
    """Header + one list of strings per row, ready for `league.csv_safe.writer(...).writerows`.

    Shared ranks are written "1=" so a spreadsheet reader sees the tie (not "=1": a spreadsheet
    runs that as a formula and shows 1); `names` (player id → display name) adds a Name column
    when the caller has them at hand. Names are anyone's text: write them with the safe writer.
    """
    tiebreaks = [get_tiebreak(name) for name in config.tiebreaks]
    out = [csv_header(config, with_names=names is not None)]
    for r in rows:
        line = [
            f"{r.rank}=" if r.tied else str(r.rank),
            str(r.player_id),
            str(r.matches_played),
            str(r.match_points),
            str(r.total_payouts),
            str(r.wins),
            str(r.byes),
        ]
        if names is not None:
            line.insert(2, names.get(r.player_id, ""))
        line += [tb.format(v) for tb, v in zip(tiebreaks, r.tiebreak_values, strict=True)]
        out.append(line)
    return out
