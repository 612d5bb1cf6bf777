"""Co-organizers: accounts an event's organizers add to run it with them, with the same rights.

They are `Event.organizers` like the owner (`Event.owner`, who created the event), so every
check (`can_manage`) treats them alike; the owner cannot be removed. Whether the event counts
for the ratings follows the owner's role alone (league.ratings.services.rated_events).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts import names
from league.errors import LeagueError
from league.models import Event, Player
from league.services.permissions import check_can_manage


def account_named(name: str) -> Any:
    """The active account called `name`: its user name or its player's name, in any case
    (NFC, as names are kept: accounts.names)."""
    name = names.tidy(name)
    if not name:
        raise LeagueError(_("give the account's name (its user name or player name)"))
    User = get_user_model()
    by_player = Player.objects.filter(name__iexact=name, user__isnull=False).values("user_id")
    account = (
        User.objects.filter(Q(username__iexact=name) | Q(pk__in=by_player), is_active=True)
        .order_by("pk")
        .first()
    )
    if account is None:
        raise LeagueError(_("no account is called %(name)s") % {"name": name})
    return account


def display_name(user: Any) -> str:
    """How an organizer is shown: their player's name (public), else their user name."""
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()


def organizers(event: Event) -> list[Any]:
    """The event's organizers, the owner first, then by the order they were added."""
    through = Event.organizers.through.objects.filter(event=event).select_related("user__player")
    people = [row.user for row in through.order_by("pk")]
    return sorted(people, key=lambda user: user.pk != event.owner_id)


@transaction.atomic
def add_co_organizer(event: Event, name: str, *, by: Any) -> Any:
    """Make the account called `name` an organizer of the event; returns the account."""
    check_can_manage(by, event)
    account = account_named(name)
    if event.organizers.filter(pk=account.pk).exists():
        raise LeagueError(
            _("%(name)s organizes this event already") % {"name": display_name(account)}
        )
    event.organizers.add(account)
    return account


@transaction.atomic
def remove_co_organizer(event: Event, user_id: int, *, by: Any) -> None:
    """Take a co-organizer off the event (one may also leave it); never its owner."""
    check_can_manage(by, event)
    if user_id == event.owner_id:
        raise LeagueError(_("the event's owner stays its organizer"))
    if not event.organizers.filter(pk=user_id).exists():
        raise LeagueError(_("that account does not organize this event"))
    event.organizers.remove(user_id)
