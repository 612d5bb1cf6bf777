"""The threads that run the table server's service calls off its event loop (`in_pool`).

A lighter hop than asgiref's `sync_to_async(thread_sensitive=False)`, which a move paid for
every service call: one queue the threads take their calls from, one event-loop future per
call, the outcome handed back with `call_soon_threadsafe`. No `concurrent.futures.Future`, no
`asyncio.shield`, no copying of context variables back to the caller (a service call says what
it has to say in its return value). Each call runs in a copy of the caller's context, so a
context variable it sets does not outlive it, and its thread records the loop it works for,
which `notify` hands its publish to (`serving_loop`).

The threads are as many as asyncio's default executor has (the pool `sync_to_async` used), are
started at the first call of a process (again in a forked child), and finish the calls they
have when the process exits.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

SIZE = min(32, (os.cpu_count() or 1) + 4)  # as asyncio's default executor
EXIT_WAIT_SECONDS = 30.0  # at exit, how long the threads may take to finish their calls

_local = threading.local()
_lock = threading.Lock()
_jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
_threads: list[threading.Thread] = []


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread runs a call for, when it is one of the pool's threads."""
    return getattr(_local, "loop", None)


async def run(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`func(*args, **kwargs)` in a pool thread; its result, or what it raised.

    Cancelled before a thread takes it, the call does not run; cancelled while it runs, it
    finishes and its outcome is dropped (as with `sync_to_async`).
    """
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    if not _threads:
        _start()
    _jobs.put((loop, future, contextvars.copy_context(), func, args, kwargs))
    return await future


def _start() -> None:
    with _lock:
        while len(_threads) < SIZE:
            thread = threading.Thread(
                target=_work, args=(_jobs,), name=f"table-pool-{len(_threads)}", daemon=True
            )
            thread.start()
            _threads.append(thread)


def _work(jobs: queue.SimpleQueue[Any]) -> None:
    while True:
        job = jobs.get()
        if job is None:
            return
        loop, future, context, func, args, kwargs = job
        job = None
        if future.cancelled():  # a plain read: at worst the call runs and its outcome is dropped
            continue
        _local.loop = loop
        try:
            outcome = (True, context.run(func, *args, **kwargs))
        except BaseException as exc:  # handed to the caller, as an executor would
            outcome = (False, exc)
        with contextlib.suppress(RuntimeError):  # the loop was closed: nobody waits any more
            loop.call_soon_threadsafe(_resolve, future, outcome)
        loop = future = context = func = args = kwargs = outcome = None  # nothing kept idle


def _resolve(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.cancelled():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    elif isinstance(value, StopIteration):  # a future cannot hold one
        future.set_exception(RuntimeError(f"the call raised {value!r}"))
    else:
        future.set_exception(value)


def _stop() -> None:
    """At exit: let each thread finish the call it has (a move being committed), then end."""
    with _lock:
        threads = list(_threads)
        for _ in threads:
            _jobs.put(None)
    deadline = time.monotonic() + EXIT_WAIT_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with _lock:
        _threads.clear()  # a call after this starts new threads


def _forget_threads() -> None:
    """In a forked child: the parent's threads are not there; start new ones when needed."""
    global _jobs, _lock
    _jobs = queue.SimpleQueue()
    _lock = threading.Lock()
    _threads.clear()


atexit.register(_stop)
os.register_at_fork(after_in_child=_forget_threads)
