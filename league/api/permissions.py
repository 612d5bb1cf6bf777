"""Who may call what: reading follows the event's visibility, writing needs its organizers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from league.models import Result
from league.services.permissions import can_manage, can_organize


class ManagesEventToWrite(BasePermission):
    """Anyone may read (the view 404s what they may not see); only managers may write.

    An anonymous writer gets 401 (DRF asks for credentials), a logged-in outsider 403 — on a
    draft event too, as the organizer pages do.
    """

    message = _("only this event's organizers may do that")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        return can_manage(request.user, view.event)


class OrganizesToCreate(BasePermission):
    """Anyone may list events; creating one needs the organizer role (401 anonymous, 403 else).
    The service (`create_event`) checks the role again."""

    message = _("creating an event needs the organizer role (staff grant it)")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return can_organize(request.user)


def record_is_public(result: Result | None) -> bool:
    """A game record shows every hidden card, so it is public only once the match is over.

    Over means: the counting result carries a record that is complete, or the match ended by
    forfeit (a forfeit may stop a record mid-deal; nobody plays on at that table).
    """
    if result is None or not has_record(result):
        return False
    return bool(result.scored.get("complete")) or bool(result.forfeited_seats)


def has_record(result: Result) -> bool:
    """Whether the result carries a game record, without loading it when the list annotated it."""
    annotated = getattr(result, "has_record", None)
    return annotated if annotated is not None else result.record is not None
