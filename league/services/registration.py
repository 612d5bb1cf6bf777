"""Registration: players sign themselves up, wait for a place, withdraw, and check themselves in.

The organizer opens sign-up (`configure`: open or not, a capacity, a deadline) and may make an
invitation link (`new_invitation`): an unguessable token, stored only as its SHA-256, that lets
its holder sign up even while the event is a draft or closed to public sign-up (the capacity and
the deadline still apply); a new link replaces the old one. Sign-up past the capacity puts the
player on the waiting list (league.services.waiting_list), which moves up as places free.

Before each round the organizer may open a self check-in window (`open_check_in`): every
entrant is checked out, checks in from the event's page, and whoever has not when the organizer
closes it (`close_check_in`) is left out of the round — the round plans checked-in players only,
so a format that plans from its entrants (every one we have) simply goes on without them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import Entry, Event, Player, Round, WaitingPlace
from league.services import entering, entry_counts, events, waiting_list
from league.services.permissions import check_can_manage
from league.services.players import player_for_user


def token_hash(token: str) -> str:
    return hashlib.sha256((token or "").encode()).hexdigest()


def invitation_matches(event: Event, token: str | None) -> bool:
    """Whether `token` is the event's current invitation (compared in constant time)."""
    if not token or not event.invitation_hash:
        return False
    return hmac.compare_digest(event.invitation_hash, token_hash(token))


# --- the organizer's side ---------------------------------------------------------------------


@transaction.atomic
def configure(
    event: Event,
    *,
    by: Any,
    signup_open: bool,
    capacity: int | None,
    signup_deadline: datetime | None,
) -> Event:
    """Set the event's sign-up rules; a larger capacity moves the waiting list up."""
    check_can_manage(by, event)
    entering.require_open(event)
    if capacity is not None and capacity < 1:
        raise LeagueError(_("a capacity is at least 1 (leave it blank for no limit)"))
    if signup_deadline is not None and timezone.is_naive(signup_deadline):
        raise LeagueError(_("the deadline needs a time zone"))
    Event.objects.filter(pk=event.pk).update(
        signup_open=signup_open, capacity=capacity, signup_deadline=signup_deadline
    )
    event.refresh_from_db()
    waiting_list.move_up(event)
    return event


@transaction.atomic
def new_invitation(event: Event, *, by: Any) -> str:
    """A new invitation link's token (shown once to the organizer); the old link stops working."""
    check_can_manage(by, event)
    entering.require_open(event)
    token = secrets.token_urlsafe(32)
    Event.objects.filter(pk=event.pk).update(invitation_hash=token_hash(token))
    event.invitation_hash = token_hash(token)
    return token


@transaction.atomic
def drop_invitation(event: Event, *, by: Any) -> None:
    """The invitation link stops working."""
    check_can_manage(by, event)
    Event.objects.filter(pk=event.pk).update(invitation_hash="")
    event.invitation_hash = ""


@transaction.atomic
def open_check_in(event: Event, *, by: Any) -> int:
    """Open self check-in for the next round: every entrant is checked out until they check in
    again. Returns how many were checked out."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    entering.require_open(event)
    if event.check_in_open:
        raise LeagueError(_("self check-in is open already"))
    draft = event.round_set.filter(status=Round.Status.DRAFT).values_list("number", flat=True)
    if draft:
        raise LeagueError(
            _("round %(number)s is a draft: publish or discard it before opening check-in")
            % {"number": draft[0]}
        )
    Event.objects.filter(pk=event.pk).update(check_in_open=True)
    return Entry.objects.filter(
        event=event, withdrawn_after_round__isnull=True, checked_in=True
    ).update(checked_in=False)


@transaction.atomic
def close_check_in(event: Event, *, by: Any) -> int:
    """Close self check-in: the next round plans whoever is checked in. Returns how many are."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.check_in_open:
        raise LeagueError(_("self check-in is not open"))
    Event.objects.filter(pk=event.pk).update(check_in_open=False)
    return Entry.objects.filter(
        event=event, withdrawn_after_round__isnull=True, checked_in=True
    ).count()


# --- the player's side ------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where one account stands with one event's registration (for its page and the API)."""

    entry: Entry | None
    waiting_position: int | None
    can_sign_up: bool
    problem: str | None  # why not, for a player who is neither entered nor waiting
    entered: int  # entrants taking a place (the capacity counts these)
    entrants: int  # the event's entries as every page counts them (entry_counts)
    waiting: int  # on the waiting list
    full: bool  # a sign-up now lands on the waiting list
    check_in_open: bool


def _account_player(user: Any) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def has_place(event: Event, user: Any) -> bool:
    """Whether the account's player has entered the event or waits for a place in it."""
    player = _account_player(user)
    if player is None:
        return False
    entered = Entry.objects.filter(event=event, player=player).exists()
    return entered or WaitingPlace.objects.filter(event=event, player=player).exists()


