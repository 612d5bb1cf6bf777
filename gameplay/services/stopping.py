"""Stopping a table from outside the game: an event's organizer marked seats absent.

The table must not wait for a player who is not there: the match ends now, as a clock forfeit
ends it (`clocks.forfeit`) — the named seats forfeit, the record keeps what was played, and
`match_finished` is announced after commit — but at once, whoever is to act. Nothing here
decides what the deals played are worth: the caller (the league) reads the record it returns.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from gameplay.models import Table
from gameplay.runtime import cache
from gameplay.runtime.cache import Snapshot
from gameplay.services.after_commit import after_commit
from gameplay.services.errors import TableError
from gameplay.services.matches import load_match
from gameplay.services.outcome import forfeit_result

logger = logging.getLogger(__name__)

PLAYING = Table.Status.PLAYING
FINISHED = Table.Status.FINISHED


def stop_table(table_id: str, seats: list[int]) -> dict[str, Any]:
    """End the match being played at `table_id`: `seats` forfeit (with any that resigned).

    Returns the table's record as it stopped (`mediana.record/1`, its last deal possibly in
    progress). Raises `TableError` ("forbidden") for an unknown table, one whose match is over
    already or never dealt, or a seat it does not have; nothing changed then. Call it inside the
    caller's transaction: a rollback there undoes the stop, and the table's players hear of it
    (and `match_finished` is sent) only after commit. The row is locked, so no move is claimed
    between reading the match and ending it.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().defer("state", "record").filter(pk=table_id)
        table = table.first()
        if table is None:
            raise TableError("forbidden", "no such table")
        if table.status != PLAYING:
            raise TableError("forbidden", f"the table is {table.status}, not being played")
        n_seats = table.seats.count()
        if not seats or any(isinstance(s, bool) or s not in range(n_seats) for s in seats):
            raise TableError("forbidden", f"seats {seats} are not seats of this table")
        match = load_match(table)
        result = match.result()
        forfeited = sorted({*(table.forfeited_seats or []), *seats})
        seat_rows = cache.seats_of(table_id, table.seats_rev)
        resigned = {s.number for s in seat_rows if s.resigned_user_id}
        result = forfeit_result(result, forfeited, resigned)
        record = match.export()
        now = timezone.now()
        Table.objects.filter(pk=table_id).update(
            status=FINISHED,
            result=result,
            record=record,
            forfeited_seats=forfeited,
            deadline=None,
            bot_due=None,
            finished_at=now,
            updated_at=now,
        )
        cache.forget(table_id)  # a move from a cached snapshot must read the row again
        table.status, table.result, table.finished_at = FINISHED, result, now
        table.forfeited_seats, table.deadline = forfeited, None
        snap = Snapshot.of(table)
        logger.info("table %s stopped: seats %s absent", table_id, seats)
        transaction.on_commit(lambda: after_commit(snap, match, False, final=True))
    return record
