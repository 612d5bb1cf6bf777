"""`{% event_time moment event %}`: a time on the event's clocks, labelled with its zone and
formatted for the reader's language (their profile's, else their browser's): "18:00 CET"."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.conf import settings
from django.utils import timezone, translation

from league.services.event_times import in_zone, show_time

register = template.Library()


def reader_language(request: Any) -> str:
    """The reader's language: an account's preferred one, else what the browser asks for."""
    if request is None:
        return translation.get_language() or settings.LANGUAGE_CODE
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and getattr(user, "language", ""):
        return user.language
    return translation.get_language_from_request(request)


@register.simple_tag(takes_context=True)
def event_time(context: template.Context, moment: datetime | None, event: Any) -> str:
    return show_time(moment, event.time_zone, reader_language(context.get("request")))


@register.simple_tag
def zone_label(event: Any) -> str:
    """The event's zone with its abbreviation now, e.g. "Europe/Rome (CET)"."""
    abbreviation = in_zone(timezone.now(), event.time_zone).tzname()
    if abbreviation == event.time_zone:
        return event.time_zone
    return f"{event.time_zone} ({abbreviation})"
