"""The rules every way into an event shares: an organizer's entry, an import, a sign-up, a move
up from the waiting list. No authorization here: each caller has authorized its account (an
organizer's `check_can_manage`, a player acting for themselves) before it comes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.guests import is_guest_name
from league import scheduling
from league.errors import LeagueError
from league.models import Entry, Event, Player
from league.services import players
from league.services.permissions import check_can_organize
from league.services.standings import touch_standings


def check_format(name: str) -> scheduling.Format:
    """The registered format called `name` (league/scheduling/formats/): an event's rules
    between rounds. An unknown one (or one no longer registered) is a clear refusal, not a 500."""
    try:
        return scheduling.get_format(name)
    except scheduling.SchedulingError as exc:
        raise LeagueError(str(exc)) from None


def require_open(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise LeagueError(_("this event is closed"))


def finished_problem(event: Event) -> str | None:
    """A finished event takes nobody in: every round is played (more rounds reopen it)."""
    if event.status == Event.Status.FINISHED:
        return _("this event is finished: every round has been played")
    return None


def late_entry_problem(event: Event) -> str | None:
    """Why the event takes no new entrant now (its format takes none once round 1 is planned),
    or None. The formats registry says which formats take late entries."""
    if check_format(event.format).late_entries or not event.round_set.exists():
        return None
    return _("a %(format)s event takes no entries once its first round is planned") % {
        "format": event.format_name
    }


def takes_entries(event: Event) -> bool:
    """Whether anyone may still come in: not over, and the format takes them at this point."""
    return not event.is_over and late_entry_problem(event) is None


def check_may_enter_existing(user: Any) -> None:
    """Entering a player who exists already (with their rating history) needs the role (or
    open organizing, whose events the ratings never trust)."""
    check_can_organize(
        user, _("entering a player who exists already needs the organizer role (staff grant it)")
    )


def check_may_play_in(event: Event, player: Player, *, bot_accounts: bool | None = None) -> None:
    """Refuse a player who may not enter this event: a built-in bot (bots fill seats by
    themselves), a deleted account's player, a bot account where the event allows none
    (`bot_accounts`: the event's rule, when the caller has read it already), a guest (whose
    name says so: accounts.guests)."""
    if player.is_builtin_bot:
        raise LeagueError(_("Built-in bots fill seats by themselves; they cannot enter."))
    if is_guest_name(player.name):  # a guest's player (or one a deleted guest left behind)
        raise LeagueError(
            _("%(name)s plays as a guest: guests cannot enter events. Sign up first.")
            % {"name": player.name}
        )
    if player.deleted_at is not None:
        raise LeagueError(
            _("%(name)s's account was deleted: the player keeps its results but plays no more.")
            % {"name": player.name}
        )
    if bot_accounts is None and player.is_bot_account:
        bot_accounts = locked_allows_bot_accounts(event)
    if player.is_bot_account and not bot_accounts:
        raise LeagueError(
            _("%(name)s is a bot account, and this event does not allow bot accounts.")
            % {"name": player.name}
        )


def locked_allows_bot_accounts(event: Event) -> bool:
    """The event's rule as stored, its row locked: an organizer switching bot accounts off and
    a bot account entering at the same moment happen one after the other."""
    rows = Event.objects.select_for_update().filter(pk=event.pk)
    return bool(rows.values_list("allow_bot_accounts", flat=True).get())


def create_entry(event: Event, player: Player, *, checked_in: bool, email: str = "") -> Entry:
    """The entry itself, once the caller has authorized whoever asked; inside its transaction."""
    require_open(event)
    check_may_play_in(event, player)
    problem = finished_problem(event) or late_entry_problem(event)
    if problem:
        raise LeagueError(problem)
    entry, created = Entry.objects.get_or_create(
        event=event,
        player=player,
        defaults={"checked_in": checked_in, "email": email if player.user_id is None else ""},
    )
    if not created:
        raise LeagueError(_("%(name)s has already entered") % {"name": player.name})
    players.stamp_rating_at_entry(entry)
    touch_standings(event.pk)
    return entry


def create_entries(
    event: Event, entrants: Sequence[tuple[Player, str]], *, checked_in: bool
) -> list[Entry]:
    """`create_entry` for many players at once (an import): each (player, e-mail) entered with
    the same rules, in the caller's transaction, in a fixed number of queries whatever their
    number; the standings are touched once. A player entered already refuses them all."""
    require_open(event)
    problem = late_entry_problem(event)
    if problem:
        raise LeagueError(problem)
    bot_accounts = None
    if any(player.is_bot_account for player, _email in entrants):
        bot_accounts = locked_allows_bot_accounts(event)
    for player, _email in entrants:
        check_may_play_in(event, player, bot_accounts=bot_accounts)
    ratings = players.ratings_at_entry(event.game, [player.pk for player, _email in entrants])
    rows = [
        Entry(
            event=event,
            player=player,
            checked_in=checked_in,
            email=email if player.user_id is None else "",
            rating_at_entry=ratings.get(player.pk),
        )
        for player, email in entrants
    ]
    try:
        with transaction.atomic():  # a savepoint: one of them may have entered meanwhile
            entries = Entry.objects.bulk_create(rows)
    except IntegrityError:
        raise LeagueError(_("Someone on the list has entered meanwhile: try again.")) from None
    touch_standings(event.pk)
    return entries
