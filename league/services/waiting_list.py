"""The waiting list of an event with a capacity: who signed up once it was full, in order.

The capacity limits sign-up only: an organizer may enter players beyond it. A place comes free
when an entrant withdraws or is removed, or the organizer raises the capacity; the first on the
list then moves up (`move_up`) — as long as the event takes entries at all (open, and its format
takes late entries once round 1 is planned) — and gets a "moved_up" notice. No authorization
here: callers authorize the account that acts (an organizer, or a player withdrawing).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import Entry, Event, Player, WaitingPlace
from league.services import entering
from league.services.notifications import notify


def entered_count(event: Event) -> int:
    """Entrants who take a place: everyone entered and not withdrawn."""
    return Entry.objects.filter(event=event, withdrawn_after_round__isnull=True).count()


def free_places(event: Event) -> int | None:
    """Places sign-up may still fill (never below 0); None: the event has no capacity."""
    if event.capacity is None:
        return None
    return max(0, event.capacity - entered_count(event))


def position(event: Event, player: Player) -> int | None:
    """The player's place on the waiting list (1: next to move up), or None."""
    return _position(WaitingPlace.objects.filter(event=event, player=player).first())


def position_of_account(event: Event, user: object) -> int | None:
    """`position` of the account's player (two queries)."""
    return _position(WaitingPlace.objects.filter(event=event, player__user=user).first())


def _position(place: WaitingPlace | None) -> int | None:
    if place is None:
        return None
    earlier = Q(created_at__lt=place.created_at) | Q(created_at=place.created_at, pk__lt=place.pk)
    return WaitingPlace.objects.filter(earlier, event_id=place.event_id).count() + 1


def waiting(event: Event) -> list[WaitingPlace]:
    """The waiting list, first first, with its players."""
    return list(
        WaitingPlace.objects.filter(event=event)
        .select_related("player__user")
        .order_by("created_at", "pk")
    )


def join(event: Event, player: Player) -> WaitingPlace:
    """Put the player at the end of the list (inside the sign-up's transaction)."""
    place, created = WaitingPlace.objects.get_or_create(event=event, player=player)
    if not created:
        raise LeagueError(_("%(name)s is on the waiting list already") % {"name": player.name})
    return place


def leave(event: Event, player: Player) -> bool:
    """Take the player off the list; whether they were on it."""
    deleted, _kinds = WaitingPlace.objects.filter(event=event, player=player).delete()
    return bool(deleted)


@transaction.atomic
def move_up(event: Event) -> list[Entry]:
    """Enter the first players of the list while places are free; returns their entries.

    A player who may no longer enter (their account was deleted; a bot account, now that the
    event refuses them) loses their place instead. Each one moved up gets one notice.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.capacity is None or not entering.takes_entries(event):
        return []
    moved: list[Entry] = []
    free = free_places(event) or 0
    for place in waiting(event):
        if free <= 0:
            break
        player = place.player
        place.delete()
        try:
            with transaction.atomic():  # a refusal undoes this player's entry only
                entry = entering.create_entry(event, player, checked_in=not event.check_in_open)
        except LeagueError:
            continue
        moved.append(entry)
        free -= 1
        if player.user is not None:
            notify(
                [player.user],
                "moved_up",
                key=f"moved_up:event:{event.pk}",
                event=event,
                url=event.get_absolute_url(),
            )
    return moved
