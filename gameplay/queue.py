"""Gameplay's Celery tasks by name, so the services that queue them need not import them.

`gameplay.tasks` calls the services (a bot's move, the clock sweep); the services queue those
tasks through here, by name, so the imports go one way only. The tasks register under these
names when the gameplay app is ready (gameplay/apps.py), so every process knows them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from celery import Task, current_app

BOT_MOVE = "gameplay.bot_move"
SWEEP_CLOCKS = "gameplay.sweep_clocks"
EXPIRE_WAITING = "gameplay.expire_waiting"
SWEEP_SEEKS = "gameplay.sweep_seeks"
ANALYSE_TABLE = "gameplay.analyse_table"


def task(name: str) -> Task:
    """The registered task `name` (`KeyError` if gameplay.tasks was never imported)."""
    return current_app.tasks[name]


def send(name: str, *args: Any, countdown: float | None = None) -> None:
    """Queue the task for a worker (with a real broker), `countdown` seconds from now."""
    task(name).apply_async(args, countdown=countdown)


# The embedded server's own way to run a task: a coroutine on its event loop, by the same name.
_on_loop: dict[str, Callable[..., Awaitable[Any]]] = {}


def on_loop(name: str) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """Register the coroutine function that runs task `name` inside a table server."""

    def decorate(func: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        _on_loop[name] = func
        return func

    return decorate


async def run_on_loop(name: str, *args: Any) -> Any:
    """Run task `name` as the table server does (`on_loop`)."""
    return await _on_loop[name](*args)


def run_here(name: str, *args: Any) -> Any:
    """Run the task in this process and wait for it (Celery's `apply`: with
    `CELERY_TASK_EAGER_PROPAGATES`, as configured, its exception is raised here)."""
    return task(name).apply(args=args)
