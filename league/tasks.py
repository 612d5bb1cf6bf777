"""Celery tasks of the league: carry ids, and are safe to run twice.

The tasks call the services; services queue them by name through `league.queue` (never by
importing this module), so the imports only go one way.
"""

from __future__ import annotations

from celery import shared_task

from league import finished_tables, queue
from league.fairplay import judging
from league.models import Event
from league.ratings import services as ratings
from league.services import guests, notice_mail, notice_timers, schedule, web_push
from league.services.standings import refresh_standings


@shared_task(name=queue.RECOMPUTE_STANDINGS)
def recompute_standings(event_id: int) -> int:
    """Rebuild the event's standings snapshot; running it again changes nothing."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    return len(refresh_standings(event))


@shared_task(name=queue.RATE_RESULT)
def rate_result(result_id: int) -> int:
    """Rate (or, after a correction, re-rate) the fixture of this result; idempotent."""
    return ratings.rate_result(result_id)


@shared_task(name=queue.RATE_MATCHES)
def rate_matches(game: str) -> int:
    """Rate the game's pending matches in finish order; running it again rates nothing."""
    return ratings.rate_game(game)


@shared_task(name=queue.RATE_EVENT)
def rate_event(event_id: int) -> int:
    """Rate an event's results as the rule now has them (after publishing); idempotent."""
    return ratings.rate_event(event_id)


@shared_task(name=queue.FINISH_TABLE)
def finish_table(table_ref: str) -> None:
    """Count a finished table: its fixture's result, or a rated friendly match; idempotent."""
    finished_tables.finish_table(table_ref)


@shared_task(name=queue.SWEEP_RATINGS)
def sweep_ratings() -> int:
    """Count finished tables whose task was lost, then rate results whose rating task was lost
    (beat, every minute); idempotent."""
    finished_tables.sweep()
    return ratings.sweep_ratings()


@shared_task(name=queue.EMAIL_NOTICES)
def email_notices(notice_ids: list[int]) -> int:
    """Mail these notices; each is claimed once, so a retry or a second delivery sends nothing."""
    return notice_mail.email_notices(notice_ids)


@shared_task(name=queue.PUSH_NOTICES)
def push_notices(notice_ids: list[int]) -> int:
    """Push these notices to their accounts' browsers; each is claimed once."""
    return web_push.push_notices(notice_ids)


@shared_task(name=queue.NOTICE_TIMERS)
def run_notice_timers() -> dict[str, int]:
    """Release notices held in quiet hours that are over, send the due daily digests (beat,
    every minute); idempotent."""
    return notice_timers.run_timers()


@shared_task(name=queue.SWEEP_NOTICE_MAIL)
def sweep_notice_mail() -> int:
    """Mail recent notices whose task was lost (beat, every minute); idempotent."""
    return notice_mail.sweep_notice_mail()


@shared_task(name=queue.DEADLINE_REMINDERS)
def deadline_reminders() -> int:
    """Remind players whose table has no result as its deadline nears (beat); one notice per
    table and deadline, however often it runs."""
    return schedule.send_deadline_reminders()


@shared_task(name=queue.APPLY_DEADLINE_POLICIES)
def apply_deadline_policies() -> int:
    """Asynchronous events: apply the deadline policy to tables past their deadline (beat);
    each table once."""
    return schedule.apply_deadline_policies()


@shared_task(name=queue.DELETE_IDLE_GUESTS)
def delete_idle_guests() -> int:
    """Delete guests idle for GUEST_IDLE_DAYS with no table in play (beat, hourly); idempotent."""
    return guests.delete_idle_guests()


@shared_task(name=queue.JUDGE_TABLES)
def judge_tables() -> int:
    """Judge the latest finished tables of people for the collusion analytics (beat, every two
    minutes, on the bots' queue: it searches); idempotent."""
    return judging.sweep()
