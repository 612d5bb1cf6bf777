"""Pure standings: match points, tie-breaks and ranking, with no ORM and no Django import.

The league service loads fixtures, results and byes as records, calls `compute_standings` and
caches the rows; everything here is testable (and benchmarked) without a database.
"""

from .errors import StandingsError, StandingsFault, UnknownTiebreak
from .export import csv_header, standings_csv_rows
from .knockout import KnockoutProgress, rank_knockout
from .records import ByeRecord, MatchRecord, StandingsRow, Value
from .table import compute_standings, rank_tally
from .tally import EventTally, PlayerTally, pairwise_points, tally_event
from .tiebreaks import (
    TIEBREAKS,
    StandingsConfig,
    Tiebreak,
    column_tiebreaks,
    get_tiebreak,
    lot_number,
    public_values,
    register,
    tiebreak_choices,
    validate_tiebreaks,
)

__all__ = [
    "TIEBREAKS",
    "ByeRecord",
    "EventTally",
    "KnockoutProgress",
    "MatchRecord",
    "PlayerTally",
    "StandingsConfig",
    "StandingsError",
    "StandingsFault",
    "StandingsRow",
    "Tiebreak",
    "UnknownTiebreak",
    "Value",
    "column_tiebreaks",
    "compute_standings",
    "csv_header",
    "get_tiebreak",
    "lot_number",
    "pairwise_points",
    "public_values",
    "rank_knockout",
    "rank_tally",
    "register",
    "standings_csv_rows",
    "tally_event",
    "tiebreak_choices",
    "validate_tiebreaks",
]
