"""A leaner message loop for Channels' async consumers (the table socket's, on every move).

Channels' `AsyncConsumer.__call__` runs `await_many_dispatch`: for every message it makes a new
task to await the next one from that source and an `asyncio.wait` over both sources, so a
message passes four event-loop callbacks (its source's task wakes, that task's done callback,
the wait's waiter, the new task's first step) before and after its handler. Here each source
(the client's frames, the channel layer's messages) has one reader task for the connection's
whole life that hands each message straight to the handler: one callback a message.

Channels' semantics are kept: one message is handled fully before the next one of the same
connection (a lock taken by the reader that has one; the other reader waits with at most the
one message it already took, as Channels' finished task does); `StopConsumer` ends the
consumer and nothing is handled after it; any other exception of a handler or a source ends it
and propagates; the channel-layer channel is created as Channels creates it, and the readers
are cancelled and awaited at the end (the Redis Pub/Sub layer unsubscribes the channel then).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

Source = Callable[[], Awaitable[dict[str, Any]]]
Dispatch = Callable[[dict[str, Any]], Awaitable[None]]


async def dispatch_in_turn(sources: list[Source], dispatch: Dispatch) -> None:
    """Hand every message of `sources` to `dispatch`, one at a time, until one raises.

    Raises what a handler or a source raised (`StopConsumer` included); cancelled, it cancels
    the readers. The readers share one copy of the caller's context, so a context variable a
    handler sets is seen by the next handler, as in Channels' loop (one task for all of them).
    """
    turn = asyncio.Lock()
    ended = False

    async def read(source: Source) -> None:
        nonlocal ended
        try:
            while True:
                message = await source()
                async with turn:
                    if ended:  # the other reader ended the consumer while this one waited
                        return
                    await dispatch(message)
        except BaseException:
            # Set before the other reader runs again (the lock's release only schedules it).
            ended = True
            raise

    context = contextvars.copy_context()
    loop = asyncio.get_running_loop()
    readers = [loop.create_task(read(source), context=context) for source in sources]
    try:
        done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
        ended = True
        for reader in readers:
            if reader in done and not reader.cancelled() and reader.exception() is not None:
                raise reader.exception()  # type: ignore[misc]
    finally:
        ended = True
        for reader in readers:
            reader.cancel()
        for reader in readers:
            # Cancelled, or raised: what one raised is raised above (or the other's is).
            with contextlib.suppress(BaseException):
                await reader


class InTurnDispatchMixin:
    """`AsyncConsumer.__call__` with `dispatch_in_turn` instead of `await_many_dispatch`.

    For async consumers only (`_sync = False`): the rest is Channels' own `__call__`.
    """

    channel_layer_alias: str
    dispatch: Dispatch

    async def __call__(self, scope: dict[str, Any], receive: Source, send: Any) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):  # exit cleanly
            await dispatch_in_turn(sources, self.dispatch)
