"""Queue the league's Celery tasks once the transaction commits, by task name.

Services schedule side effects here instead of importing `league.tasks`: the tasks call the
services, so importing them back would make a cycle. Each function carries ids, not objects
(the task reads the committed rows), and looks its task up by name in the Celery app when the
transaction commits — so eager mode (tests, the embedded mode) still runs it inline through
`delay`, which `send_task` would not. `league.tasks` registers the tasks under these names; it
is imported when the league app is ready (league/apps.py), so every process knows them.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.db import transaction

RECOMPUTE_STANDINGS = "league.recompute_standings"
RATE_RESULT = "league.rate_result"
RATE_MATCHES = "league.rate_matches"
RATE_EVENT = "league.rate_event"
SWEEP_RATINGS = "league.sweep_ratings"
EMAIL_NOTICES = "league.email_notices"
SWEEP_NOTICE_MAIL = "league.sweep_notice_mail"
DEADLINE_REMINDERS = "league.deadline_reminders"
APPLY_DEADLINE_POLICIES = "league.apply_deadline_policies"


def on_commit(name: str, *args: Any, robust: bool = False) -> None:
    """Send the task `name` with `args` after the current transaction commits (at once outside
    one). `robust`: a broker that is down is logged, not raised — for changes that are committed
    by then and have another way to catch up (a sweep, or readers that recompute)."""
    transaction.on_commit(lambda: current_app.tasks[name].delay(*args), robust=robust)


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


def rate_matches(game: str) -> None:
    """Rate the game's pending matches (a friendly table just finished)."""
    on_commit(RATE_MATCHES, game)


def email_notices(notice_ids: list[int]) -> None:
    """Mail these new notices (each is claimed once). Robust: `sweep_notice_mail` (beat) mails
    what a lost task left behind."""
    on_commit(EMAIL_NOTICES, list(notice_ids), robust=True)
