"""Celery tasks of the gameplay app: bot moves and the clock sweeper (ids in, never objects)."""

from __future__ import annotations

import os
import socket

from celery import shared_task


@shared_task(name="gameplay.ping")
def ping(token: str) -> dict[str, object]:
    """Answer with where the task ran, so a test can tell a real worker from eager mode."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}


@shared_task(name="gameplay.bot_move", ignore_result=True)
def bot_move(table_id: str, seq: int) -> bool:
    """Let the bot due at `seq` move; nothing if the table has moved on (run twice = once)."""
    from gameplay.services.tables import play_bot

    return play_bot(table_id, seq)


@shared_task(name="gameplay.sweep_clocks", ignore_result=True)
def sweep_clocks() -> int:
    """Apply due turn-clock timeouts (Celery beat, every second or two)."""
    from gameplay.services.tables import sweep_clocks as sweep

    return sweep()
