"""Whole-event previews for organizers (and the preview_schedule command).

Each format previews itself (`Format.preview`): a league its precomputed schedule, Swiss a
simulation of results (`formats/swiss.py`); a knockout has none (its rounds need results).
"""

from __future__ import annotations

from dataclasses import dataclass

from league.scheduling.errors import SchedulingError
from league.scheduling.formats import formats, get_format
from league.scheduling.formats.swiss import simulate_swiss
from league.scheduling.metrics import ScheduleQuality, schedule_quality
from league.scheduling.records import RoundPlan
from league.scheduling.validation import check_event

__all__ = ["Preview", "preview_event", "previewable_formats", "simulate_swiss"]


@dataclass(frozen=True)
class Preview:
    rounds: list[RoundPlan]
    quality: ScheduleQuality


def previewable_formats() -> list[str]:
    """The names of the formats that have a preview (the command offers these)."""
    return [f.name for f in formats() if f.can_preview]


def preview_event(
    n_players: int,
    table_size: int,
    rounds: int,
    fmt: str,
    seed: int = 0,
    leftover: str = "bye",
) -> Preview:
    """Schedule players 0..n-1 for `rounds` rounds of an event of a format with a preview."""
    ids = list(range(n_players))
    format_ = get_format(fmt)
    check_event(ids, table_size, leftover, rounds=rounds)
    if not format_.can_preview:
        names = " and ".join(previewable_formats())
        raise SchedulingError(f"Previews cover {names} events; {fmt} needs results.")
    plans = format_.preview(
        n_players, table_size=table_size, rounds=rounds, seed=seed, leftover=leftover
    )
    return Preview(plans, schedule_quality(plans, ids, table_size))
