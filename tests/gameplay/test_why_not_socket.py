"""Reasons at the table socket: `why_not` in a seated state, `reason` on an `illegal` error
(table-protocol.md, "Additions")."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from gameplay.models import Action
from gameplay.services import play

from .conftest import current, make_table, make_users, some_legal, token
from .test_table_socket import act, connect, receive, seated

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async


def play_until_a_seat_must_follow_suit(table) -> tuple[int, dict[str, dict]]:
    """Play first legal actions through the service until the seat to act holds cards it may
    not play (must follow suit); that seat and the engine's reasons."""
    for _ in range(60):
        table, match = current(table)
        seat = match.to_act()[0]
        why_not = match.why_not(seat)
        if why_not:
            return seat, why_not
        play.play_action(table.id, seat, some_legal(match, seat), table.seq)
    raise AssertionError("nobody had to follow suit")


@pytest.fixture
async def people():
    return await db(make_users)("ana", "ben", "cleo")


async def test_a_seat_to_act_learns_why_cards_are_not_playable_and_an_illegal_play_why(people):
    table = await db(make_table)(people=people)
    dealer = await seated(table, 0)  # 3-5-8: the dealer names trump first
    await dealer.disconnect()
    seat, why_not = await db(play_until_a_seat_must_follow_suit)(table)
    table, match = await db(current)(table)
    led = match.view(None)["trick"][0]["card"][-1]

    comm = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, seat)}")
    state = await receive(comm)
    assert state["seat"] == seat and state["to_act"] == [seat]
    playable = {entry["card"] for entry in state["legal"]}
    assert set(state["why_not"]) == set(state["view"]["hand"]) - playable
    follow = {
        "code": "must_follow_suit",
        "params": {"suit": led},
        "message": f"must follow suit {led}",
    }
    assert all(why == follow for why in state["why_not"].values())
    assert state["why_not"] == why_not

    others = [await seated(table, s) for s in range(3) if s != seat]
    watcher = await connect(f"/ws/tables/{table.id}/")
    spectator = await receive(watcher)
    assert "why_not" not in spectator  # it would name cards of the seat's hand
    for other in others:
        await other.send_json_to({"type": "sync"})
        assert "why_not" not in await receive(other)  # not to act: nothing to explain

    card = sorted(state["why_not"])[0]
    await act(comm, state["seq"], {"act": "play", "card": card}, "off-suit")
    error = await receive(comm)
    assert error == {
        "type": "error",
        "code": "illegal",
        "message": f"must follow suit {led}",
        "id": "off-suit",
        "reason": "must_follow_suit",
        "params": {"suit": led},
    }
    fresh = await receive(comm)
    assert fresh["type"] == "state" and fresh["why_not"] == state["why_not"]
    assert await db(Action.objects.filter(client_id="off-suit").count)() == 0
    for c in (comm, watcher, *others):
        await c.disconnect()


async def test_no_why_not_in_a_phase_that_chooses_no_card_and_errors_keep_their_shape(people):
    table = await db(make_table)(people=people)
    dealer = await seated(table, 0)
    await dealer.send_json_to({"type": "sync"})
    state = await receive(dealer)
    assert state["view"]["phase"] == "trump" and "why_not" not in state
    await act(dealer, 0, {"act": "trump", "suit": "X"}, "t")
    error = await receive(dealer)
    assert (error["code"], error["reason"]) == ("illegal", "no_such_suit")
    assert error["params"] == {"suits": ["S", "H", "D", "C"]}
    await receive(dealer)  # the fresh state
    await act(dealer, 5, {"act": "trump", "suit": "S"}, "s")
    stale = await receive(dealer)
    assert stale["code"] == "stale" and "reason" not in stale  # only `illegal` has a reason
    await dealer.disconnect()