def signup_problem(event: Event, user: Any, token: str | None = None) -> str | None:
    """Why this account may not sign up now (None: it may). Anyone may read it."""
    public = event.visibility == Event.Visibility.PUBLISHED and event.signup_open
    if not public and not invitation_matches(event, token):
        return _("this event is not open for sign-up")
    if event.status == Event.Status.CLOSED:
        return _("this event is closed")
    if problem := entering.finished_problem(event):
        return problem
    if event.signup_deadline is not None and timezone.now() >= event.signup_deadline:
        return _("sign-up closed at its deadline")
    problem = entering.late_entry_problem(event)
    if problem:
        return problem
    if not getattr(user, "is_authenticated", False):
        return _("log in (or sign up for an account) to enter")
    return None


def standing(event: Event, user: Any, token: str | None = None) -> Standing:
    """The account's entry or waiting place, whether it may sign up, and the counts (a few
    queries, whatever the numbers)."""
    entry = position = None
    if getattr(user, "is_authenticated", False):
        entry = Entry.objects.filter(event=event, player__user=user).first()
        if entry is None:
            position = waiting_list.position_of_account(event, user)
    # One query for both counts: places taken (waiting_list.entered_count) and entries.
    counts = Entry.objects.filter(event=event).aggregate(
        entered=Count("pk", filter=Q(withdrawn_after_round__isnull=True)),
        entrants=Count("pk", filter=entry_counts.counted()),
    )
    entered = counts["entered"]
    n_waiting = WaitingPlace.objects.filter(event=event).count()
    problem = None
    if entry is None and position is None:
        problem = signup_problem(event, user, token)
    full = event.capacity is not None and (entered >= event.capacity or n_waiting > 0)
    return Standing(
        entry=entry,
        waiting_position=position,
        can_sign_up=entry is None and position is None and problem is None,
        problem=problem,
        entered=entered,
        entrants=counts["entrants"],
        waiting=n_waiting,
        full=full,
        check_in_open=event.check_in_open,
    )


@dataclass(frozen=True)
class SignedUp:
    """The outcome of a sign-up: an entry, or a place on the waiting list."""

    entry: Entry | None
    waiting_position: int | None


@transaction.atomic
def sign_up(event: Event, user: Any, *, token: str | None = None) -> SignedUp:
    """Sign the account's player up: an entry while places are free, else the waiting list.

    Authorization is the account itself (logged in, acting for its own player) and the event's
    openness: published and open for sign-up, or the holder of its invitation link."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise PermissionDenied(_("log in to sign up"))
    event = Event.objects.select_for_update().get(pk=event.pk)  # one sign-up at a time
    problem = signup_problem(event, user, token)
    if problem:
        raise LeagueError(problem)
    player = player_for_user(user)
    if Entry.objects.filter(event=event, player=player).exists():
        entry = Entry.objects.get(event=event, player=player)
        if entry.withdrawn:
            raise LeagueError(_("you withdrew from this event: ask its organizers to undo it"))
        raise LeagueError(_("you have entered this event already"))
    if WaitingPlace.objects.filter(event=event, player=player).exists():
        raise LeagueError(_("you are on the waiting list already"))
    entering.check_may_play_in(event, player)
    free = waiting_list.free_places(event)
    queue_first = WaitingPlace.objects.filter(event=event).exists()
    if free is not None and (free <= 0 or queue_first):
        waiting_list.join(event, player)
        return SignedUp(entry=None, waiting_position=waiting_list.position(event, player))
    entry = entering.create_entry(event, player, checked_in=not event.check_in_open)
    return SignedUp(entry=entry, waiting_position=None)


@transaction.atomic
def leave(event: Event, user: Any) -> str:
    """The account's player leaves: off the waiting list, or withdrawn from the event (its
    results stay; the place goes to the waiting list). Returns "waiting" or "withdrawn"."""
    player = _account_player(user)
    if player is None:
        raise PermissionDenied(_("log in to withdraw"))
    if waiting_list.leave(event, player):
        return "waiting"
    entry = Entry.objects.filter(event=event, player=player).select_related("event").first()
    if entry is None:
        raise LeagueError(_("you have not entered this event"))
    events.withdraw_entry(entry)
    return "withdrawn"


@transaction.atomic
def check_in_self(event: Event, user: Any, checked_in: bool = True) -> Entry:
    """The account's player checks in (or out) for the next round, while the window is open."""
    player = _account_player(user)
    if player is None:
        raise PermissionDenied(_("log in to check in"))
    event = Event.objects.select_for_update().get(pk=event.pk)
    entry = Entry.objects.filter(event=event, player=player).select_related("player").first()
    if entry is None:
        raise LeagueError(_("you have not entered this event"))
    if not event.check_in_open:
        raise LeagueError(_("check-in is not open: the organizers open it before a round"))
    entry.event = event
    events.set_checked_in(entry, checked_in)
    entry.checked_in = checked_in
    return entry
