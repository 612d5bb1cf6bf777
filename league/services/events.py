"""Creating and running events, and entering players.

Every function here that changes an event takes the acting account (`by`) and authorizes it
first (`check_can_manage`, league/services/permissions.py), whoever calls it.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from league import queue, scheduling
from league.errors import LeagueError
from league.models import Entry, Event, Fixture, Player
from league.services import players
from league.services.permissions import check_can_manage, check_can_organize
from league.services.standings import touch_standings
from league.standings import validate_tiebreaks

DEFAULT_TIEBREAKS = ["total_payouts", "wins", "opponents_average_payout", "head_to_head", "lot"]


def check_tiebreaks(names: list[str]) -> list[str]:
    validate_tiebreaks(names)  # raises StandingsError, a LeagueError
    return list(names)


def check_format(name: str) -> scheduling.Format:
    """The registered format called `name` (league/scheduling/formats/): an event's rules
    between rounds. An unknown one (or one no longer registered) is a clear refusal, not a 500."""
    try:
        return scheduling.get_format(name)
    except scheduling.SchedulingError as exc:
        raise LeagueError(str(exc)) from None


def check_event_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """Validate game, variant and numbers; returns the fields with the full variant."""
    game = fields.get("game")
    try:
        info = gameplay.game(game)
    except KeyError:
        raise LeagueError(f"unknown game {game!r}") from None
    try:
        fields["variant"] = gameplay.validate_variant(game, fields.get("variant") or {})
    except gameplay.VariantError as exc:
        raise LeagueError(str(exc)) from None
    if "format" in fields:
        check_format(fields["format"])
    if int(fields.get("rounds", 1)) < 1:
        raise LeagueError("an event needs at least one round")
    if int(fields.get("deals_per_match", 1)) < 1:
        raise LeagueError("a match needs at least one deal")
    fields["tiebreaks"] = check_tiebreaks(fields.get("tiebreaks") or DEFAULT_TIEBREAKS)
    fields["table_size"] = info.seats
    return fields


# Paths under /events/ that are pages, not events: an event with such a slug is unreachable.
RESERVED_SLUGS = {"new"}


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "event"
    if base in RESERVED_SLUGS:
        base = f"{base}-event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_event(organizer: Any, **fields: Any) -> Event:
    """A new draft event organized by `organizer`, who needs the organizer role.

    Without a `seed` the event draws a random one: its round plans and lot stay repeatable, but
    nobody can work them out in advance. (Deals never come from it: every table has its own
    secret seed.)
    """
    check_can_organize(organizer, _("creating an event needs the organizer role (staff grant it)"))
    fields = check_event_fields(fields)
    if fields.get("seed") is None:
        fields["seed"] = secrets.randbits(62)
    fields.pop("table_size")
    fields.setdefault("slug", unique_slug(fields["name"]))
    event = Event.objects.create(**fields)
    event.organizers.add(organizer)
    return event


@transaction.atomic
def update_event(event: Event, *, by: Any, **fields: Any) -> Event:
    """Change an event's settings; the game and variant are fixed once a round exists."""
    check_can_manage(by, event)
    require_open(event)
    existing = event.round_set.count()
    if existing:
        for locked in ("game", "variant", "deals_per_match", "format", "seed"):
            if locked in fields and fields[locked] != getattr(event, locked):
                raise LeagueError(f"{locked.replace('_', ' ')} cannot change once rounds exist")
        if int(fields.get("rounds", event.rounds)) < existing:
            raise LeagueError(f"{existing} rounds exist already; the event cannot have fewer")
    merged = {
        "game": event.game,
        "variant": event.variant,
        "rounds": event.rounds,
        "deals_per_match": event.deals_per_match,
        "tiebreaks": event.tiebreaks,
        **fields,
    }
    merged = check_event_fields(merged)
    merged.pop("table_size")
    check_bot_accounts_may_stay(event, merged.get("allow_bot_accounts", event.allow_bot_accounts))
    for name, value in merged.items():
        setattr(event, name, value)
    event.save()
    touch_standings(event.pk)
    return event


@transaction.atomic
def publish_event(event: Event, *, by: Any) -> None:
    """Show the event to everyone. Results entered while it was a draft count for the ratings
    from now on (rated in the order they were entered, among the game's other matches)."""
    check_can_manage(by, event)
    published = (
        Event.objects.filter(pk=event.pk)
        .exclude(visibility=Event.Visibility.PUBLISHED)
        .update(visibility=Event.Visibility.PUBLISHED)
    )
    if published:
        queue.rate_event(event.pk)


