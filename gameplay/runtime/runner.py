"""Where bot moves and clock sweeps run: Celery at scale, the server process when embedded.

With a real broker a bot move is a Celery task with a countdown, and Celery beat runs the clock
sweeper; bot moves go to their own queue, `bots` (`CELERY_TASK_ROUTES`), so that a burst of
searching does not delay the clock sweeps or the standings. Eager Celery (the embedded mode)
ignores countdowns and runs tasks inline, so inside a server process a bot move is read and
applied on its event loop and thought in the process pool beside it (`runtime.thinkers`), and
a background task sweeps the clocks;
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

from channels.db import database_sync_to_async
from django.conf import settings

from gameplay import queue

logger = logging.getLogger(__name__)

_local = threading.local()
_server_loop: asyncio.AbstractEventLoop | None = None
_sweeping: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_tasks: set[asyncio.Task] = set()
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
    """In the embedded mode, make this event loop run bot moves and sweep clocks.

    Called by the table consumer on connect (there is no other hook into the server's loop);
    does nothing with a real Celery broker, where workers and beat do this work.
    """
    global _server_loop
    if not _eager():
        return
    loop = asyncio.get_running_loop()
    _server_loop = loop
    if loop in _sweeping or not getattr(settings, "GAMEPLAY_EMBEDDED_SWEEPER", True):
        return
    _sweeping.add(loop)
    _tasks.add(loop.create_task(_sweep_forever()))  # a reference, or it may be collected


async def _sweep_forever() -> None:
    interval = float(getattr(settings, "GAMEPLAY_CLOCK_SWEEP_SECONDS", 1.0))
    # First sweep of this process: bots that were due when the previous process stopped are
    # queued nowhere (eager Celery ran them on that process's loop), so re-queue every overdue
    # bot now instead of after GAMEPLAY_BOT_REQUEUE_AFTER.
    bot_grace: float | None = 0.0
    while True:
        await asyncio.sleep(interval)
        try:
            await database_sync_to_async(queue.run_here)(queue.SWEEP_CLOCKS, bot_grace)
        except Exception:
            logger.exception("clock sweep failed")
        bot_grace = None
