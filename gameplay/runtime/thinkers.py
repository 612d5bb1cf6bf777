"""The processes beside a table server where its bots think (the embedded mode).

A thread would not do: a search is pure Python and would hold the server's interpreter lock
for its whole budget, delaying every move and clock at the server's tables. The pool's
processes are spawned (not forked from a server with threads and sockets), import only the bots
and the engines, and live as long as the server; `GAMEPLAY_BOT_PROCESSES` sets how many
(default 1). With a real Celery broker bots think in the workers of the `bots` queue instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from gameplay.runtime.bot_jobs import BotJob, think, warm

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def size() -> int:
    return max(1, int(getattr(settings, "GAMEPLAY_BOT_PROCESSES", 1)))


def pool() -> ProcessPoolExecutor:
    """The process pool, started at its first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=size(),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm,
            )
        return _pool


def _discard(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


async def think_beside(job: BotJob) -> dict[str, Any]:
    """The job's action, thought in a pool process. A pool whose process died (killed, out of
    memory) is replaced and the job tried once more there."""
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        executor = pool()
        try:
            return await loop.run_in_executor(executor, think, job)
        except BrokenProcessPool:
            logger.warning("bot process pool broke (attempt %s) for %r", attempt, job)
            _discard(executor)
    raise RuntimeError(f"no bot process could think {job!r}")


def shutdown() -> None:
    """Stop the pool's processes (tests; the server's exit does it by itself)."""
    global _pool
    with _lock:
        executor, _pool = _pool, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
