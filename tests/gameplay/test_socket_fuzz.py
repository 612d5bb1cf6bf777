"""Malformed frames at a live table socket: each is answered with an `error`, the socket stays
open and the table does not change (table-protocol.md: "an error never closes the connection").

In process through the Channels communicator (fixed nasty frames, then Hypothesis), and once
against a real uvicorn over a real WebSocket, where a crash shows as a 1006 close.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import uuid
from contextlib import contextmanager
from urllib.error import HTTPError
from urllib.parse import urlparse, urlunparse
from urllib.request import urlopen

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from config.asgi import application
from gameplay.models import Action, Table
from gameplay.services import play
from tests.procs import manage, run_async, service_env, uvicorn_server

from .conftest import make_table, make_users, token

db = database_sync_to_async
pytestmark = pytest.mark.usefixtures("close_thread_connections")

DEEP = 5000  # levels: far past the recursion limit, and still under the 16 KB frame cap
LEGAL = {"act": "trump", "suit": "S"}  # seat 0's first legal move at the test table

NASTY_TEXT = [
    "[" * DEEP + "]" * DEEP,
    '{"a":' * 3000 + "1" + "}" * 3000,
    '{"type": "act", "seq": 0, "action": {"act": "trump", "suit": "S", "x": '
    + "[" * 17
    + "]" * 17
    + "}}",  # a legal move, nested one level too deep
    '{"type": "act", "seq": ' + "9" * 5000 + ', "action": {"act": "pass"}}',  # past int limit
    '{"type": "act", "seq": 1e400, "action": {"act": "pass"}}',
    '{"type": "act", "seq": NaN, "action": {"act": "pass"}}',
    '{"type": "act", "seq": Infinity, "action": {"act": "pass"}}',
    '{"type": "act", "seq": -Infinity, "action": {"act": "pass"}}',
    '{"type": "sync", "x": NaN}',
    json.dumps({"type": "act", "seq": 0, "action": LEGAL, "id": "nul\x00"}),  # the id is stored
    json.dumps({"type": "act", "seq": 0, "action": {**LEGAL, "x": "\x00"}}),
    json.dumps({"type\x00": "sync"}),
    '{"type": "sync"}\x00',
    '{"type": "sy\x00nc"}',
    '{"type": "act", "seq": 0, "action": {"act": "trump", "suit": "S"}, "id": "\\ud800"}',
    '{"type": "act", "seq": 0, "action": {"act": "trump", "suit": "S"}, "id": "\udcff"}',
    json.dumps({"type": "act", "seq": 0, "action": LEGAL, "id": "x" * 65}),
    json.dumps({"type": "act", "seq": 0, "action": LEGAL, "id": "x" * 10_000}),
    json.dumps({"type": "act", "seq": 0, "action": LEGAL, "id": 7}),
    json.dumps({"type": ["x" * 10_000]}),
    json.dumps({"type": "act", "seq": True, "action": LEGAL}),
    json.dumps({"type": "act", "seq": 0, "action": [LEGAL]}),
    json.dumps({"type": "act", "seq": 0, "action": {"act": ["play"]}}),
    "x" * 20_000,
    json.dumps({"type": "sync", "pad": "x" * 20_000}),
    "",
    "[]",
    "1",
    '"sync"',
    "null",
    "true",
    "{",
    '{"type": "sync"',
    "\ufeff{}",
]
# Well formed, but nonsense to the table: the service's own answers.
ODD_ACTS = [
    ('{"type": "act", "seq": ' + "9" * 4000 + ', "action": {"act": "pass"}}', "stale"),
    (json.dumps({"type": "act", "seq": -1, "action": LEGAL}), "stale"),
    (json.dumps({"type": "act", "seq": 0, "action": {"act": "play", "card": ["7H"]}}), "illegal"),
    (
        json.dumps({"type": "act", "seq": 0, "action": {"act": "trump", "suit": {"S": 1}}}),
        "illegal",
    ),
    (json.dumps({"type": "act", "seq": 0, "action": {"act": "trump", "suit": None}}), "illegal"),
    (
        json.dumps({"type": "act", "seq": 0, "action": {"act": "trump", "suit": "S" * 9000}}),
        "illegal",
    ),
]
NASTY_BYTES = [
    b'{"type": "sync"}',
    b"\xff\xfe\xfd",
    b"\xc0\xaf",
    b"\x00" * 100,
    os.urandom(512),
    b"",
]


@pytest.fixture
async def people():
    return await db(make_users)("ana", "ben", "cleo")


@pytest.fixture
def unlimited(settings):
    """Frames for a test of thousands, not a rate limit (tested in test_table_socket.py)."""
    settings.GAMEPLAY_RATE_BURST = 100_000
    settings.GAMEPLAY_RATE_PER_SECOND = 1_000


class Seat:
    """Seat 0 of a fresh table over the in-process communicator, and what the table was."""

    def __init__(self, table: Table, row: dict, comm: WebsocketCommunicator, first: dict) -> None:
        self.table, self.table_row, self.comm, self.first = table, row, comm, first

    async def send(self, frame: str | bytes) -> None:
        # send_input, not send_to: that one refuses empty frames, which a client may send
        kind = "bytes" if isinstance(frame, bytes) else "text"
        await self.comm.send_input({"type": "websocket.receive", kind: frame})

    async def receive(self) -> dict:
        return json.loads(await self.comm.receive_from(timeout=10))

    async def answers_with_an_error_and_nothing_changed(self, frame: str | bytes) -> dict:
        await self.send(frame)
        error = await self.receive()
        assert error["type"] == "error", error
        assert set(error) >= {"code", "message", "id"}
        if error["code"] in ("stale", "illegal"):
            assert await self.receive() == self.first  # the fresh state that follows those
        await self.comm.send_json_to({"type": "sync"})
        assert await self.receive() == self.first  # still open, the same table
        row = await db(Table.objects.values("seq", "state").get)(pk=self.table.pk)
        assert row == self.table_row
        assert await db(Action.objects.filter(table=self.table).count)() == 0
        return error


@pytest.fixture
async def seat(people, unlimited):
    table = await db(make_table)(people=people)
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}"
    )
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=10))
    assert first["type"] == "state" and LEGAL in first["legal"]
    row = await db(Table.objects.values("seq", "state").get)(pk=table.pk)
    yield Seat(table, row, comm, first)
    await comm.disconnect()


@pytest.fixture
def no_crash(caplog):
    """The consumer logs every unexpected exception: a malformed frame must not be one."""
    caplog.set_level(logging.ERROR, logger="gameplay.consumers.table")
    yield
    crashes = [r for r in caplog.records if r.name == "gameplay.consumers.table"]
    assert crashes == [], crashes[0].getMessage()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_crash")
async def test_every_nasty_frame_is_a_bad_message_and_changes_nothing(seat):
    for frame, expected in [(f, "bad_message") for f in NASTY_TEXT + NASTY_BYTES] + ODD_ACTS:
        error = await seat.answers_with_an_error_and_nothing_changed(frame)
        assert error["code"] == expected, (frame[:80], error)
        assert error["id"] is None or len(error["id"]) <= 64
    # and the seat still plays
    await seat.comm.send_json_to({"type": "act", "seq": 0, "action": LEGAL, "id": "ok"})
    assert (await seat.receive())["seq"] == 1


@pytest.mark.django_db(transaction=True)
async def test_a_failure_of_ours_is_logged_and_answered_and_the_socket_stays(
    seat, monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise RuntimeError("the service broke")

    monkeypatch.setattr(play, "play_action", broken)
    await seat.comm.send_json_to({"type": "act", "seq": 0, "action": LEGAL, "id": "a-1"})
    error = await seat.receive()
    assert (error["type"], error["code"], error["id"]) == ("error", "bad_message", "a-1")
    assert await seat.receive() == seat.first  # the table as it is, in case it did change
    assert "the service broke" in caplog.text
    assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)
    monkeypatch.undo()
    await seat.comm.send_json_to({"type": "act", "seq": 0, "action": LEGAL, "id": "a-2"})
    assert (await seat.receive())["seq"] == 1


# ------------------------------------------------------------------ Hypothesis
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# The act vocabulary of the games, with any other fields, so the engines see garbage too.
actions = st.builds(
    lambda act, extra: {**extra, "act": act},
    st.sampled_from(["play", "trump", "pass", "bid", "discard", "give", "exchange", "commit"])
    | st.text(max_size=8),
    st.dictionaries(st.sampled_from(["card", "suit", "cards", "to", "x"]), json_values, max_size=3),
)
acts = st.fixed_dictionaries(
    {"type": st.just("act")},
    optional={
        "seq": st.integers(-2, 2) | json_values,
        "action": actions | json_values,
        "id": st.text(max_size=70) | st.text(max_size=8).map(lambda t: t + "\x00") | json_values,
    },
)
# What a plain JSON generator never makes: nesting past the bound, numbers past Python's limit.
deep = st.builds(
    lambda n, open_: open_ * n + ("1" if open_ == '{"a":' else "") + {"[": "]"}.get(open_, "}") * n,
    st.integers(17, 5000),
    st.sampled_from(["[", '{"a":']),
)
huge = st.integers(4301, 9000).map(lambda n: '{"type": "act", "seq": ' + "9" * n + "}")
frames = st.one_of(
    acts.map(json.dumps),
    deep,
    huge,
    json_values.filter(lambda v: not (isinstance(v, dict) and v.get("type") == "sync")).map(
        json.dumps
    ),
    st.text(max_size=200),
    st.binary(max_size=200),
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_crash")
@settings(
    max_examples=60,
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frame=frames)
async def test_random_frames_are_errors_and_change_nothing(seat, frame):
    assume(not plays_a_legal_move(frame, seat.first["legal"]))
    await seat.answers_with_an_error_and_nothing_changed(frame)


def plays_a_legal_move(frame: str | bytes, legal: list[dict]) -> bool:
    """Whether `frame` is an act the table would apply (the engine may ignore extra fields)."""
    try:
        message = json.loads(frame)
        action = message["action"]
        return message["seq"] == 0 and any(action.items() >= move.items() for move in legal)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return False


# ------------------------------------------------------------------ a real server
@contextmanager
def server_database(tmp_path):
    """A database the server process can reach (not the test's, which it cannot see)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'fuzz.sqlite3'}"
        return
    import psycopg

    name = f"mediana_fuzz_{uuid.uuid4().hex[:8]}"
    admin = urlunparse(urlparse(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunparse(urlparse(url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _sendable(frame: str | bytes) -> bool:
    """A str with a lone surrogate stands for invalid UTF-8 in process; a real client cannot
    send it as a str (it sends bytes as a text frame instead, below)."""
    try:
        return isinstance(frame, bytes) or bool(frame.encode())
    except UnicodeEncodeError:
        return False


OVER_THE_WIRE = [f for f in NASTY_TEXT + NASTY_BYTES if _sendable(f)] + [f for f, _ in ODD_ACTS]


async def _refused_status(uri: str) -> int:
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(uri):
            pass
    return refused.value.response.status_code


async def _over_a_real_socket(base: str, table: str, seat_token: str) -> dict:
    seen: dict = {"codes": [], "refused": {}}
    async with websockets.connect(f"{base}/ws/tables/{table}/?token={seat_token}") as ws:

        async def receive() -> dict:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))

        first = await receive()
        for frame in OVER_THE_WIRE:
            await ws.send(frame)
            error = await receive()
            assert error["type"] == "error", (frame[:80], error)
            seen["codes"].append(error["code"])
            if error["code"] in ("stale", "illegal"):
                assert await receive() == first
            await ws.send(json.dumps({"type": "sync"}))
            assert await receive() == first, frame[:80]
        # Invalid UTF-8 in a *text* frame: RFC 6455 has the server fail the connection with
        # 1007 (done by the WebSocket library, before our code): a clean close, not a crash.
        await ws.send(b'{"type": "sync", "x": "\xff"}', text=True)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await receive()
        seen["invalid_utf8_close"] = closed.value.rcvd.code if closed.value.rcvd else None
    for path in (f"/ws/tables/{table}/?token=%00", "/ws/tables/%00/", "/ws/nowhere/"):
        seen["refused"][path] = await _refused_status(base + path)
    return seen


@pytest.mark.slow
def test_nasty_frames_over_a_real_websocket_never_close_it(tmp_path):
    with server_database(tmp_path) as db_url:
        env = service_env(DATABASE_URL=db_url, GAMEPLAY_RATE_BURST="100000")
        manage(env, "migrate", "--no-input", "-v0")
        created = json.loads(
            manage(env, "create_table", "--game=three_five_eight", "--players=p0,p1,p2", "--seed=7")
        )
        with uvicorn_server(env) as port:
            seen = run_async(
                _over_a_real_socket(
                    f"ws://127.0.0.1:{port}", created["table"], created["seats"][0]["token"]
                )
            )
            for path in ("/tables/%00/", "/tables/%00/record.json", "/tables/..%2f/"):
                with pytest.raises(HTTPError) as missing:
                    urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)
                assert missing.value.code == 404, path
    assert seen["codes"] == ["bad_message"] * (len(OVER_THE_WIRE) - len(ODD_ACTS)) + [
        code for _, code in ODD_ACTS
    ]
    assert seen["invalid_utf8_close"] == 1007
    assert set(seen["refused"].values()) == {403}, seen["refused"]
