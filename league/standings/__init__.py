"""Pure standings: match points, tie-breaks and ranking, with no ORM and no Django import.

The league service loads fixtures, results and byes as records, calls `compute_standings` and
caches the rows; everything here is testable (and benchmarked) without a database. Duplicate
events' datum, differences and matchpoints are `duplicate.py` (`score_event`).
"""

from .duplicate_arithmetic import (
    DuplicateTable,
    EventScores,
    PlayerDuplicate,
    SeatDeal,
    Section,
    SectionScores,
    TableDeal,
    Traveller,
    deals_payload,
    player_totals,
    round_half_even,
    score_event,
    score_seat,
    score_section,
    section_payload,
    withheld_section_payload,
)
from .errors import DuplicateRecordError, StandingsError, StandingsFault, UnknownTiebreak
from .export import csv_header, standings_csv_rows
from .knockout import KnockoutProgress, rank_knockout
from .records import ByeRecord, MatchRecord, StandingsRow, Value
from .table import compute_standings, rank_people, rank_tally
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
    "DuplicateRecordError",
    "DuplicateTable",
    "EventScores",
    "EventTally",
    "KnockoutProgress",
    "MatchRecord",
    "PlayerDuplicate",
    "PlayerTally",
    "SeatDeal",
    "Section",
    "SectionScores",
    "StandingsConfig",
    "StandingsError",
    "StandingsFault",
    "StandingsRow",
    "TableDeal",
    "Tiebreak",
    "Traveller",
    "UnknownTiebreak",
    "Value",
    "column_tiebreaks",
    "compute_standings",
    "csv_header",
    "deals_payload",
    "get_tiebreak",
    "lot_number",
    "pairwise_points",
    "player_totals",
    "public_values",
    "rank_knockout",
    "rank_people",
    "rank_tally",
    "register",
    "round_half_even",
    "score_event",
    "score_seat",
    "score_section",
    "section_payload",
    "standings_csv_rows",
    "tally_event",
    "tiebreak_choices",
    "validate_tiebreaks",
    "withheld_section_payload",
]
