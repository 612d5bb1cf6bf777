"""Turn clocks: pure rules for the deadline stored on a table and the clock shown to clients.

One decision, one deadline: the clock starts when a seat becomes due to act and is not reset
while other seats of the same decision act (Saichugen: three seats commit on one clock).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta


def next_deadline(
    old_to_act: Iterable[int],
    new_to_act: Iterable[int],
    old_deadline: datetime | None,
    now: datetime,
    seconds: int,
    actor: int | None = None,
    extra: float = 0,
) -> datetime | None:
    """The deadline after `actor` acted: a fresh one when a seat that was not waiting must now
    act or the actor faces its next decision, the old one while the same decision goes on
    (the others still to commit), none without a clock or nobody to act. `extra` seconds are
    added to a fresh one (the first turn of a new deal, while the page shows the summary of
    the deal that ended: `deal_start_extra`)."""
    new = set(new_to_act)
    if seconds <= 0 or not new:
        return None
    if old_deadline is None or new - set(old_to_act) or actor in new:
        return now + timedelta(seconds=seconds + extra)
    return old_deadline


def deal_start_extra(deal_before: int, deal_after: int, finished: bool, summary_seconds: float) -> float:
    """The extra seconds of the clock after an action: the summary's time when the action ended
    a deal and the next one was dealt (not when it ended the match), else none."""
    return summary_seconds if deal_after != deal_before and not finished else 0


def clock_view(
    to_act: Iterable[int],
    deadline: datetime | None,
    seconds: int,
    n_seats: int,
    now: datetime,
) -> dict[str, float]:
    """Seconds left per seat (`{"0": 41.5, ...}`): the running clock for the seats due to act,
    the full allowance for the others; `{}` (no seat has a clock, the same type for clients)
    when the table has no time control."""
    if seconds <= 0:
        return {}
    due = set(to_act)
    left = float(seconds)
    if deadline is not None:
        left = max(0.0, round((deadline - now).total_seconds(), 1))
    return {str(s): (left if s in due else float(seconds)) for s in range(n_seats)}
