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


@shared_task(name="league.rate_result")
def rate_result(result_id: int) -> int:
    """Rate (or, after a correction, re-rate) the fixture of this result; idempotent."""
    from league.ratings.services import rate_result as rate

    return rate(result_id)


@shared_task(name="league.rate_matches")
def rate_matches(game: str) -> int:
    """Rate the game's pending matches in finish order; running it again rates nothing."""
    from league.ratings.services import rate_game

    return rate_game(game)


@shared_task(name="league.rate_event")
def rate_event(event_id: int) -> int:
    """Rate an event's results as the rule now has them (after publishing); idempotent."""
    from league.ratings.services import rate_event as rate

    return rate(event_id)


@shared_task(name="league.sweep_ratings")
def sweep_ratings() -> int:
    """Rate results whose rating task was lost (beat, every minute); idempotent."""
    from league.ratings.services import sweep_ratings as sweep

    return sweep()
