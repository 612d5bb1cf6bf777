"""What the home page shows of the league: events in progress, coming and just finished (with
their podium), a player's next fixture.

Read-only, a fixed number of queries each. Only published events appear: a draft is its
organizers' business and has its own pages (the events list shows them their drafts).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet

from league.models import Event, Fixture, Round, Seat
from league.services.entry_counts import with_entry_counts

# How many events of each kind the home page lists (the events page has them all).
EVENTS_SHOWN = 5


def _published_events() -> QuerySet[Event]:
    """Published events with their entry count (league.services.entry_counts), published
    rounds and the latest publication (one query however many rows)."""
    published_round = Q(round_set__status=Round.Status.PUBLISHED)
    events = Event.objects.filter(visibility=Event.Visibility.PUBLISHED).annotate(
        rounds_published=Count("round_set", filter=published_round, distinct=True),
        last_published=Max("round_set__published_at", filter=published_round),
    )
    return with_entry_counts(events)


def running_events(limit: int = EVENTS_SHOWN) -> list[Event]:
    """Published events under way (a round is out, the last not decided), liveliest first."""
    return list(
        _published_events()
        .filter(status=Event.Status.RUNNING)
        .order_by("-last_published", "-created_at", "pk")[:limit]
    )


def upcoming_events(limit: int = EVENTS_SHOWN) -> list[Event]:
    """Published events still taking entries with no round out yet, the longest-announced first
    (events have no start date: the oldest open one is the one likeliest to start next)."""
    return list(
        _published_events().filter(status=Event.Status.OPEN).order_by("created_at", "pk")[:limit]
    )


def finished_events(limit: int = EVENTS_SHOWN) -> list[Event]:
    """Published events played to their end (finished, or closed with a podium), the latest
    first: the home page names their winners (`Event.winners`)."""
    over = Q(status=Event.Status.FINISHED) | (Q(status=Event.Status.CLOSED) & ~Q(winners=[]))
    return list(
        _published_events().filter(over).order_by("-last_published", "-created_at", "pk")[:limit]
    )


def next_fixture(user: Any) -> Fixture | None:
    """The account's earliest fixture of a published round of a published event that has no
    result yet — online (`table_ref` set) or over the table — with its event and seated players
    (two queries), or None (also for an anonymous visitor)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Fixture.objects.filter(
            seats__player__user_id=user.pk,
            round__status=Round.Status.PUBLISHED,
            round__event__visibility=Event.Visibility.PUBLISHED,
        )
        .exclude(results__current=True)
        .select_related("round__event")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("round__published_at", "round_id", "number")
        .first()
    )
