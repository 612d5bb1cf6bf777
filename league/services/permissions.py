"""Who may organize, who may run an event, and whose events the ratings trust.

- The **organizer role** is the permission `league.organize_events` ("Can organize events"),
  granted by staff (the admin, or `manage.py grant_organizer NAME`); staff and superusers hold
  it implicitly. Creating an event and entering a player who exists already need it: those are
  the two steps that reach somebody else's rating.
- **Managing** an event (settings, entries, rounds, results) is for its organizers
  (`Event.organizers`) and staff. An organizer keeps managing the events they organize even
  after losing the role; those events just stop counting for the ratings.

- **Open organizing** (`LEAGUE_OPEN_ORGANIZING`, default off) lets every active account
  organize: `can_organize` says yes to all of them, while `organizer_role_holders` — what the
  ratings trust — stays the role. An event whose owner lacks the role is then never rated
  (`league.ratings.services.rated_events`, the one predicate).
- **Co-organizers** (league.services.organizers) are organizers of one event with the owner's
  rights there; the owner (`Event.owner`, who created it) cannot be removed.

`has_organizer_role` (one account) and `organizer_role_holders` (the same rule as a queryset)
decide the role; `can_organize` adds the setting; `can_manage` decides one event.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.guests import is_guest
from league.models import Event

ORGANIZE_EVENTS = "league.organize_events"


def open_organizing() -> bool:
    """Whether every account may organize (`LEAGUE_OPEN_ORGANIZING`); their events are rated
    only if their owner holds the role."""
    return bool(getattr(settings, "LEAGUE_OPEN_ORGANIZING", False))


def has_organizer_role(user: Any) -> bool:
    """Whether the account holds the organizer role (staff and superusers always do)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff or user.has_perm(ORGANIZE_EVENTS))


def can_organize(user: Any) -> bool:
    """Whether the account may create events and enter existing players: the role, or any
    active account while organizing is open."""
    if is_guest(user):  # a guest signs up first (accounts/guests.py)
        return False
    if open_organizing() and getattr(user, "is_authenticated", False) and user.is_active:
        return True
    return has_organizer_role(user)


def organizer_role() -> Permission:
    """The organizer role's permission row (made by `migrate`), for granting it."""
    app_label, codename = ORGANIZE_EVENTS.split(".")
    return Permission.objects.get(codename=codename, content_type__app_label=app_label)


def organizer_role_holders() -> QuerySet:
    """Every account `has_organizer_role` says yes to, as one queryset (no row per permission);
    the open-organizing setting never widens it.

    Django's `has_perm` is the model backend's: active accounts, superusers, and the permission
    given to the account itself or to one of its groups.
    """
    User = get_user_model()
    app_label, codename = ORGANIZE_EVENTS.split(".")
    role = Permission.objects.filter(codename=codename, content_type__app_label=app_label)
    direct = User.user_permissions.through.objects.filter(user=OuterRef("pk"), permission__in=role)
    via_group = User.groups.through.objects.filter(user=OuterRef("pk"), group__permissions__in=role)
    return User.objects.filter(is_active=True).filter(
        Q(is_staff=True) | Q(is_superuser=True) | Exists(direct) | Exists(via_group)
    )


def trusted_events() -> QuerySet[Event]:
    """The events whose word the league takes: published, and owned by an account holding the
    role (the owner's, not a co-organizer's). Their matches are rated
    (`league.ratings.services.rated_events`) and their organizers may invite someone to claim
    a player who has a result there (`league.services.claims`)."""
    return Event.objects.filter(
        visibility=Event.Visibility.PUBLISHED, owner__in=organizer_role_holders()
    )


def check_can_organize(user: Any, what: str | None = None) -> None:
    """Refuse (PermissionDenied) an account without the organizer role."""
    if not can_organize(user):
        raise PermissionDenied(
            what or _("only organizers may do that: staff grant the organizer role")
        )


def can_manage(user: Any, event: Event) -> bool:
    """Staff and the event's organizers (its owner and co-organizers) may change an event;
    nobody else."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_staff or event.owner_id == user.pk:
        return True
    return event.organizers.filter(pk=user.pk).exists()


def check_can_manage(user: Any, event: Event) -> None:
    """Refuse (PermissionDenied) anyone who may not change this event: the first line of every
    organizer service, whoever calls it (a page, the API, a command)."""
    if not can_manage(user, event):
        raise PermissionDenied(_("only this event's organizers may do that"))


def can_see(user: Any, event: Event) -> bool:
    """A draft event is visible to its organizers only."""
    return event.visibility == Event.Visibility.PUBLISHED or can_manage(user, event)
