"""Who may run an event."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from league.models import Event


def can_manage(user: Any, event: Event) -> bool:
    """Staff and the event's organizers may change an event; nobody else."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or event.organizers.filter(pk=user.pk).exists())


def require_manager(user: Any, event: Event) -> None:
    if not can_manage(user, event):
        raise PermissionDenied("only this event's organizers may do that")


def can_see(user: Any, event: Event) -> bool:
    """A draft event is visible to its organizers only."""
    return event.visibility == Event.Visibility.PUBLISHED or can_manage(user, event)
