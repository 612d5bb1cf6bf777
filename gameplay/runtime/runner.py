"""Where bot moves and clock sweeps run: Celery at scale, the server process when embedded.

With a real broker a bot move is a Celery task with a countdown, and Celery beat runs the clock
sweeper (and every other periodic task); bot moves go to their own queue, `bots`
(`CELERY_TASK_ROUTES`), so that a burst of searching does not delay the clock sweeps or the
standings. Eager Celery (the embedded mode) ignores countdowns and runs tasks inline, so inside a
server process a bot move is read and applied on its event loop and thought in the process pool
beside it (`runtime.thinkers`), and the server runs beat's schedule itself (`runtime.beat`:
clocks, reminders, deadline policies, sweeps) from the moment it starts serving;
outside one (management commands, tests) bot moves run inline, one after the other (a queue, not
recursion: a bots-only match is hundreds of moves). Either way it runs the gameplay tasks by
name (`gameplay.queue`), never importing the services they call.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import weakref
from collections import deque

from django.conf import settings

from gameplay import queue
from gameplay.runtime.beat import EmbeddedBeat

logger = logging.getLogger(__name__)

_local = threading.local()
_server_loop: asyncio.AbstractEventLoop | None = None
_beats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, EmbeddedBeat] = (
    weakref.WeakKeyDictionary()
)
_bot_tasks: set[asyncio.Task] = set()
_in_flight: set[tuple[str, int]] = set()  # bot moves this process's loop is reading or thinking


def bot_delay() -> float:
    """Seconds a bot waits before moving (so people can follow the play)."""
    return float(getattr(settings, "GAMEPLAY_BOT_DELAY", 0.8))


def _eager() -> bool:
    return bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def schedule_bot(table_id: str, seq: int) -> None:
    """Queue the move of the bot due at `seq` (called after commit)."""
    delay = bot_delay()
    if not _eager():
        queue.send(queue.BOT_MOVE, table_id, seq, countdown=delay)
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        # A fresh context: the caller's (a sync_to_async thread) would make asgiref believe
        # the bot's database call is nested inside it and refuse it as a deadlock.
        loop.call_soon_threadsafe(
            _call_later, loop, delay, table_id, seq, context=contextvars.Context()
        )
        return
    _run_inline(table_id, seq)


def _call_later(loop: asyncio.AbstractEventLoop, delay: float, table_id: str, seq: int) -> None:
    key = (table_id, seq)
    if key in _in_flight:
        return  # the sweeper re-queued a move this process is still thinking about
    _in_flight.add(key)
    task = loop.create_task(_bot_on_loop(table_id, seq, delay), context=contextvars.Context())
    _bot_tasks.add(task)  # a reference, or it may be collected
    task.add_done_callback(_bot_tasks.discard)
    task.add_done_callback(lambda _: _in_flight.discard(key))


async def settle_bot_moves(timeout: float = 30.0) -> None:
    """Wait until the bot moves this loop has under way are done (tests, before they close
    their database connections: a move applied after that would open one again)."""
    loop = asyncio.get_running_loop()
    pending = [t for t in _bot_tasks if t.get_loop() is loop and not t.done()]
    if pending:
        await asyncio.wait(pending, timeout=timeout)


async def _bot_on_loop(table_id: str, seq: int, delay: float) -> None:
    try:
        await queue.run_on_loop(queue.BOT_MOVE, table_id, seq, delay)
    except Exception:
        logger.exception("bot move at table %s seq %s failed", table_id, seq)


def _run_inline(table_id: str, seq: int) -> None:
    pending: deque[tuple[str, int]] = _local.__dict__.setdefault("pending", deque())
    pending.append((table_id, seq))
    if getattr(_local, "draining", False):
        return  # the outer call below runs it
    _local.draining = True
    try:
        while pending:
            queue.run_here(queue.BOT_MOVE, *pending.popleft())
    finally:
        _local.draining = False
        pending.clear()


def start_embedded_services() -> None:
    """In the embedded mode, make this event loop run bot moves and beat's schedule.

    Called when the server starts serving (`config.asgi`: uvicorn's lifespan start, Daphne's
    reactor start), and again by every request and table connection (a server that announces
    neither); once per loop. Does nothing with a real Celery broker, where workers and beat do
    this work, and starts no schedule with `GAMEPLAY_EMBEDDED_SWEEPER` off (tests).
    """
    global _server_loop
    if not _eager():
        return
    loop = asyncio.get_running_loop()
    _server_loop = loop
    if loop in _beats or not getattr(settings, "GAMEPLAY_EMBEDDED_SWEEPER", True):
        return
    # The first clock sweep of this process re-queues every overdue bot at once: bots that were
    # due when the previous process stopped are queued nowhere (eager Celery ran them on that
    # process's loop), so they are queued again now, not GAMEPLAY_BOT_REQUEUE_AFTER later.
    beat = EmbeddedBeat(settings.CELERY_BEAT_SCHEDULE, first_args={queue.SWEEP_CLOCKS: (0.0,)})
    _beats[loop] = beat
    beat.start()


def embedded_beat() -> EmbeddedBeat | None:
    """The schedule this event loop runs, if it runs one."""
    return _beats.get(asyncio.get_running_loop())


async def stop_embedded_services() -> None:
    """The server is stopping: run nothing more of the schedule, let the runs under way end."""
    beat = _beats.pop(asyncio.get_running_loop(), None)
    if beat is not None:
        await beat.stop()
