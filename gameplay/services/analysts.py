"""The embedded mode's analysis worker: where a queued game analysis runs without a broker.

Eager Celery would run the job on the thread that queued it — a web request's. Instead one
thread beside the server takes the jobs in order (reading and writing the database there), and
the evaluation itself, pure Python that would hold the interpreter lock for seconds, runs in
one spawned process of its own: the server's moves and clocks, and the bots' own process pool
(`thinkers`), are not kept waiting by it. With a real broker the job is a task of the `bots`
queue instead (`gameplay.analyse_table`).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.db import connection

from gameplay.runtime.bot_jobs import warm
from games import analysis as evaluator

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: ThreadPoolExecutor | None = None
_process: ProcessPoolExecutor | None = None
_running: set[Future[None]] = set()


def _pool() -> ProcessPoolExecutor:
    global _process
    with _lock:
        if _process is None:
            _process = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=warm
            )
        return _process


def _discard(broken: ProcessPoolExecutor) -> None:
    global _process
    with _lock:
        if _process is broken:
            _process = None
    broken.shutdown(wait=False, cancel_futures=True)


Job = Callable[[str], "dict[str, Any] | None"]
Store = Callable[[str, "dict[str, Any] | None"], None]


def _work(table_id: str, job: Job, store: Store) -> None:
    try:
        work = job(table_id)
        if work is None:
            return
        result = None
        for _attempt in (1, 2):
            executor = _pool()
            try:
                result = executor.submit(evaluator.analyse_job, work).result()
                break
            except BrokenProcessPool:
                _discard(executor)
            except Exception:
                logger.exception("analysis of table %s failed", table_id)
                break
        store(table_id, result)
    except Exception:
        logger.exception("analysis job of table %s failed", table_id)
    finally:
        connection.close()


def run_beside(table_id: str, job: Job, store: Store) -> None:
    """Run the table's analysis beside the server and return at once: `job` (on the thread)
    claims it and reads what to evaluate, the process evaluates, `store` keeps the result. A
    server that stops first loses it: the row goes stale and may be asked for again."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
        future = _thread.submit(_work, table_id, job, store)
        _running.add(future)
    future.add_done_callback(_running.discard)


def shutdown() -> None:
    """Stop the worker process (tests)."""
    global _process
    with _lock:
        executor, _process = _process, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
