"""The table socket at lobby tables: a waiting table shows no card, starts for everyone waiting
when its last seat is taken, and a connection whose seat was left or resigned is closed before
it is sent another state."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from gameplay.consumers.table import REFUSED, SEAT_CHANGED
from gameplay.runtime import notify
from tests.gameplay.test_table_socket import connect, receive, refused, session_cookie

from .conftest import create, join, leave

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async


async def closed_with(comm) -> int:
    """The close code the server sent (after any states still on their way)."""
    while True:
        out = await comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return out["code"]


async def test_a_waiting_table_shows_no_card_and_deals_for_everyone_when_it_fills(ana, ben, cleo):
    made = await db(create)(ana, game="saichugen")
    table_id = made["table"]
    mine = await connect(f"/ws/tables/{table_id}/?token={made['token']}")
    watcher = await connect(f"/ws/tables/{table_id}/")
    for comm, seat in ((mine, 0), (watcher, None)):
        state = await receive(comm)
        assert (state["status"], state["seq"], state["seat"]) == ("waiting", 0, seat)
        assert state["view"] == {"hand": []} and state["legal"] == [] and state["to_act"] == []
        assert state["players"] == ["ana", None, None]
        assert "commitment" not in state  # nothing is dealt, so nothing is committed to
    await db(join)(ben, table_id)
    for comm in (mine, watcher):
        assert (await receive(comm))["players"] == ["ana", "ben", None]
    cleos_seat = (await db(join)(cleo, table_id)).json()
    dealt = await receive(mine)
    assert (dealt["status"], dealt["seq"], dealt["seat"]) == ("playing", 0, 0)
    assert len(dealt["view"]["hand"]) > 0 and "commitment" in dealt
    assert dealt["players"] == ["ana", "ben", "cleo"]
    watched = await receive(watcher)
    assert watched["status"] == "playing" and watched["seat"] is None
    # The new seat's token is the new person's on the socket too.
    cleos = await connect(f"/ws/tables/{table_id}/?token={cleos_seat['token']}")
    assert (await receive(cleos))["seat"] == 2
    for comm in (mine, watcher, cleos):
        await comm.disconnect()


async def test_the_socket_of_someone_who_left_is_closed_before_the_seat_is_dealt(ana, ben, cleo):
    made = await db(create)(ana, game="saichugen")
    table_id = made["table"]
    bens = (await db(join)(ben, table_id)).json()
    by_token = await connect(f"/ws/tables/{table_id}/?token={bens['token']}")
    by_session = await connect(
        f"/ws/tables/{table_id}/", headers=[(b"cookie", await db(session_cookie)(ben))]
    )
    for comm in (by_token, by_session):
        assert (await receive(comm))["seat"] == 1
    await db(leave)(ben, table_id)
    # The token was replaced: refused. The session is a spectator now: told to reconnect.
    assert await closed_with(by_token) == REFUSED
    assert await closed_with(by_session) == SEAT_CHANGED
    assert await refused(f"/ws/tables/{table_id}/?token={bens['token']}")
    # Cleo takes the seat and the table deals: her cards go to her connections only.
    cleos = (await db(join)(cleo, table_id)).json()
    assert cleos["seat"] == 1 and cleos["token"] != bens["token"]
    await by_token.wait()
    await by_session.wait()


async def test_the_socket_of_someone_who_resigned_is_closed(ana, ben):
    made = await db(create)(ana, game="saichugen", bots=1, rated=False)
    table_id = made["table"]
    bens = (await db(join)(ben, table_id)).json()
    assert bens["status"] == "playing"
    his = await connect(f"/ws/tables/{table_id}/?token={bens['token']}")
    hers = await connect(f"/ws/tables/{table_id}/?token={made['token']}")
    assert (await receive(his))["seat"] == 1
    before = await receive(hers)
    assert (await db(leave)(ben, table_id)).status_code == 200
    assert await closed_with(his) == REFUSED
    # Ana's connection stays and is sent the table again at the same seq.
    again = await receive(hers)
    assert (again["seat"], again["seq"]) == (0, before["seq"])
    await hers.disconnect()


async def test_a_lost_leave_message_still_keeps_the_next_persons_cards_from_the_leaver(
    ana, ben, cleo, monkeypatch
):
    made = await db(create)(ana, game="saichugen")
    table_id = made["table"]
    bens = (await db(join)(ben, table_id)).json()
    his = await connect(f"/ws/tables/{table_id}/?token={bens['token']}")
    assert (await receive(his))["seat"] == 1
    real = notify.send_states
    monkeypatch.setattr(notify, "send_states", lambda *a, **k: None)  # the layer lost it
    await db(leave)(ben, table_id)
    monkeypatch.setattr(notify, "send_states", real)
    await db(join)(cleo, table_id)  # takes seat 1 and deals
    # The deal's state names a newer seats revision: the old connection is checked and closed
    # instead of being sent seat 1's new hand.
    out = await his.receive_output(timeout=5)
    assert out == {"type": "websocket.close", "code": REFUSED}
