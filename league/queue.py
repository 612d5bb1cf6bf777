"""Queue the league's Celery tasks once the transaction commits, by task name.

Services schedule side effects here instead of importing `league.tasks`: the tasks call the
services, so importing them back would make a cycle. Each function carries ids, not objects
(the task reads the committed rows), and looks its task up by name in the Celery app when the
transaction commits — so eager mode (tests, the embedded mode) still runs it inline through
`delay`, which `send_task` would not; but work that must not delay a move (the end of a match)
runs on a thread beside the server then (`run_beside`). `league.tasks` registers the tasks
under these names; it is imported when the league app is ready (league/apps.py), so every
process knows them.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)

RECOMPUTE_STANDINGS = "league.recompute_standings"
RATE_RESULT = "league.rate_result"
RATE_MATCHES = "league.rate_matches"
RATE_EVENT = "league.rate_event"
SWEEP_RATINGS = "league.sweep_ratings"
EMAIL_NOTICES = "league.email_notices"
SWEEP_NOTICE_MAIL = "league.sweep_notice_mail"
DEADLINE_REMINDERS = "league.deadline_reminders"
APPLY_DEADLINE_POLICIES = "league.apply_deadline_policies"
FINISH_TABLE = "league.finish_table"
DELETE_IDLE_GUESTS = "league.delete_idle_guests"
PUSH_NOTICES = "league.push_notices"
NOTICE_TIMERS = "league.notice_timers"
JUDGE_TABLES = "league.judge_tables"


def on_commit(name: str, *args: Any, robust: bool = False, beside: bool = False) -> None:
    """Send the task `name` with `args` after the current transaction commits (at once outside
    one). `robust`: a broker that is down is logged, not raised — for changes that are committed
    by then and have another way to catch up (a sweep, or readers that recompute). `beside`:
    never run it on the caller's thread, even when Celery is eager (`run_beside`)."""
    transaction.on_commit(lambda: _send(name, args, beside), robust=robust)


def _send(name: str, args: tuple[Any, ...], beside: bool) -> None:
    if beside and current_app.conf.task_always_eager and settings.LEAGUE_EMBEDDED_BESIDE:
        run_beside(name, *args)
    else:
        current_app.tasks[name].delay(*args)


# The embedded mode's worker: eager Celery would run a task inline, on the caller's thread (a
# move's); one thread beside the server runs them instead, one at a time, in order.
_beside: ThreadPoolExecutor | None = None
_beside_lock = threading.Lock()
_running: set[Future[None]] = set()


def run_beside(name: str, *args: Any) -> None:
    """Run the task `name` on the league's thread beside the server and return at once. A
    process that dies first loses it: its sweep makes it up."""
    global _beside
    with _beside_lock:
        if _beside is None:
            _beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="league-beside")
        future = _beside.submit(_run, name, args)
        _running.add(future)
    future.add_done_callback(_running.discard)


def _run(name: str, args: tuple[Any, ...]) -> None:
    try:
        current_app.tasks[name].apply(args=args)
    except Exception:
        logger.exception("league task %s%r failed", name, args)
    finally:
        connection.close()  # this thread's own: not kept open between tasks


def settle(timeout: float = 30.0) -> None:
    """Wait until the tasks sent beside the server are done (tests, before they look)."""
    with _beside_lock:
        running = list(_running)
    wait(running, timeout=timeout)


def recompute_standings(event_id: int) -> None:
    """Rebuild the event's standings snapshot. Robust: pages recompute a snapshot that is
    behind, so nothing is lost without the task."""
    on_commit(RECOMPUTE_STANDINGS, event_id, robust=True)


def rate_result(result_id: int) -> None:
    """Rate (or re-rate) the fixture of this new result version. Robust: `sweep_ratings` (beat)
    rates whatever a lost task left behind."""
    on_commit(RATE_RESULT, result_id, robust=True)


def rate_event(event_id: int) -> None:
    """Bring an event's matches in line with the rule of which events count (after publishing).
    Robust, as `rate_result`."""
    on_commit(RATE_EVENT, event_id, robust=True)


def finish_table(table_ref: str) -> None:
    """Count a finished table (its fixture's result or a rated friendly match), off the move's
    path: a worker's job, or in the embedded mode the thread beside the server. Robust:
    `sweep_ratings` (beat) counts a table whose task was lost."""
    on_commit(FINISH_TABLE, table_ref, robust=True, beside=True)


def rate_matches(game: str) -> None:
    """Rate the game's pending matches (a friendly table just finished)."""
    on_commit(RATE_MATCHES, game)


def email_notices(notice_ids: list[int]) -> None:
    """Mail these new notices (each is claimed once). Robust: `sweep_notice_mail` (beat) mails
    what a lost task left behind."""
    on_commit(EMAIL_NOTICES, list(notice_ids), robust=True)


def push_notices(notice_ids: list[int]) -> None:
    """Push these new notices to their accounts' browsers: a worker's job, or in the embedded
    mode the thread beside the server (a push service's answer never delays a move). Robust: a
    push lost with a broker that is down is lost; the bell and the mail still tell."""
    on_commit(PUSH_NOTICES, list(notice_ids), robust=True, beside=True)
