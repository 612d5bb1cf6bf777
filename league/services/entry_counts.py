"""How many entries an event has, as every page and the API say it: its entrants — everyone
entered but those who withdrew before they played (listed apart and never ranked,
`standings.ranked_entrants`). One rule: as a filter on entries, an annotation of a list of
events (one subquery, however many events) and a count.

The capacity counts something else, the places taken (`waiting_list.entered_count`: a player
who withdraws frees one); before the first round the two are the same.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from league.models import Entry, Event
from league.services.standings import entrant_entries


def counted() -> Q:
    """The entries that count (a filter on Entry): all but the withdrawn who never played."""
    return entrant_entries()


def with_entry_counts(events: QuerySet[Event], name: str = "n_entries") -> QuerySet[Event]:
    """The events, each annotated with its number of entries under `name`."""
    per_event = (
        Entry.objects.filter(counted(), event=OuterRef("pk"))
        .order_by()
        .values("event")
        .annotate(n=Count("pk"))
        .values("n")
    )
    count = Coalesce(Subquery(per_event, output_field=IntegerField()), Value(0))
    return events.annotate(**{name: count})


def entry_count(event: Event) -> int:
    """One event's number of entries (one query)."""
    return Entry.objects.filter(counted(), event=event).count()
