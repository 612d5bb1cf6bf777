"""Turn clocks: pure rules for the deadline stored on a table and the clock shown to clients.

One decision, one deadline: the clock starts when a seat becomes due to act and is not reset
while other seats of the same decision act (Saichugen: three seats commit on one clock).

A person's clock does not run before they first connect to the table: while a seat due to act
has never connected, the decision's clock starts at the end of the table's connect grace
(`clock_starts_by`: `Table.connect_grace` seconds after the deal), or at once when
that seat connects first (`connected_deadline`). Bots count as connected from the start; after
the grace every clock runs, so a no-show still times out.

A new deal's summary holds a person's clock the same way: after a deal ends, the clock of a
person's first decision of the new deal starts when they dismiss the summary (the table
protocol's `ready`), or at the table's `summary_until` (the deal's end + a cap) at the latest;
bots are never held. Both holds are `clock_starts_by` over their own seats and end, and the
later one wins (`later`); the one deadline is `next_deadline(..., starts_by=)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

# A clock of a day or more a move is turn-based ("by the day", docs/tables.md): no connect grace,
# no summary hold, and a timeout waits for a claim (`gameplay/services/turns.py`).
DAY = 86400


def is_turn_based(seconds: int) -> bool:
    """Whether a table with `seconds` a move is played by the day, not in one sitting."""
    return seconds >= DAY


def next_deadline(
    old_to_act: Iterable[int],
    new_to_act: Iterable[int],
    old_deadline: datetime | None,
    now: datetime,
    seconds: int,
    actor: int | None = None,
    extra: float = 0,
    starts_by: datetime | None = None,
) -> datetime | None:
    """The deadline after `actor` acted: a fresh one when a seat that was not waiting must now
    act or the actor faces its next decision, the old one while the same decision goes on
    (the others still to commit), none without a clock or nobody to act. `extra` seconds are
    added to a fresh one. `starts_by`: a seat due is held (has not connected yet, or has not
    dismissed the last deal's summary), so a fresh clock starts then rather than now
    (`clock_starts_by`, `later`)."""
    new = set(new_to_act)
    if seconds <= 0 or not new:
        return None
    if old_deadline is None or new - set(old_to_act) or actor in new:
        start = now if starts_by is None else max(now, starts_by)
        return start + timedelta(seconds=seconds + extra)
    return old_deadline


def clock_starts_by(
    due: Iterable[int], unseen: Iterable[int], grace_until: datetime | None, now: datetime
) -> datetime | None:
    """When the clock of the seats `due` starts at the latest, if it has not started: the end of
    the connect grace while one of them has never connected (`unseen`); None when it runs."""
    if grace_until is None or now >= grace_until or not set(due) & set(unseen):
        return None
    return grace_until


def connected_deadline(
    deadline: datetime | None, waited_until: datetime | None, now: datetime
) -> datetime | None:
    """The deadline once the last unseen seat due connects at `now`: its clock, which was to
    start at `waited_until`, starts now; the allowance (extra time included) is kept. The same
    when a held seat dismisses the summary (`now`: the start still held by another hold)."""
    if deadline is None or waited_until is None or now >= waited_until:
        return deadline
    return deadline - (waited_until - now)


def later(*starts: datetime | None) -> datetime | None:
    """The latest of the holds' starts (`clock_starts_by` of each hold); None when none holds."""
    held = [s for s in starts if s is not None]
    return max(held) if held else None


def summary_until(
    deal_before: int, deal_after: int, finished: bool, now: datetime, cap: float, seconds: int
) -> datetime | None:
    """Until when the summary of the deal an action ended may hold the people's clocks: `cap`
    seconds from now when it dealt a new deal (not when it ended the match) at a table with a
    clock; None otherwise (nothing new to hold). A turn-based table holds nothing: its people
    read the summary whenever they come back, and a clock of days needs no head start."""
    if deal_after == deal_before or finished or seconds <= 0 or cap <= 0 or is_turn_based(seconds):
        return None
    return now + timedelta(seconds=cap)


def unready(seats: Iterable[tuple[int, bool, int]], deal: int) -> set[int]:
    """The seats whose person has not dismissed the summary before `deal` yet, from
    `(number, is_bot, ready_deal)`: a bot is never held, nor is anyone at the first deal."""
    return {n for n, bot, ready in seats if not bot and deal > 0 and ready < deal}


def clock_view(
    to_act: Iterable[int],
    deadline: datetime | None,
    seconds: int,
    n_seats: int,
    now: datetime,
    starts_by: datetime | None = None,
) -> dict[str, float]:
    """Seconds left per seat (`{"0": 41.5, ...}`): the running clock for the seats due to act,
    the full allowance for the others; `{}` (no seat has a clock, the same type for clients)
    when the table has no time control. A clock that has not started yet (`starts_by`, from
    `clock_starts_by`) shows its whole allowance."""
    if seconds <= 0:
        return {}
    due = set(to_act)
    left = float(seconds)
    if deadline is not None:
        start = now if starts_by is None else max(now, starts_by)
        left = max(0.0, round((deadline - start).total_seconds(), 1))
    return {str(s): (left if s in due else float(seconds)) for s in range(n_seats)}
