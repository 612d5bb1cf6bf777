"""Celery tasks of the league: carry ids, and are safe to run twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="league.recompute_standings")
def recompute_standings(event_id: int) -> int:
    """Rebuild the event's standings snapshot; running it again changes nothing."""
    from league.models import Event
    from league.services.standings import refresh_standings

    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    return len(refresh_standings(event))
