"""The table socket's event-loop side: its message loop (`consumers/dispatch.py`), its thread
hop (`services/pool.py`), and the WebSocket auth stack without a `send` wrapper."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import subprocess
import sys
import textwrap
import threading
from importlib import import_module
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction

from config.websocket_session import WebSocketAuthMiddlewareStack
from gameplay.consumers.table import in_pool
from gameplay.runtime import notify, pool
from gameplay.runtime.dispatch import InTurnDispatchMixin, dispatch_in_turn

TIMEOUT = 5


def queue_source(q: asyncio.Queue, log: list[str] | None = None, name: str = ""):
    """A source that takes from `q` and notes in `log` when it is cancelled."""

    async def source():
        try:
            return await q.get()
        except asyncio.CancelledError:
            if log is not None:
                log.append(f"{name} cancelled")
            raise

    return source


# ------------------------------------------------------------------ the message loop
async def test_messages_of_both_sources_are_handled_one_at_a_time_in_their_order():
    frames, layer = asyncio.Queue(), asyncio.Queue()
    log: list[str] = []
    handled = 0

    async def dispatch(message):
        nonlocal handled
        log.append(f"start {message['n']}")
        await asyncio.sleep(0.001 * (message["n"] % 3))  # a handler that awaits (a send)
        await asyncio.sleep(0)
        log.append(f"end {message['n']}")
        handled += 1
        if handled == 20:
            raise StopConsumer

    for n in range(10):
        frames.put_nowait({"n": n})
        layer.put_nowait({"n": 100 + n})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(
            dispatch_in_turn([queue_source(frames), queue_source(layer)], dispatch), TIMEOUT
        )
    assert len(log) == 40
    for i in range(0, 40, 2):  # never two at a time: each start is followed by its own end
        assert log[i].startswith("start") and log[i + 1] == "end" + log[i][len("start") :]
    started = [int(e.split()[1]) for e in log if e.startswith("start")]
    assert [n for n in started if n < 100] == list(range(10))
    assert [n for n in started if n >= 100] == list(range(100, 110))
    assert {n < 100 for n in started[:4]} == {True, False}, "both sources are read meanwhile"


async def test_stop_consumer_ends_the_loop_and_nothing_is_handled_after_it():
    frames, layer = asyncio.Queue(), asyncio.Queue()
    log: list[str] = []
    stop_now = asyncio.Event()

    async def dispatch(message):
        log.append(message["type"])
        if message["type"] == "websocket.disconnect":
            # the other reader takes its message while this handler still runs
            layer.put_nowait({"type": "table.state"})
            await asyncio.sleep(0.01)
            stop_now.set()
            raise StopConsumer

    frames.put_nowait({"type": "websocket.disconnect"})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(
            dispatch_in_turn(
                [queue_source(frames, log, "frames"), queue_source(layer, log, "layer")],
                dispatch,
            ),
            TIMEOUT,
        )
    await asyncio.sleep(0.01)
    assert stop_now.is_set()
    assert log == ["websocket.disconnect"], "the state the other reader took was not handled"
    assert layer.empty()


async def test_a_failing_handler_or_source_ends_the_loop_with_its_error_and_cancels_the_other():
    frames, layer = asyncio.Queue(), asyncio.Queue()
    log: list[str] = []

    async def dispatch(message):
        raise ValueError("no handler")

    frames.put_nowait({"type": "nonsense"})
    with pytest.raises(ValueError, match="no handler"):
        await dispatch_in_turn(
            [queue_source(frames, log, "frames"), queue_source(layer, log, "layer")], dispatch
        )
    assert log == ["layer cancelled"]

    async def broken():
        raise ConnectionError("layer gone")

    with pytest.raises(ConnectionError):
        await dispatch_in_turn([queue_source(frames, log, "frames"), broken], dispatch)
    assert log[-1] == "frames cancelled"


async def test_cancelling_the_consumer_cancels_both_readers_and_the_handler():
    frames, layer = asyncio.Queue(), asyncio.Queue()
    log: list[str] = []
    running = asyncio.Event()

    async def dispatch(message):
        running.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            log.append("handler cancelled")
            raise

    frames.put_nowait({"type": "websocket.receive"})
    loop_task = asyncio.ensure_future(
        dispatch_in_turn(
            [queue_source(frames, log, "frames"), queue_source(layer, log, "layer")], dispatch
        )
    )
    await asyncio.wait_for(running.wait(), TIMEOUT)
    loop_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop_task
    assert sorted(log) == ["handler cancelled", "layer cancelled"]


async def test_a_context_variable_set_by_one_handler_is_seen_by_the_next():
    var: contextvars.ContextVar[int] = contextvars.ContextVar("var", default=0)
    frames, layer = asyncio.Queue(), asyncio.Queue()
    seen: list[int] = []

    async def dispatch(message):
        seen.append(var.get())
        var.set(var.get() + 1)
        if len(seen) == 5:
            raise StopConsumer
        # the next message comes from the other source (the other reader handles it)
        if message["from"] == "frames":
            layer.put_nowait({"from": "layer"})
        else:
            frames.put_nowait({"from": "frames"})

    frames.put_nowait({"from": "frames"})
    with pytest.raises(StopConsumer):
        await dispatch_in_turn([queue_source(frames), queue_source(layer)], dispatch)
    assert seen == [0, 1, 2, 3, 4]
    assert var.get() == 0, "the caller's own context is not changed"


class Echo(InTurnDispatchMixin, AsyncWebsocketConsumer):
    """A consumer on the in-turn loop: joins a group, forwards its messages."""

    async def connect(self):
        await self.channel_layer.group_add("loop-test", self.channel_name)
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send("loop-test", {"type": "say", "text": text_data})

    async def say(self, event):
        await self.send(text_data=event["text"])

    async def disconnect(self, code):
        await self.channel_layer.group_discard("loop-test", self.channel_name)


async def test_a_consumer_on_the_loop_connects_receives_group_messages_and_leaves_its_group():
    first = WebsocketCommunicator(Echo.as_asgi(), "/")
    second = WebsocketCommunicator(Echo.as_asgi(), "/")
    assert (await first.connect())[0] and (await second.connect())[0]
    await first.send_to(text_data="hello")
    assert await first.receive_from(TIMEOUT) == "hello"
    assert await second.receive_from(TIMEOUT) == "hello"
    await second.disconnect()
    await first.send_to(text_data="again")
    assert await first.receive_from(TIMEOUT) == "again"
    layer = get_channel_layer()
    assert len(layer.groups.get("loop-test", {})) == 1, "the second one left its group"
    await first.disconnect()
    assert "loop-test" not in layer.groups


@pytest.mark.redis
async def test_the_pubsub_layer_drops_the_channel_when_the_loop_ends():
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]])
    try:
        name = await layer.new_channel()
        handled: list[str] = []

        async def dispatch(message):
            handled.append(message["type"])
            if message["type"] == "table.state":
                frames.put_nowait({"type": "websocket.disconnect"})
            else:
                raise StopConsumer  # as websocket_disconnect does

        frames: asyncio.Queue = asyncio.Queue()
        waiting = asyncio.ensure_future(
            dispatch_in_turn([frames.get, functools.partial(layer.receive, name)], dispatch)
        )
        await layer.send(name, {"type": "table.state"})
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(waiting, TIMEOUT)
        assert handled == ["table.state", "websocket.disconnect"]
        assert name not in layer._get_layer().channels, "unsubscribed when its reader ended"
    finally:
        await layer.flush()


# ------------------------------------------------------------------ the WebSocket stack
@pytest.mark.django_db(transaction=True)
async def test_the_websocket_stack_fills_the_scope_and_passes_the_servers_own_send():
    seen = {}

    async def inner(scope, receive, send):
        seen["send"], seen["user"], seen["session"] = send, scope["user"], scope["session"]

    async def server_send(message):
        pass

    async def receive():
        return {"type": "websocket.connect"}

    def a_session() -> str:
        store = import_module(settings.SESSION_ENGINE).SessionStore()
        store["seen"] = "yes"
        store.save()
        return store.session_key

    cookie = f"sessionid={await database_sync_to_async(a_session)()}".encode()
    scope = {"type": "websocket", "path": "/", "headers": [(b"cookie", cookie)]}
    await WebSocketAuthMiddlewareStack(inner)(scope, receive, server_send)
    assert seen["send"] is server_send, "not wrapped"
    assert seen["user"].is_authenticated is False
    assert seen["session"]["seen"] == "yes"


# ------------------------------------------------------------------ the thread hop
async def test_a_call_runs_in_a_pool_thread_and_returns_or_raises_as_itself():
    def where(x, y=0):
        return threading.current_thread().name, x + y

    name, total = await pool.run(where, 2, y=3)
    assert name.startswith("table-pool-") and total == 5

    def fails():
        raise KeyError("seat")

    with pytest.raises(KeyError, match="seat"):
        await pool.run(fails)

    def stops():
        raise StopIteration

    with pytest.raises(RuntimeError, match="StopIteration"):
        await pool.run(stops)


async def test_a_call_sees_the_callers_context_and_leaves_nothing_in_it():
    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="unset")
    var.set("caller")

    def read_and_set():
        before = var.get()
        var.set("call")
        return before

    for _ in range(pool.SIZE * 2):  # every thread, more than once
        assert await pool.run(read_and_set) == "caller"
    assert var.get() == "caller"


async def test_a_call_cancelled_before_a_thread_takes_it_does_not_run():
    release = threading.Event()
    busy = [asyncio.ensure_future(pool.run(release.wait, TIMEOUT)) for _ in range(pool.SIZE)]
    ran: list[int] = []
    try:
        await asyncio.sleep(0.05)  # every thread is waiting on `release`
        queued = asyncio.ensure_future(pool.run(ran.append, 1))
        await asyncio.sleep(0)
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
    finally:
        release.set()
    assert all(await asyncio.gather(*busy))
    assert await pool.run(ran.append, 2) is None
    assert ran == [2]


async def test_notify_finds_the_server_loop_from_a_pool_thread_and_from_asgiref_threads():
    loop = asyncio.get_running_loop()
    assert notify._server_loop() is None, "on the loop itself"
    assert await pool.run(notify._server_loop) is loop
    assert await in_pool(notify._server_loop)() is loop
    # a page view (asgiref's sync_to_async), thread-sensitive or not
    assert await sync_to_async(notify._server_loop)() is loop
    assert await sync_to_async(notify._server_loop, thread_sensitive=False)() is loop
    # a thread of its own (a Celery task, a command): no server loop
    found = []
    own = threading.Thread(target=lambda: found.append(notify._server_loop()))
    own.start()
    own.join(TIMEOUT)
    assert found == [None]


async def test_a_state_sent_from_a_pool_thread_is_published_by_the_loop(monkeypatch):
    def no_new_loop(*args, **kwargs):
        raise AssertionError("async_to_sync: the publish did not go to the server's loop")

    monkeypatch.setattr(notify, "async_to_sync", no_new_loop)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(notify.group_name("t-loop", 0), channel)
    await in_pool(notify.send_states)("t-loop", 7, {0: {"type": "state", "seq": 7}})
    message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
    assert message["type"] == notify.STATE_EVENT and message["seq"] == 7
    assert message["text"] == '{"type":"state","seq":7}'
    await layer.group_discard(notify.group_name("t-loop", 0), channel)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_each_call_gives_its_connection_back_even_after_a_failed_statement():
    if connection.vendor != "postgresql":
        pytest.skip("the pool of connections is PostgreSQL's")
    wrappers = []

    def query(bad: bool) -> int:
        conn = connections["default"]  # this thread's own
        wrappers.append(conn)
        with conn.cursor() as cursor:
            if bad:
                with transaction.atomic():
                    cursor.execute("SELECT * FROM no_such_table")
            cursor.execute("SELECT 1")
            return cursor.fetchone()[0]

    for i in range(pool.SIZE * 3):
        if i % 3 == 0:
            with pytest.raises(DatabaseError):
                await in_pool(query)(True)
        else:
            assert await in_pool(query)(False) == 1
        assert wrappers[-1].connection is None, "back in the pool after the call"


def run_python(code: str) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(root)},
    )


def test_at_exit_a_call_in_progress_is_finished(tmp_path):
    """A move being committed when the server stops is not cut off mid-call."""
    proof = tmp_path / "proof"
    done = run_python(f"""
        import asyncio, time
        from gameplay.runtime import pool

        def slow():
            time.sleep(0.5)
            open({str(proof)!r}, "w").write("finished")

        async def main():
            asyncio.ensure_future(pool.run(slow))
            await asyncio.sleep(0.05)  # the loop ends while the call runs

        asyncio.run(main())
    """)
    assert done.returncode == 0, done.stderr
    assert proof.read_text() == "finished"


def test_a_forked_child_starts_threads_of_its_own():
    done = run_python("""
        import asyncio, os, sys
        from gameplay.runtime import pool

        assert asyncio.run(pool.run(lambda: 1)) == 1  # the parent's threads are running
        child = os.fork()
        if child == 0:
            value = asyncio.run(asyncio.wait_for(pool.run(lambda: 2), 5))
            os._exit(0 if value == 2 else 1)
        _, status = os.waitpid(child, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    """)
    assert done.returncode == 0, done.stderr
