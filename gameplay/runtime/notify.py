"""Fan-out of table changes to the consumers, through the channel layer.

Every seat has its own group (and spectators one), and each gets its own `state` payload: no
message that travels through the layer to one receiver carries another seat's cards. The
messages are sent after commit; a consumer that misses one notices the gap in `seq` and re-reads
the table (the layer is not trusted for delivery).

Cheap on purpose (it runs for every move): each payload is serialized to its JSON text once,
here, and travels as that text (`"text"`), so neither the layer's msgpack nor the consumer
walks the nested state again; with the Redis Pub/Sub layer the per-seat messages of one change
go out in one pipelined round trip; called from a worker thread of a server, the publish is
handed to the server's event loop without waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from gameplay.runtime import metrics, pool

try:
    from channels_redis.pubsub import RedisPubSubChannelLayer
except ImportError:  # pragma: no cover - channels_redis is a dependency
    RedisPubSubChannelLayer = None

logger = logging.getLogger(__name__)

STATE_EVENT = "table.state"

# Compact, and without the check for circular references (a state is a tree, never a cycle):
# that check alone costs a sixth of the encoding.
_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def _json_text() -> Callable[[Any], str]:
    """`_encoder.encode`, for the many small values a change's states are spliced from: its C
    encoder made once rather than on every call (a third of a small value's cost). The same
    text (tests/gameplay/test_payload_sharing.py compares it with `state_text`'s); the plain
    `encode` where the C accelerator is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has it
        return _encoder.encode
    encode = make(
        None,  # no markers: no check for cycles
        _encoder.default,
        json.encoder.encode_basestring,  # ensure_ascii=False's
        None,  # no indent
        _encoder.key_separator,
        _encoder.item_separator,
        False,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan
    )
    join = "".join
    return lambda value: join(encode(value, 0))


json_text = _json_text()
_pending: set[asyncio.Future] = set()


def group_name(table_id: str, seat: int | None) -> str:
    """The channel-layer group of one seat of a table (`None`: its spectators)."""
    return f"table.{table_id}.{'spectators' if seat is None else seat}"


def state_text(payload: dict[str, Any]) -> str:
    """The JSON text of a state message, as it goes to the WebSocket."""
    return _encoder.encode(payload)


def send_states(
    table_id: str,
    seq: int,
    payloads: dict[int | None, dict[str, Any]],
    *,
    final: bool = False,
    seats_rev: int = 0,
    texts: dict[int | None, str] | None = None,
) -> None:
    """Send each receiver group its own state at `seq`. `final` marks a change that kept the
    seq (a forfeit, a table that starts), so consumers that already sent `seq` send it again.
    `seats_rev`: the seats' revision the states were made for; a consumer identified at an
    older one checks who it is again before it forwards them (someone left or resigned).
    `texts`: the payloads' JSON texts when the caller has them already (`state_messages`)."""
    layer = get_channel_layer()
    if layer is None:
        return
    messages = [
        (
            group_name(table_id, seat),
            {
                "type": STATE_EVENT,
                "seq": seq,
                "final": final,
                "seats_rev": seats_rev,
                "text": state_text(p) if texts is None else texts[seat],
            },
        )
        for seat, p in payloads.items()
    ]
    metrics.STATES_PUBLISHED.inc(len(messages))
    publish(layer, messages)


def publish(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """group_send each `(group, message)`, from any thread: in a server's worker thread the
    server's loop sends them and this thread goes on; elsewhere (a command, a task) it waits."""

    async def fan_out() -> None:
        await _publish(layer, messages)

    loop = _server_loop()
    if loop is None:
        async_to_sync(fan_out)()
        return
    # In a server's worker thread: the loop publishes, this thread goes back to its work. The
    # order of one table's changes is kept (callbacks run in order, the shard lock is FIFO);
    # a consumer that sees a gap re-reads the table anyway.
    loop.call_soon_threadsafe(_start, loop, fan_out, context=contextvars.Context())


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called into this worker thread, if any and still running: a table
    call's (`pool.run`) or a page's (asgiref's sync_to_async); `None` on the loop itself or
    outside a server (a Celery task, a command)."""
    loop = pool.serving_loop()
    if loop is None:
        local = SyncToAsync.threadlocal
        if getattr(local, "main_event_loop_pid", None) != os.getpid():
            return None
        loop = getattr(local, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    with contextlib.suppress(RuntimeError):  # no loop running in this thread
        if asyncio.get_running_loop() is loop:
            return None
    return loop


def _start(loop: asyncio.AbstractEventLoop, fan_out: Any) -> None:
    task = loop.create_task(fan_out())
    _pending.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Future) -> None:
    _pending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        exc = task.exception()
        logger.error(
            "could not publish to the channel layer", exc_info=(type(exc), exc, exc.__traceback__)
        )


async def _publish(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """group_send each message; with the Redis Pub/Sub layer, in one pipeline per shard."""
    if RedisPubSubChannelLayer is not None and isinstance(layer, RedisPubSubChannelLayer):
        loop_layer = layer._get_layer()
        shards: dict[int, tuple[Any, list[tuple[str, bytes]]]] = {}
        for group, message in messages:
            channel = loop_layer._get_group_channel_name(group)
            shard = loop_layer._get_shard(channel)
            shards.setdefault(id(shard), (shard, []))[1].append((channel, layer.serialize(message)))
        for shard, items in shards.values():
            # The shard's own lock and connection, as its publish() uses them.
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()
        return
    for group, message in messages:
        await layer.group_send(group, message)
