"""A person dismissed the last deal's summary: their first clock of the new deal may run.

After a deal ends the page shows its summary until the person dismisses it, and the clock of
their first decision of the new deal waits for that (`gameplay/clock.py`), up to the table's
`summary_until`. The page says so with the table protocol's `{"type": "ready", "deal": K}`;
this writes it once per seat and deal (`Seat.ready_deal`) and, while the hold lasts, bumps the
table's `seats_rev` so every process's cached seats are refreshed (as `presence.py` does for a
first connection). If the clock of the decision due was waiting for this seat, its deadline
moves to now (or to the start another hold still sets) plus the allowance, and everyone gets
the state again (a `final` state at the same seq). A ready for another deal changes nothing.
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


def record_ready(table_id: str, seat: int, deal: int, seats_rev: int) -> int | None:
    """Note that `seat`'s person, identified at `seats_rev`, dismissed the summary before
    `deal`. The table's new seats revision when this changed it from `seats_rev` (the
    connection is still who it was identified as); else None (nothing changed, or ignored)."""
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().defer("record").filter(pk=table_id).first()
        if table is None or table.status != PLAYING:
            return None
        snap = Snapshot.of(table)
        if snap.summary_until is None or now >= snap.summary_until:
            return None  # nothing is held now: every clock runs
        match = load_match(table)
        if deal != match.deal_no or deal < 1:
            return None  # a late (or early) ready: it says nothing of this deal
        if not Seat.objects.filter(
            table_id=table_id, number=seat, ready_deal__lt=deal, bot=""
        ).update(ready_deal=deal):
            return None  # said before, or a bot's seat
        to_act = match.to_act()
        rows = list(
            Seat.objects.filter(table_id=table_id).values_list(
                "number", "bot", "connected_at", "ready_deal"
            )
        )
        unseen = {n for n, bot, at, _ in rows if not bot and at is None}
        unready = clock.unready(((n, bool(bot), ready) for n, bot, _, ready in rows), deal)
        grace = None
        if snap.grace_until is not None and now < snap.grace_until:
            grace = clock.clock_starts_by(to_act, unseen, snap.grace_until, now)
        waited = clock.later(
            grace, clock.clock_starts_by(to_act, unready | {seat}, snap.summary_until, now)
        )
        still = clock.later(grace, clock.clock_starts_by(to_act, unready, snap.summary_until, now))
        identified_now = table.seats_rev == seats_rev
        table.seats_rev += 1
        table.updated_at = now
        fields = ["seats_rev", "updated_at"]
        moved = waited is not None and still != waited and table.deadline is not None
        if moved:
            table.deadline = clock.connected_deadline(table.deadline, waited, still or now)
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
