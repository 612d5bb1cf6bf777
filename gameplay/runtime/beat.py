"""Celery beat's schedule run by the server process itself, in the embedded mode.

With a real broker one `celery beat` sends the periodic tasks of `CELERY_BEAT_SCHEDULE` to the
workers. In the embedded mode (eager Celery: `make run` without `REDIS_URL`) there is no beat,
so the server process runs that same schedule on its event loop, from the moment it starts
serving (`runner.start_embedded_services`): every entry once at the start (what came due while
the server was stopped), then each at its interval as beat reckons it (`celery.beat.
ScheduleEntry`, on the wall clock). A run goes to a thread of the beat's own, so a slow job
delays neither the others nor the tables; at most half the database pool's connections are the
beat's (`most_at_once`: the runs of a burst wait for a thread, not for a connection the tables
need, and a run that needs a second connection never waits on the others); a job never runs
twice at once (a run still going when the next is due makes that one wait for it); a failing run
is logged and the schedule goes on. The tasks are run by name through the Celery app
(`gameplay.queue.task`), so the league's jobs run here without gameplay importing the league. An
entry's `options` (`expires`, a queue) do not apply: nothing is queued.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from celery.beat import ScheduleEntry
from channels.db import database_sync_to_async
from django.conf import settings

from gameplay import queue

logger = logging.getLogger(__name__)

# The longest the beat sleeps between two looks at the wall clock: a job comes due on time even
# when the clock jumps (a laptop waking up, NTP, a test's time machine).
LONGEST_SLEEP = 1.0
# At the server's stop: how long the runs under way may take to finish.
STOP_WAIT_SECONDS = 30.0


class Job:
    """One entry of the schedule in this process: its timing, its run under way, its counts."""

    def __init__(self, entry: ScheduleEntry, first_args: tuple[Any, ...] | None) -> None:
        self.entry = entry
        self.first_args = first_args  # the arguments of its first run here, if not its own
        self.started = False
        self.running: asyncio.Task[None] | None = None
        self.runs = 0  # finished runs, failed ones included
        self.failures = 0

    def due(self) -> tuple[bool, float]:
        """(due now, seconds until it is next due), as beat reckons it; due at the start."""
        if not self.started:
            return True, 0.0
        state = self.entry.is_due()
        return bool(state.is_due), max(float(state.next), 0.0)


class EmbeddedBeat:
    """The schedule's jobs and the loop that runs them (`run`, until `stop`)."""

    def __init__(
        self,
        schedule: Mapping[str, Mapping[str, Any]],
        *,
        first_args: Mapping[str, tuple[Any, ...]] | None = None,
    ) -> None:
        first_args = first_args or {}
        self.jobs = [
            Job(
                ScheduleEntry(name=name, app=current_app, **dict(spec)),
                first_args.get(spec["task"]),
            )
            for name, spec in schedule.items()
        ]
        # One thread per job at most (a job runs one run at a time), and no more threads than
        # the database pool can spare.
        self._executor = ThreadPoolExecutor(
            max_workers=most_at_once(len(self.jobs), pool_size()),
            thread_name_prefix="embedded-beat",
        )
        self._loop_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the schedule on the running event loop from now on."""
        if self._loop_task is None:
            logger.info(
                "no broker: this process runs the %d periodic tasks of CELERY_BEAT_SCHEDULE",
                len(self.jobs),
            )
            self._loop_task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        """Start what is due, sleep until the next job is due (at most `LONGEST_SLEEP`), again."""
        while True:
            await asyncio.sleep(self.tick())

    def tick(self) -> float:
        """Start every job that is due and not running; the seconds until the next is due."""
        wait = LONGEST_SLEEP
        for job in self.jobs:
            try:
                due, next_in = job.due()
            except Exception:  # a schedule that cannot say: the others still run
                logger.exception("scheduled task %s: when is it due?", job.entry.name)
                continue
            if due and job.running is None:
                self._start(job)
            wait = min(wait, next_in)
        return wait

    def runs(self, task: str) -> int:
        """Finished runs of the jobs of `task` in this process (failed ones included)."""
        return sum(job.runs for job in self.jobs if job.entry.task == task)

    async def stop(self) -> None:
        """Start nothing more, and let the runs under way finish (the server is stopping)."""
        if self._loop_task is not None:
            self._loop_task.cancel()
        running = [job.running for job in self.jobs if job.running is not None]
        if running:
            await asyncio.wait(running, timeout=STOP_WAIT_SECONDS)
        self._executor.shutdown(wait=False)

    def _start(self, job: Job) -> None:
        args = job.entry.args
        if not job.started and job.first_args is not None:
            args = job.first_args
        job.started = True
        job.entry.last_run_at = job.entry.default_now()
        job.running = asyncio.get_running_loop().create_task(self._run(job, tuple(args)))

    async def _run(self, job: Job, args: tuple[Any, ...]) -> None:
        # Off the loop, in a thread that knows the loop (its table updates are published there)
        # and hands its database connection back after the run.
        in_thread = database_sync_to_async(
            _run_task, thread_sensitive=False, executor=self._executor
        )
        try:
            await in_thread(job.entry.task, args, dict(job.entry.kwargs))
        except Exception:
            job.failures += 1
            logger.exception("scheduled task %s (%s) failed", job.entry.name, job.entry.task)
        finally:
            job.runs += 1
            job.running = None


def most_at_once(jobs: int, pool_size: int | None) -> int:
    """How many runs may go at once: one per job, but with a bounded connection pool
    (PostgreSQL) at most half of it, so that the tables and requests keep the rest."""
    limit = jobs if pool_size is None else min(jobs, pool_size // 2)
    return max(limit, 1)


def pool_size() -> int | None:
    """The default database's pool size, None without a pool (SQLite)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    return int(pool["max_size"]) if isinstance(pool, dict) and pool.get("max_size") else None


def _run_task(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    result = queue.task(name).apply(args=args, kwargs=kwargs)
    if result.failed():  # raised already when Celery propagates eager errors, as configured
        raise result.result
