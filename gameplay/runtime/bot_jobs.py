"""A bot's move as plain data, so that it can be thought about in another process.

The table server reads the table and builds a `BotJob` (the seat's view and legal list, the
finished deals a client saw, the seed of the bot's generator, its budget); `think` turns it into
an action anywhere — a Celery worker, a process of the pool beside the server, or inline — with
nothing but the bots and the engines imported (no Django), and the server applies the action
through the same write path as a person's. Everything here pickles.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from games.core.bots.registry import choose_action
from games.core.bots.search import Budget


@dataclass(frozen=True)
class BotJob:
    """One bot seat's decision at one `seq` of one table."""

    table_id: str
    seq: int
    seat: int
    game: str
    level: str
    view: dict[str, Any]
    legal: list[Any]
    rng_seed: str  # secret: derived from the table's seed, never logged
    past: list[dict[str, Any]] = field(default_factory=list)
    budget: Budget | None = None
    due: float | None = None  # when the bot's move was due (epoch seconds): its lag's start

    def __repr__(self) -> str:  # no view, no seed: a job may end up in a log line
        return f"BotJob({self.table_id}, seq={self.seq}, seat={self.seat}, {self.level})"


def think(job: BotJob) -> dict[str, Any]:
    """The job's action: the level's choice, from a generator seeded by the job alone (so the
    same job gives the same action wherever it runs, for a level bound by iterations)."""
    return choose_action(
        job.game,
        job.view,
        job.legal,
        random.Random(job.rng_seed),
        job.level,
        budget=job.budget,
        past=job.past,
    )


def warm() -> None:
    """A pool process's initializer: import every bot and engine now, not at the first move,
    and leave when the server does. A server killed without its exit handlers (SIGKILL, out of
    memory) cannot stop its pool, and the worker would wait for work forever: it holds both
    ends of its call queue's pipe, so it never sees the server's end close."""
    import games.bots  # noqa: F401

    # The server's pid as it started this process (not `getppid()` now: a pool started while
    # the server shut down may find it gone already).
    started_by = multiprocessing.parent_process()
    parent = started_by.pid if started_by is not None else os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:  # re-parented: the server is gone
                os._exit(0)

    threading.Thread(target=watch, name="bot-pool-watch", daemon=True).start()
