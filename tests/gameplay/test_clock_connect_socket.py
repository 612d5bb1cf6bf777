"""The table socket starts a person's clock when they first connect (docs/tables.md, "Clocks")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from gameplay.models import Seat, Table

from .conftest import make_table, make_users
from .test_table_socket import connect, receive, seated

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async


def a_table_waiting_for_ana() -> Table:
    ana = make_users("ana")[0]
    table = make_table("saichugen", [ana], ["Bot B", "Bot C"], seconds_per_move=15)
    table.refresh_from_db()
    return table


async def test_the_first_connection_starts_the_clock_and_everyone_sees_it():
    table = await db(a_table_waiting_for_ana)()
    assert table.deadline == table.dealt_at + timedelta(seconds=60 + 15)
    watcher = await connect(f"/ws/tables/{table.id}/")
    waiting = await receive(watcher)
    assert waiting["to_act"] == [0] and waiting["clock"]["0"] == 15.0
    assert 55 < waiting["clock_starts_in"] <= 60

    ana = await seated(table, 0)  # her first state is read after the clock started
    started = await receive(watcher)  # the spectator is sent the state again, same seq
    assert started["seq"] == waiting["seq"] and "clock_starts_in" not in started
    assert 14 < started["clock"]["0"] <= 15
    await db(table.refresh_from_db)()
    assert table.deadline <= timezone.now() + timedelta(seconds=15)
    seat = await db(Seat.objects.get)(table=table, number=0)
    assert seat.connected_at is not None

    # A second tab: no second write, nobody is sent anything.
    rev = table.seats_rev
    again = await seated(table, 0)
    await db(table.refresh_from_db)()
    assert table.seats_rev == rev
    assert await watcher.receive_nothing(timeout=0.3)
    for comm in (watcher, ana, again):
        await comm.disconnect()
