"""The table WebSocket, end to end through the ASGI application (table-protocol.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from gameplay.models import Action
from gameplay.runtime import cache, notify
from gameplay.services import payloads, play

from .conftest import current, make_table, make_users, some_legal, token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async


@pytest.fixture
async def people():
    return await db(make_users)("ana", "ben", "cleo")


async def connect(path: str, headers: list | None = None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=headers or [])
    connected, _ = await comm.connect()
    assert connected, f"refused: {path}"
    return comm


async def receive(comm: WebsocketCommunicator) -> dict[str, Any]:
    return await comm.receive_json_from(timeout=5)


async def seated(table, seat: int) -> WebsocketCommunicator:
    comm = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, seat)}")
    state = await receive(comm)
    assert state["type"] == "state" and state["seat"] == seat
    return comm


async def act(comm, seq, action, client_id=None) -> None:
    await comm.send_json_to({"type": "act", "seq": seq, "action": action, "id": client_id})


async def refused(path: str, headers: list | None = None) -> bool:
    comm = WebsocketCommunicator(application, path, headers=headers or [])
    connected, _ = await comm.connect()
    if connected:
        await comm.disconnect()
    return not connected


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_a_seat_token_connects_without_origin_and_sees_its_hand(people):
    table = await db(make_table)(people=people)
    comm = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}")
    state = await receive(comm)
    assert state["type"] == "state"
    assert (state["table"], state["seq"], state["seat"], state["status"]) == (
        table.id,
        0,
        0,
        "playing",
    )
    assert state["game"] == "three_five_eight"
    assert state["to_act"] == [0]
    assert {"act": "trump", "suit": "S"} in state["legal"]
    assert len(state["view"]["hand"]) == 16
    assert state["result"] is None
    assert state["clock"] == {}  # no time control: no seat has a clock (still an object)
    await comm.disconnect()


async def test_the_clock_shows_every_seat_and_runs_for_the_seat_to_act(people):
    table = await db(make_table)(people=people, seconds_per_move=60)
    comm = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, 1)}")
    clock = (await receive(comm))["clock"]
    assert set(clock) == {"0", "1", "2"}
    assert 55 <= clock["0"] <= 60  # seat 0 is to act
    assert clock["1"] == clock["2"] == 60.0
    await comm.disconnect()


async def test_who_may_connect(people):
    ben = people[1]
    (olga,) = await db(make_users)("olga")
    private = await db(make_table)(people=people, allow_spectators=False)
    public = await db(make_table)(people=people)
    assert await refused(f"/ws/tables/{private.id}/?token=wrong")
    assert await refused(f"/ws/tables/{public.id}/?token=wrong")
    assert await refused(f"/ws/tables/{private.id}/")
    assert await refused("/ws/tables/no-such-table/")
    # a seat token of another table is a wrong token here
    assert await refused(f"/ws/tables/{public.id}/?token={await db(token)(private, 0)}")
    origin = (b"origin", b"http://testserver")
    olga_cookie = (b"cookie", await db(session_cookie)(olga))
    assert await refused(f"/ws/tables/{private.id}/", [olga_cookie, origin])
    # the session of a seated player is its seat; anybody else may watch a public table
    ben_cookie = (b"cookie", await db(session_cookie)(ben))
    comm = await connect(f"/ws/tables/{private.id}/", [ben_cookie, origin])
    assert (await receive(comm))["seat"] == 1
    await comm.disconnect()
    comm = await connect(f"/ws/tables/{public.id}/", [olga_cookie, origin])
    spectator = await receive(comm)
    assert spectator["seat"] is None and spectator["legal"] == []
    assert "hand" not in spectator["view"]
    await comm.disconnect()
    # a foreign page cannot use a player's session
    assert await refused(
        f"/ws/tables/{private.id}/", [ben_cookie, (b"origin", b"https://evil.example")]
    )


async def test_every_error_code(people, settings):
    settings.GAMEPLAY_RATE_BURST = 12
    settings.GAMEPLAY_RATE_PER_SECOND = 0.001
    table = await db(make_table)(people=people)
    dealer = await seated(table, 0)
    other = await seated(table, 1)
    watcher = await connect(f"/ws/tables/{table.id}/")
    await receive(watcher)

    await dealer.send_to(text_data="{not json")
    assert (await receive(dealer))["code"] == "bad_message"
    await dealer.send_json_to({"type": "dance"})
    assert (await receive(dealer))["code"] == "bad_message"
    await dealer.send_json_to({"type": "act", "action": {"act": "pass"}, "id": "x"})
    error = await receive(dealer)
    assert (error["code"], error["id"]) == ("bad_message", "x")
    await dealer.send_json_to({"type": "act", "seq": 0, "action": {"act": "pass"}, "id": "y" * 65})
    assert (await receive(dealer))["code"] == "bad_message"

    await act(watcher, 0, {"act": "trump", "suit": "S"}, "w")
    error = await receive(watcher)
    assert (error["type"], error["code"], error["id"]) == ("error", "forbidden", "w")

    await act(dealer, 3, {"act": "trump", "suit": "S"}, "s")
    assert (await receive(dealer))["code"] == "stale"
    assert (await receive(dealer))["type"] == "state"  # a fresh state follows

    await act(other, 0, {"act": "trump", "suit": "S"}, "t")
    assert (await receive(other))["code"] == "not_your_turn"

    await act(dealer, 0, {"act": "trump", "suit": "X"}, "i")
    error = await receive(dealer)
    assert (error["code"], error["id"]) == ("illegal", "i")
    assert error["message"]
    assert (await receive(dealer))["seq"] == 0

    # the bucket held 12 messages; the dealer has sent 6, the next 6 pass, then it is empty
    for _ in range(7):
        await dealer.send_json_to({"type": "sync"})
    replies = [await receive(dealer) for _ in range(7)]
    assert [r["type"] for r in replies[:6]] == ["state"] * 6
    assert replies[6]["code"] == "rate_limited"

    assert await db(Action.objects.count)() == 0  # no error changed the table
    for comm in (dealer, other, watcher):
        assert await comm.receive_nothing(timeout=0.1)
        await comm.disconnect()


async def test_checks_run_in_protocol_order(people):
    table = await db(make_table)(people=people)
    dealer = await seated(table, 0)
    other = await seated(table, 1)
    watcher = await connect(f"/ws/tables/{table.id}/")
    await receive(watcher)
    # bad_message before forbidden
    await watcher.send_json_to({"type": "act", "seq": "0", "action": {"act": "pass"}})
    assert (await receive(watcher))["code"] == "bad_message"
    # forbidden before stale
    await act(watcher, 9, {"act": "pass"})
    assert (await receive(watcher))["code"] == "forbidden"
    # stale before not_your_turn
    await act(other, 9, {"act": "pass"})
    assert (await receive(other))["code"] == "stale"
    await receive(other)
    # not_your_turn before illegal
    await act(other, 0, {"act": "nonsense"})
    assert (await receive(other))["code"] == "not_your_turn"
    # an applied id is acknowledged before stale
    await act(dealer, 0, {"act": "trump", "suit": "S"}, "a-1")
    assert (await receive(dealer))["seq"] == 1
    assert (await receive(other))["seq"] == 1
    await act(dealer, 0, {"act": "trump", "suit": "S"}, "a-1")
    ack = await receive(dealer)
    assert (ack["type"], ack["seq"]) == ("state", 1)
    assert await db(Action.objects.count)() == 1
    for comm in (dealer, other, watcher):
        await comm.disconnect()


async def test_a_retry_with_the_same_id_is_applied_once_and_ids_are_per_seat(people):
    table = await db(make_table)(game="saichugen", people=people)
    seats = [await seated(table, s) for s in range(3)]
    _, match = await db(current)(table)
    first = some_legal(match, 0)
    await act(seats[0], 0, first, "c-1")
    for comm in seats:
        assert (await receive(comm))["seq"] == 1
    # the network dropped the answer: seat 0 retries with the same id at the new seq
    await act(seats[0], 1, first, "c-1")
    ack = await receive(seats[0])
    assert ack["type"] == "state" and ack["seq"] == 1
    # seat 1 uses the same id for its own commit, at the old seq: stale, then re-sent
    second = some_legal(match, 1)
    await act(seats[1], 0, second, "c-1")
    assert (await receive(seats[1]))["code"] == "stale"
    fresh = await receive(seats[1])
    assert second in fresh["legal"]
    await act(seats[1], fresh["seq"], second, "c-1")
    for comm in seats:
        assert (await receive(comm))["seq"] == 2
    assert await db(Action.objects.filter(client_id="c-1").count)() == 2
    for comm in seats:
        assert await comm.receive_nothing(timeout=0.1)
        await comm.disconnect()


async def test_a_consumer_that_misses_a_seq_fills_the_gap_from_the_table(people, monkeypatch):
    table = await db(make_table)(game="saichugen", people=people)
    watcher = await connect(f"/ws/tables/{table.id}/")
    assert (await receive(watcher))["seq"] == 0
    real = notify.send_states
    monkeypatch.setattr(notify, "send_states", lambda *a, **k: None)  # a lost message

    def play_one():
        t, m = current(table)
        seat = m.to_act()[0]
        play.play_action(t.id, seat, some_legal(m, seat), t.seq)

    await db(play_one)()
    monkeypatch.setattr(notify, "send_states", real)
    await db(play_one)()
    assert [(await receive(watcher))["seq"] for _ in range(2)] == [1, 2]
    # a late duplicate is dropped
    state = json.loads(json.dumps((await db(payloads.states_since)(table.id, None, -1))[0]))
    await real_send(table.id, 2, {None: state})
    await real_send(table.id, 1, {None: state})
    assert await watcher.receive_nothing(timeout=0.2)
    await watcher.disconnect()


async def real_send(table_id, seq, payloads):
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    for seat, payload in payloads.items():
        await layer.group_send(
            notify.group_name(table_id, seat),
            {"type": notify.STATE_EVENT, "seq": seq, "final": False, "state": payload},
        )


async def test_a_player_who_comes_back_gets_the_same_state(people):
    table = await db(make_table)(people=people)
    comm = await seated(table, 0)
    await act(comm, 0, {"act": "trump", "suit": "H"}, "t")
    before = await receive(comm)
    await comm.disconnect()
    await db(cache.forget)()  # as after a server restart
    again = await seated(table, 0)
    await again.send_json_to({"type": "sync"})
    after = await receive(again)
    before.pop("clock"), after.pop("clock")
    assert after == before
    await again.disconnect()


async def test_bots_answer_a_person_through_the_same_path(people):
    table = await db(make_table)(people=people[:1], bots=["b1", "b2"], seed=5)
    comm = await seated(table, 0)
    await act(comm, 0, {"act": "trump", "suit": "S"}, "t")
    state = await receive(comm)
    _, match = await db(current)(table)
    await act(comm, 1, some_legal(match, 0), "d")
    seqs = [state["seq"]]
    # seat 1 leads the first trick, seat 2 follows: the bots move on their own
    while True:
        state = await receive(comm)
        seqs.append(state["seq"])
        if 0 in state["to_act"]:
            break
    assert seqs == list(range(1, seqs[-1] + 1))
    kinds = await db(list)(Action.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds[:2] == ["player", "player"] and set(kinds[2:]) == {"bot"}
    await comm.disconnect()


async def test_a_seat_token_is_accepted_whatever_the_origin_and_an_empty_token_is_wrong(people):
    # table-protocol.md: the Origin check protects session connections only; a bot library may
    # send an Origin of its own. `?token=` is a wrong token, not "no token".
    table = await db(make_table)(people=people)
    path = f"/ws/tables/{table.id}/?token={await db(token)(table, 2)}"
    for origin in (b"https://bot-host.example", b"null"):
        comm = await connect(path, [(b"origin", origin)])
        assert (await receive(comm))["seat"] == 2
        await comm.disconnect()
    assert await refused(f"/ws/tables/{table.id}/?token=")
    assert await refused(f"/ws/tables/{table.id}/?token=", [(b"origin", b"https://x.example")])


async def test_play_is_never_rate_limited_but_noise_is(people, settings):
    settings.GAMEPLAY_RATE_BURST = 2
    settings.GAMEPLAY_RATE_PER_SECOND = 0.001
    settings.GAMEPLAY_BYTES_BURST = 400  # a few actions' worth: applied ones give theirs back
    settings.GAMEPLAY_BYTES_PER_SECOND = 0.001
    table = await db(make_table)(people=people)
    comms = [await seated(table, seat) for seat in range(3)]
    for n in range(24):  # far more than the burst for every seat
        t, match = await db(current)(table)
        seat = match.to_act()[0]
        await act(comms[seat], t.seq, some_legal(match, seat), f"m{n}")
        for comm in comms:
            state = await receive(comm)
            assert (state["type"], state["seq"]) == ("state", t.seq + 1), state
    for _ in range(2):
        await comms[0].send_json_to({"type": "sync"})
        assert (await receive(comms[0]))["type"] == "state"
    await comms[0].send_json_to({"type": "act", "seq": 0, "action": {"act": "x"}, "id": "r"})
    error = await receive(comms[0])
    assert (error["code"], error["id"]) == ("rate_limited", "r")  # the id is echoed
    for comm in comms:
        await comm.disconnect()


async def test_large_legal_frames_are_limited_by_their_bytes(people, settings):
    """Each frame under the protocol's cap, but together more bytes than the connection may
    send: refused as noise is, while a small message still goes through."""
    settings.GAMEPLAY_BYTES_BURST = 40_000
    settings.GAMEPLAY_BYTES_PER_SECOND = 0.001
    table = await db(make_table)(people=people)
    comm = await seated(table, 0)
    large = {"type": "sync", "id": "big", "pad": "x" * 16_000}
    for _ in range(2):
        await comm.send_json_to(large)
        assert (await receive(comm))["type"] == "state"
    await comm.send_json_to(large)
    error = await receive(comm)
    assert (error["code"], error["id"]) == ("rate_limited", "big")
    assert "bytes" in error["message"]
    await comm.send_json_to({"type": "sync"})
    assert (await receive(comm))["type"] == "state"
    await comm.disconnect()


async def test_losing_a_race_for_a_seq_costs_no_rate(people, settings):
    settings.GAMEPLAY_RATE_BURST = 1
    settings.GAMEPLAY_RATE_PER_SECOND = 0.001
    table = await db(make_table)(game="saichugen", people=people)
    comms = [await seated(table, seat) for seat in range(3)]
    t, match = await db(current)(table)
    assert len(match.to_act()) == 3  # everybody commits on the same seq
    await act(comms[0], t.seq, some_legal(match, 0), "a")
    for comm in comms:
        assert (await receive(comm))["seq"] == t.seq + 1
    await act(comms[1], t.seq, some_legal(match, 1), "b")  # on the state it had: lost the race
    assert (await receive(comms[1]))["code"] == "stale"
    state = await receive(comms[1])
    again = next(a for a in state["legal"] if a == some_legal(match, 1))
    await act(comms[1], state["seq"], again, "b")  # the protocol's re-send: not limited
    for comm in comms:
        assert (await receive(comm))["seq"] == t.seq + 2
    for comm in comms:
        await comm.disconnect()
