"""Celery tasks of the gameplay app: bot moves, the clock sweeper and the lobby's expiry of
waiting tables (ids in, never objects).

The services queue these by name (`gameplay.queue`), never by importing this module, so the
imports go one way only.
"""

from __future__ import annotations

import os
import socket

from celery import shared_task

from gameplay import queue
from gameplay.services import analysis
from gameplay.services.bot_moves import play_bot, play_bot_beside
from gameplay.services.challenges import expire_challenges
from gameplay.services.clocks import sweep_clocks as sweep
from gameplay.services.lobby import expire_waiting
from gameplay.services.seeks import sweep as sweep_seeks_now


@shared_task(name="gameplay.ping")
def ping(token: str) -> dict[str, object]:
    """Answer with where the task ran, so a test can tell a real worker from eager mode."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}


@shared_task(name=queue.BOT_MOVE, ignore_result=True)
def bot_move(table_id: str, seq: int) -> bool:
    """Let the bot due at `seq` move; nothing if the table has moved on (run twice = once)."""
    return play_bot(table_id, seq)


# Inside a table server (embedded): read and apply there, think in the processes beside it.
queue.on_loop(queue.BOT_MOVE)(play_bot_beside)


@shared_task(name=queue.SWEEP_CLOCKS, ignore_result=True)
def sweep_clocks(bot_grace: float | None = None) -> int:
    """Apply due turn-clock timeouts (Celery beat, every second or two; the embedded server's
    sweeper, whose first sweep passes `bot_grace=0`)."""
    return sweep(bot_grace=bot_grace)


@shared_task(name=queue.EXPIRE_WAITING, ignore_result=True)
def expire_waiting_tables() -> int:
    """Cancel the lobby tables that waited longer than `LOBBY_WAITING_EXPIRY` (Celery beat,
    every minute; the lobby's list does it too, for the embedded mode without beat)."""
    return expire_waiting()


@shared_task(name=queue.SWEEP_SEEKS, ignore_result=True)
def sweep_seeks() -> int:
    """Quick pairing's clock (Celery beat, every two seconds; the embedded server too): seat the
    seekers whose bot wait has passed, expire old seeks and challenges."""
    return sweep_seeks_now() + expire_challenges()


@shared_task(name=queue.ANALYSE_TABLE, ignore_result=True)
def analyse_table(table_id: str) -> bool:
    """A finished table's game analysis (on the bots queue): nothing if it is not queued."""
    return analysis.run(table_id)
