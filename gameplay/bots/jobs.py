"""A bot's move as plain data, so that it can be thought about in another process.

The table server reads the table and builds a `BotJob` (the seat's view and legal list, the
finished deals a client saw, the seed of the bot's generator, its budget); `think` turns it into
an action anywhere — a Celery worker, a process of the pool beside the server, or inline — with
nothing but the bots and the engines imported (no Django), and the server applies the action
through the same write path as a person's. Everything here pickles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from gameplay.bots.registry import choose_action
from gameplay.bots.search import Budget


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
    """Import every bot and engine now (a pool process's initializer), not at the first move."""
    import gameplay.bots  # noqa: F401
