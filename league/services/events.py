"""Creating, running and deleting events; entering, withdrawing and removing players.

Every function here that changes an event takes the acting account (`by`) and authorizes it
first (`check_can_manage`, league/services/permissions.py), whoever calls it. The rules every
way into an event shares (an entry, an import, a sign-up) are in `league.services.entering`;
a place an entrant gives up goes to the waiting list (`league.services.waiting_list`).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from games import catalogue
from league import queue
from league.errors import LeagueError
from league.models import Entry, Event, Player
from league.scheduling.errors import SchedulingError
from league.scheduling.formats import formats as registered_formats
from league.scheduling.formats import get_format
from league.services import actions, event_end, players, waiting_list
from league.services.actions import has_played
from league.services.entering import (
    check_format,
    check_may_enter_existing,
    check_may_play_in,
    create_entry,
    locked_allows_bot_accounts,
    require_open,
)
from league.services.event_times import check_schedule_fields
from league.services.permissions import check_can_manage, check_can_organize
from league.services.standings import touch_standings
from league.standings import validate_tiebreaks

# Re-exported: callers found these here before `entering` and `actions` existed.
__all__ = [
    "check_format",
    "check_may_play_in",
    "has_played",
    "locked_allows_bot_accounts",
    "require_open",
]

DEFAULT_TIEBREAKS = ["total_payouts", "wins", "opponents_average_payout", "head_to_head", "lot"]


# Bounds on an event's size: a season of weekly rounds fits, a typo (1000 rounds of 1000 deals)
# does not. The event form and the API reach them through `check_event_fields` (and the form
# shows the same problems beside its fields: `size_problems`).
MAX_ROUNDS = 50
MAX_DEALS_IN_ALL = 1000  # rounds times deals per match: the deals one player may be asked to play


def max_deals_per_match() -> int:
    """The most deals of one match: the most one table plays (gameplay's bound)."""
    return gameplay.max_deals()


def size_problems(rounds: Any, deals: Any) -> list[tuple[str, str]]:
    """(field, message) for each bound the event's rounds and deals per match break."""
    try:
        rounds, deals = int(rounds), int(deals)
    except (TypeError, ValueError):
        return [("rounds", _("rounds and deals per match must be whole numbers"))]
    most_deals = max_deals_per_match()
    problems = []
    if rounds < 1:
        problems.append(("rounds", _("an event needs at least one round")))
    elif rounds > MAX_ROUNDS:
        problems.append(("rounds", _("at most %(n)s rounds") % {"n": MAX_ROUNDS}))
    if deals < 1:
        problems.append(("deals_per_match", _("a match needs at least one deal")))
    elif deals > most_deals:
        problems.append(("deals_per_match", _("at most %(n)s deals per match") % {"n": most_deals}))
    if not problems and rounds * deals > MAX_DEALS_IN_ALL:
        problems.append(
            (
                "deals_per_match",
                _(
                    "%(rounds)s rounds of %(deals)s deals are %(all)s deals for each player; "
                    "at most %(most)s: fewer rounds or fewer deals"
                )
                % {
                    "rounds": rounds,
                    "deals": deals,
                    "all": rounds * deals,
                    "most": MAX_DEALS_IN_ALL,
                },
            )
        )
    return problems


def check_tiebreaks(names: list[str]) -> list[str]:
    validate_tiebreaks(names)  # raises StandingsError, a LeagueError
    return list(names)


# An event table's clock: up to a day a move (a database integer, and a live table's pace;
# play by the day has its own paces).
MAX_SECONDS_PER_MOVE = 24 * 60 * 60
# A bye's match points: what beating every opponent at a table of four gives, at most.
MAX_BYE_MATCH_POINTS = 3


def check_event_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """Validate name, game, variant and numbers; returns the fields with the name tidied
    (`players.typed_name`) and the full variant."""
    if "name" in fields:
        fields["name"] = players.typed_name(fields["name"])
    game = fields.get("game")
    try:
        info = catalogue.game(game)
    except KeyError:
        raise LeagueError(f"unknown game {game!r}") from None
    try:
        fields["variant"] = catalogue.validate_variant(game, fields.get("variant") or {})
    except catalogue.VariantError as exc:
        raise LeagueError(str(exc)) from None
    if "format" in fields:
        check_format(fields["format"])
    for _field, message in size_problems(fields.get("rounds", 1), fields.get("deals_per_match", 1)):
        raise LeagueError(message)
    if "bot_level" in fields:
        check_bot_level(game, fields["bot_level"])
    bye = fields.get("bye_match_points", 0)
    if not isinstance(bye, int) or not 0 <= bye <= MAX_BYE_MATCH_POINTS:
        raise LeagueError(
            _("a bye gives 0 to %(max)s match points") % {"max": MAX_BYE_MATCH_POINTS}
        )
    pace = fields.get("pace") or ""
    if pace:
        # A pace names the clock (a turn-based one: days a move, beyond the seconds' bound).
        seconds = gameplay.pace_seconds(pace)
        if seconds is None:
            names = ", ".join(name for name, _label in gameplay.pace_choices())
            raise LeagueError(_("the pace is one of %(names)s") % {"names": names})
        fields["seconds_per_move"] = seconds
    seconds = fields.get("seconds_per_move", 0)
    if not pace and (not isinstance(seconds, int) or not 0 <= seconds <= MAX_SECONDS_PER_MOVE):
        raise LeagueError(
            _("the clock per move is 0 (no clock) to %(max)s seconds")
            % {"max": MAX_SECONDS_PER_MOVE}
        )
    leftover = fields.get("leftover", Event.Leftover.BYE)
    if leftover not in Event.Leftover.values:
        choices = ", ".join(Event.Leftover.values)
        raise LeagueError(_("the leftover rule is one of %(names)s") % {"names": choices})
    for _field, message in scoring_problems(fields) + table_problems(fields):
        raise LeagueError(message)
    fields["tiebreaks"] = check_tiebreaks(fields.get("tiebreaks") or DEFAULT_TIEBREAKS)
    check_schedule_fields(fields)  # time zone, asynchronous play, deadline policy
    fields["table_size"] = info.seats
    return fields


def bot_level_problem(game: str, level: Any) -> str | None:
    """Why `level` cannot be the event's bot level in `game` (None: it can); the event form
    shows it beside its field."""
    levels = gameplay.bot_levels(game)
    if level in levels:
        return None
    return _("the bot level is one of %(names)s") % {"names": ", ".join(levels)}


def check_bot_level(game: str, level: Any) -> None:
    if problem := bot_level_problem(game, level):
        raise LeagueError(problem)


def duplicate_formats() -> list[str]:
    """The formats an event may be scored in duplicate in (`Format.supports_duplicate`)."""
    return [fmt.name for fmt in registered_formats() if fmt.supports_duplicate]


def table_problems(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each rule tables of three and four (leftover "mixed") break: a
    game played at a table of four, a format that seats them, deals per match in threes (a
    four plays 4/3 as many: whole rotations at both sizes), and no duplicate scoring."""
    if fields.get("leftover") != Event.Leftover.MIXED:
        return []
    try:
        info = catalogue.game(fields.get("game"))
    except KeyError:
        return []  # an unknown game is refused by its own check
    problems = []
    if info.seats != 3 or 4 not in info.table_sizes:
        problems.append(
            (
                "leftover",
                _("%(game)s is not played at tables of three and four; choose byes or bots")
                % {"game": info.display_name},
            )
        )
    else:
        try:
            why = gameplay.table_size_problem(info.name, fields.get("variant") or {}, 4)
        except catalogue.VariantError:
            why = None  # a bad variant is refused by its own check
        if why:  # 3-5-8's Woburn bidding
            problems.append(("leftover", why))
    try:
        fmt = get_format(fields.get("format") or Event._meta.get_field("format").default)
    except SchedulingError:
        fmt = None  # check_format refuses it
    if fmt is not None and not fmt.mixed_tables:
        problems.append(
            (
                "leftover",
                _(
                    "%(format)s does not seat tables of three and four: one player goes on "
                    "from each table, and coming out of a table of four is harder; choose "
                    "byes or bots"
                )
                % {"format": _(fmt.title)},
            )
        )
    deals = fields.get("deals_per_match", 3)
    if isinstance(deals, int) and deals % 3:
        problems.append(
            (
                "deals_per_match",
                _(
                    "with tables of three and four, deals per match come in threes (3, 6, "
                    "9, …): a table of four plays 4/3 as many, so that everybody plays the "
                    "same number and both sizes play whole rotations"
                ),
            )
        )
    if fields.get("scoring") == Event.Scoring.DUPLICATE:
        problems.append(
            (
                "scoring",
                _(
                    "duplicate scoring compares tables that play the same deals; a table of "
                    "four plays other deals than a table of three, so tables of three and "
                    "four are scored by match points"
                ),
            )
        )
    return problems


def scoring_problems(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each reason the event's scoring cannot be what `fields` ask.

    Duplicate scoring needs a format that scores every table against the field (not a
    knockout, which advances on each table's own result) and a variant gameplay can play in
    duplicate (`gameplay.api.duplicate_problem`: a match of a fixed length, dealer by seat).
    `fields["variant"]` is the full, validated variant. The event form shows these beside its
    fields; `check_event_fields` raises the first."""
    scoring = fields.get("scoring", Event.Scoring.MATCH)
    if scoring not in Event.Scoring.values:
        choices = ", ".join(Event.Scoring.values)
        return [("scoring", _("scoring is one of %(names)s") % {"names": choices})]
    rank = fields.get("duplicate_rank", Event.DuplicateRank.TOTAL)
    if rank not in Event.DuplicateRank.values:
        choices = ", ".join(Event.DuplicateRank.values)
        return [("duplicate_rank", _("duplicate standings rank by %(names)s") % {"names": choices})]
    if scoring != Event.Scoring.DUPLICATE:
        return []
    problems = []
    format_name = fields.get("format") or Event._meta.get_field("format").default
    try:
        fmt = get_format(format_name)
    except SchedulingError:
        fmt = None  # check_format refuses it
    if fmt is not None and not fmt.supports_duplicate:
        titles = ", ".join(_(get_format(name).title) for name in duplicate_formats())
        problems.append(
            (
                "scoring",
                _("%(format)s events cannot be scored in duplicate; only %(formats)s events can")
                % {"format": _(fmt.title), "formats": titles},
            )
        )
    try:
        why = gameplay.duplicate_problem(fields["game"], fields.get("variant") or {})
    except catalogue.VariantError:
        why = None  # a bad variant is refused by its own check, with its own message
    if why:
        problems.append(("scoring", str(why)))
    return problems


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
    """A new draft event owned and organized by `organizer`, who needs the organizer role (or
    open organizing: `can_organize`).

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
    event = Event.objects.create(owner=organizer, **fields)
    event.organizers.add(organizer)
    return event


# Settings a planned round has used (its tables, deals and variant, the draw, the level of its
# bots: a draft's bot seats hold bots of it; its scoring: its sections): fixed once one
# exists, so every bot of the event plays at one level. `rounds` may still grow, never below
# the rounds that exist.
LOCKED_ONCE_PLANNED = (
    "game",
    "variant",
    "deals_per_match",
    "format",
    "bot_level",
    "seed",
    "scoring",  # a duplicate round has sections and shared deals; a match-points one has not
)


@transaction.atomic
def update_event(event: Event, *, by: Any, **fields: Any) -> Event:
    """Change an event's settings; what a round already used is fixed once one exists
    (`LOCKED_ONCE_PLANNED`: the event form shows those fields disabled, and says why)."""
    actions.check(by, event, "edit")
    existing = event.round_set.count()
    if existing:
        for locked in LOCKED_ONCE_PLANNED:
            if locked in fields and fields[locked] != getattr(event, locked):
                raise LeagueError(f"{locked.replace('_', ' ')} cannot change once rounds exist")
        leftover = fields.get("leftover", event.leftover)
        if Event.Leftover.MIXED in (leftover, event.leftover) and leftover != event.leftover:
            # Byes and bots may swap between rounds; tables of four change deals and points.
            raise LeagueError(
                _("tables of three and four cannot be chosen or left once rounds exist")
            )
        if int(fields.get("rounds", event.rounds)) < existing:
            raise LeagueError(f"{existing} rounds exist already; the event cannot have fewer")
    merged = {
        "game": event.game,
        "variant": event.variant,
        "rounds": event.rounds,
        "deals_per_match": event.deals_per_match,
        "tiebreaks": event.tiebreaks,
        "bot_level": event.bot_level,
        "format": event.format,
        "scoring": event.scoring,
        "duplicate_rank": event.duplicate_rank,
        "leftover": event.leftover,
        **fields,
    }
    merged = check_event_fields(merged)
    merged.pop("table_size")
    check_bot_accounts_may_stay(event, merged.get("allow_bot_accounts", event.allow_bot_accounts))
    for name, value in merged.items():
        setattr(event, name, value)
    # Only the settings: a copy of the row read earlier must not write back its status,
    # visibility or podium (changed since by a result, publishing, closing).
    event.save(update_fields=list(merged))
    touch_standings(event.pk)
    event_end.settle(event)  # more rounds reopen a finished event; a tie-break moves its podium
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
    draft or a published table has no result (an online match there would be thrown away).
    A finished event keeps its podium; one closed before its end names its standings' first
    three (league.services.event_end)."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CLOSED:
        return  # closing twice changes nothing
    why = actions.close_problem(actions.Facts(event))  # the rule that hides the page's button
    if why:
        raise LeagueError(why)
    podium = event_end.close_podium(event)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED, winners=podium)


@transaction.atomic
def delete_event(event: Event, *, by: Any) -> None:
    """Delete a draft event and everything in it (entries, draft rounds, the waiting list).

    Only a draft: a published event's results are public (and may be rated). A draft that has a
    published round (made before publishing a round published the event too) keeps it: its
    tables may be online."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    why = actions.problem_now(event, "delete")
    if why:
        raise LeagueError(why)
    event.delete()


# --- entries ----------------------------------------------------------------------------------


@transaction.atomic
def add_entry(event: Event, player: Player, *, by: Any, checked_in: bool = True) -> Entry:
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
    checked_in: bool = True,
) -> Entry:
    """Find the player (by id, or by name: a new name makes a new player), then enter them.

    The organizer form and the API (both check the player in unless told otherwise: a round
    plans only checked-in players). A new name needs only the right to manage the event; an
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
    return create_entry(event, player, checked_in=checked_in)


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
    set_checked_in(entry, checked_in)


def set_checked_in(entry: Entry, checked_in: bool) -> None:
    """Check the entrant in or out, for `check_in` and a player's self check-in (each caller
    has authorized its account)."""
    why = actions.problem_now(entry.event, "check_in" if checked_in else "check_out", entry)
    if why:
        raise LeagueError(why)
    Entry.objects.filter(pk=entry.pk).update(checked_in=checked_in)


@transaction.atomic
def withdraw(entry: Entry, *, by: Any) -> None:
    """Later rounds skip the player; results already in are kept. Undone by `reinstate`."""
    check_can_manage(by, entry.event)
    withdraw_entry(entry)


def withdraw_entry(entry: Entry) -> None:
    """The withdrawal itself, for `withdraw` and a player withdrawing themselves (each caller
    has authorized its account); the place goes to the waiting list."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    why = actions.problem_now(entry.event, "withdraw", entry)
    if why:
        raise LeagueError(why)
    last = (
        entry.event.round_set.filter(status="published")
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    Entry.objects.filter(pk=entry.pk).update(withdrawn_after_round=last or 0)
    touch_standings(entry.event_id)  # a withdrawal before play is listed apart
    waiting_list.move_up(entry.event)


@transaction.atomic
def reinstate(entry: Entry, *, by: Any) -> Entry:
    """Undo a withdrawal: the player is in the next rounds again (checked in as they were).

    Beyond the capacity if need be (the organizer decides; the capacity limits sign-up only).
    Refused where the format would not take them as a new entrant (a knockout once a round
    after their withdrawal is planned: only that round's survivors play on)."""
    check_can_manage(by, entry.event)
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    why = actions.problem_now(entry.event, "reinstate", entry)
    if why:
        raise LeagueError(why)
    check_may_play_in(entry.event, entry.player)
    Entry.objects.filter(pk=entry.pk).update(withdrawn_after_round=None)
    touch_standings(entry.event_id)
    entry.refresh_from_db()
    return entry


@transaction.atomic
def remove_entry(entry: Entry, *, by: Any) -> None:
    """Take back an entry made by mistake: only one that has never been in a round (a draft
    round counts: discard it first). The player stays; their place goes to the waiting list."""
    check_can_manage(by, entry.event)
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    why = actions.problem_now(entry.event, "remove_entry", entry)
    if why:
        raise LeagueError(why)
    entry.delete()
    touch_standings(entry.event_id)
    waiting_list.move_up(entry.event)
