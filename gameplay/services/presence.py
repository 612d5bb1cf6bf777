"""A seat's first connection to its table: from then on its player's turn clock may run.

A person's clock waits for them (`gameplay/clock.py`): a decision that is due to a seat whose
player has never connected has its deadline at the end of the table's connect grace plus the
allowance. The first connection is written once per seat (`Seat.connected_at`); while the grace
lasts it also bumps the table's `seats_rev`, so every process's cached seats and snapshots are
refreshed before their next move (the claim checks the revision: no move reads a seat as unseen
after this), and if the seat was the one the clock waited for, its deadline moves to now plus
the allowance and everyone gets the state again (a `final` state at the same seq).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from gameplay import clock
from gameplay.models import Seat, Table
from gameplay.runtime import cache
from gameplay.runtime.cache import Snapshot
from gameplay.services.after_commit import after_commit
from gameplay.services.matches import load_match

PLAYING = Table.Status.PLAYING


def record_connection(table_id: str, seat: int, seats_rev: int) -> int | None:
    """Note that `seat`'s player, identified at `seats_rev`, connected to the table (a no-op
    after the first time). The table's new seats revision when this changed it from
    `seats_rev`, so the connection is still who it was identified as; else None."""
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().defer("state", "record").filter(pk=table_id)
        table = table.first()
        if table is None:
            return None
        first = Seat.objects.filter(
            table_id=table_id, number=seat, connected_at__isnull=True
        ).update(connected_at=now)
        snap = Snapshot.of(table)
        if not first or table.status != PLAYING or snap.grace_until is None:
            return None  # a waiting table reads its seats when it deals
        if now >= snap.grace_until:
            return None  # every clock runs by now: no move can read this seat as unseen
        match = load_match(table)
        to_act = match.to_act()
        rows = Seat.objects.filter(table_id=table_id).values_list("number", "bot", "connected_at")
        unseen = {n for n, bot, at in rows if not bot and at is None}
        waited = clock.clock_starts_by(to_act, unseen | {seat}, snap.grace_until, now)
        still = clock.clock_starts_by(to_act, unseen, snap.grace_until, now)
        identified_now = table.seats_rev == seats_rev
        table.seats_rev += 1
        table.updated_at = now
        fields = ["seats_rev", "updated_at"]
        moved = waited is not None and still is None and table.deadline is not None
        if moved:
            table.deadline = clock.connected_deadline(table.deadline, waited, now)
            fields.append("deadline")
        table.save(update_fields=fields)
        fresh = Snapshot.of(table)

        def refreshed() -> None:
            # This process's next move starts from the new revision (others re-read the row
            # once: their snapshots' claims fail on the revision).
            cache.put(table_id, fresh.seq, match.clone(), fresh)
            if moved:
                after_commit(fresh, match, False, final=True)

        transaction.on_commit(refreshed)
        return table.seats_rev if identified_now else None
