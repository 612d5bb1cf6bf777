"""Table scheduling for 3- and 4-player card events: who sits with whom, in which seat.

Pure functions over plain records; no Django import, so everything here is tested without a
database. The league app calls `plan_round` from its round-generation service and reads the
formats' rules from the registry (`get_format`; `formats.formats()` lists them).
"""

from league.scheduling.designs import design_orders, design_rounds
from league.scheduling.errors import SchedulingError
from league.scheduling.formats import Format, get_format, register, unregister
from league.scheduling.knockout import advancers, is_final, knockout_round
from league.scheduling.league import build_league_schedule, no_repeat_bound
from league.scheduling.metrics import ScheduleQuality, schedule_quality
from league.scheduling.planner import plan_round
from league.scheduling.records import (
    Leftover,
    PairHistory,
    PlayerId,
    PlayerRecord,
    RoundPlan,
    TableResult,
)
from league.scheduling.swiss import swiss_round

__all__ = [
    "Format",
    "Leftover",
    "PairHistory",
    "PlayerId",
    "PlayerRecord",
    "RoundPlan",
    "ScheduleQuality",
    "SchedulingError",
    "TableResult",
    "advancers",
    "build_league_schedule",
    "design_orders",
    "design_rounds",
    "get_format",
    "is_final",
    "knockout_round",
    "no_repeat_bound",
    "plan_round",
    "register",
    "schedule_quality",
    "swiss_round",
    "unregister",
]