@transaction.atomic
def close_event(event: Event, *, by: Any) -> None:
    """No more rounds or results (corrections too) once closed: refused while a round is a
    draft or a published table has no result (an online match there would be thrown away)."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CLOSED:
        return
    draft = event.round_set.filter(status="draft").values_list("number", flat=True).first()
    if draft is not None:
        raise LeagueError(f"round {draft} is a draft: publish or discard it before closing")
    waiting = Fixture.objects.filter(round__event=event, round__status="published").exclude(
        results__current=True
    )
    if waiting.exists():
        tables = ", ".join(
            f"round {r} table {t}"
            for r, t in waiting.order_by("round__number", "number").values_list(
                "round__number", "number"
            )[:10]
        )
        raise LeagueError(f"these tables have no result yet: {tables}")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)


def require_open(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise LeagueError("this event is closed")


# --- entries ----------------------------------------------------------------------------------


def check_may_enter_existing(user: Any) -> None:
    """Entering a player who exists already (with their rating history) needs the role."""
    check_can_organize(
        user, _("entering a player who exists already needs the organizer role (staff grant it)")
    )


@transaction.atomic
def add_entry(event: Event, player: Player, *, by: Any, checked_in: bool = False) -> Entry:
    """Enter a player who exists already: the event's manager, holding the organizer role."""
    check_can_manage(by, event)
    check_may_enter_existing(by)
    return _enter(event, player, checked_in=checked_in)


@transaction.atomic
def enter_player(
    event: Event,
    *,
    by: Any,
    name: str | None = None,
    player_id: int | None = None,
    checked_in: bool = False,
) -> Entry:
    """Find the player (by id, or by name: a new name makes a new player), then enter them.

    The organizer form and the API. A new name needs only the right to manage the event; an
    existing player also needs the organizer role (`add_entry`). One transaction: a refused
    entry leaves no new player behind.
    """
    check_can_manage(by, event)
    if player_id is not None:
        check_may_enter_existing(by)  # before the lookup: no probing which ids exist
        player = players.player_by_id(player_id)
    else:
        player, created = players.player_named(name)
        if not created:
            check_may_enter_existing(by)
    return _enter(event, player, checked_in=checked_in)


def _enter(event: Event, player: Player, *, checked_in: bool) -> Entry:
    """The entry itself, for the two services above (which have authorized the caller)."""
    require_open(event)
    check_may_play_in(event, player)
    if not check_format(event.format).late_entries and event.round_set.exists():
        raise LeagueError(
            _("a %(format)s takes no entries once its first round is planned")
            % {"format": event.format}
        )
    entry, created = Entry.objects.get_or_create(
        event=event, player=player, defaults={"checked_in": checked_in}
    )
    if not created:
        raise LeagueError(f"{player.name} has already entered")
    players.stamp_rating_at_entry(entry)
    touch_standings(event.pk)
    return entry


def check_may_play_in(event: Event, player: Player) -> None:
    """Refuse a player who may not enter this event: a built-in bot (bots fill seats by
    themselves), a deleted account's player, a bot account where the event allows none."""
    if player.is_builtin_bot:
        raise LeagueError(_("Built-in bots fill seats by themselves; they cannot enter."))
    if player.deleted_at is not None:
        raise LeagueError(
            _("%(name)s's account was deleted: the player keeps its results but plays no more.")
            % {"name": player.name}
        )
    if player.is_bot_account and not locked_allows_bot_accounts(event):
        raise LeagueError(
            _("%(name)s is a bot account, and this event does not allow bot accounts.")
            % {"name": player.name}
        )


def locked_allows_bot_accounts(event: Event) -> bool:
    """The event's rule as stored, its row locked: an organizer switching bot accounts off and
    a bot account entering at the same moment happen one after the other."""
    rows = Event.objects.select_for_update().filter(pk=event.pk)
    return bool(rows.values_list("allow_bot_accounts", flat=True).get())


def check_bot_accounts_may_stay(event: Event, allow_bot_accounts: bool) -> None:
    """An event may stop allowing bot accounts only while none is entered (and not withdrawn)."""
    if allow_bot_accounts or not event.pk or not locked_allows_bot_accounts(event):
        return
    entered = (
        Entry.objects.filter(
            event=event, player__is_bot=True, player__bot_level="", withdrawn_after_round=None
        )
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    names = list(entered[:10])
    if names:
        raise LeagueError(
            _(
                "Bot accounts have entered this event (%(names)s): withdraw them before "
                "refusing bot accounts."
            )
            % {"names": ", ".join(names)}
        )


def check_in(entry: Entry, checked_in: bool = True, *, by: Any) -> None:
    check_can_manage(by, entry.event)
    require_open(entry.event)
    if entry.withdrawn and checked_in:
        raise LeagueError(f"{entry.player.name} has withdrawn: later rounds skip them")
    Entry.objects.filter(pk=entry.pk).update(checked_in=checked_in)


def withdraw(entry: Entry, *, by: Any) -> None:
    """Later rounds skip the player; results already in are kept."""
    check_can_manage(by, entry.event)
    require_open(entry.event)
    if entry.withdrawn:
        raise LeagueError(f"{entry.player.name} has already withdrawn")
    last = (
        entry.event.round_set.filter(status="published")
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    Entry.objects.filter(pk=entry.pk).update(withdrawn_after_round=last or 0)
