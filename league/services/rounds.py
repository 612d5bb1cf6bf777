"""Generating, adjusting and publishing rounds.

The table plan comes from the pure scheduler (`league.scheduling.plan_round`); this module only
loads what it needs (entries, standings, pair history, seat counts, byes), stores its answer as
a draft round, lets the organizer swap players, and publishes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from games import catalogue
from league import scheduling
from league.draws import lot_number
from league.errors import LeagueConflict, LeagueError
from league.models import Bye, Entry, Event, Fixture, Player, Round, Seat
from league.services import actions, advancing, event_end, sections
from league.services.advancing import played_plan
from league.services.events import check_format
from league.services.events import publish_event as publish_event_service
from league.services.notifications import notify
from league.services.permissions import check_can_manage
from league.services.players import bot_players
from league.services.results import table_result
from league.services.standings import compute_rows, touch_standings


def active_entries(event: Event) -> list[Entry]:
    """Who plays the next round: checked in and not withdrawn."""
    return list(
        Entry.objects.filter(event=event, checked_in=True, withdrawn_after_round__isnull=True)
        .select_related("player")
        .order_by("player_id")
    )


def pair_history(event: Event) -> scheduling.PairHistory:
    """How often each pair of players has sat at one table in this event's published rounds."""
    tables: dict[int, list[int]] = {}
    for fixture_id, player_id in Seat.objects.filter(
        fixture__round__event=event, fixture__round__status=Round.Status.PUBLISHED
    ).values_list("fixture_id", "player_id"):
        tables.setdefault(fixture_id, []).append(player_id)
    return scheduling.PairHistory.from_tables(tables.values())


def seat_counts(event: Event, table_size: int) -> tuple[dict[int, tuple[int, ...]], Counter[int]]:
    """Each player's rounds in each seat, and their rounds at a table of four among tables of
    three (leftover "mixed"), whose seats are not counted: at a four every seat deals and
    sits out alike (`scheduling.seating.seat_mixed_round`)."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for fixture_id, player_id, number in Seat.objects.filter(
        fixture__round__event=event, fixture__round__status=Round.Status.PUBLISHED
    ).values_list("fixture_id", "player_id", "number"):
        tables.setdefault(fixture_id, []).append((player_id, number))
    counts: dict[int, list[int]] = {}
    fours: Counter[int] = Counter()
    for seats in tables.values():
        if len(seats) > table_size:
            fours.update(player_id for player_id, _number in seats)
            continue
        for player_id, number in seats:
            counts.setdefault(player_id, [0] * table_size)[number] += 1
    return {p: tuple(c) for p, c in counts.items()}, fours


def byes_had(event: Event) -> Counter[int]:
    return Counter(
        Bye.objects.filter(round__event=event, round__status=Round.Status.PUBLISHED).values_list(
            "player_id", flat=True
        )
    )


def scheduler_players(event: Event, entries: list[Entry], table_size: int) -> list[Any]:
    """The plain player records the scheduler wants, seeded best first.

    Before anyone has played, the seeding is by rating at entry (the unrated last); after that by
    the standings, with the rating separating players the standings leave level; the event's
    draw (`league.draws`) separates the rest.
    """
    rows = {row["player_id"]: row for row in compute_rows(event)}
    seats, fours = seat_counts(event, table_size)
    byes = byes_had(event)
    started = any(row["matches_played"] or row["byes"] for row in rows.values())

    def seed(entry: Entry) -> tuple:
        row = rows.get(entry.player_id)
        rating = entry.rating_at_entry
        by_rating = (rating is None, -(rating or 0.0))
        draw = -lot_number(event.seed, entry.player_id)  # the event's draw, as round 1's
        if not started or row is None:
            return (0, 0, *by_rating, draw)
        return (row["rank"], -row["match_points"], *by_rating, draw)

    order = sorted(entries, key=seed)
    return [
        scheduling.PlayerRecord(
            id=entry.player_id,
            position=position,
            match_points=rows.get(entry.player_id, {}).get("match_points", 0),
            rating=entry.rating_at_entry,
            seat_counts=seats.get(entry.player_id, (0,) * table_size),
            byes=byes.get(entry.player_id, 0),
            fours=fours[entry.player_id],
        )
        for position, entry in enumerate(order, start=1)
    ]


def round_results(round_: Round) -> list[scheduling.TableResult]:
    """Every table's counted result, table 1 first; a table without one is refused."""
    results = []
    for fixture in round_.fixtures.prefetch_related("seats__player", "results"):
        result = next((r for r in fixture.results.all() if r.current), None)
        if result is None:
            raise LeagueError(f"table {fixture.number} of round {round_.number} has no result")
        results.append(table_result(list(fixture.seats.all()), result.scored, result.absent_seats))
    return results


@transaction.atomic
def generate_round(event: Event, *, by: Any) -> Round:
    """Plan the next round as a draft the organizer can preview, adjust and publish."""
    check_can_manage(by, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    # Closed, check-in open, a draft waiting, every round planned, results missing: the rule
    # that hides the page's button (league.services.actions) refuses it here.
    why = actions.problem_now(event, "generate_round")
    if why:
        raise LeagueError(why)
    last = event.round_set.order_by("-number").first()
    number = (last.number + 1) if last else 1
    fmt = check_format(event.format)
    table_size = catalogue.game(event.game).seats
    entries = active_entries(event)
    still_in = None
    if last is not None:
        if fmt.is_decided(played_plan(last)):
            raise LeagueError(_(fmt.decided_message))
        if fmt.needs_results:  # every result is in (checked above): the format may pick
            still_in = advancing.going_on(last)
    if still_in is not None:
        going_on = set(still_in)
        entries = [e for e in entries if e.player_id in going_on]
    elif len(entries) < table_size:
        raise LeagueError(f"{len(entries)} checked-in players cannot fill a table of {table_size}")
    if last is None:  # a knockout that could not reach its final is refused before it starts
        needed = fmt.rounds_needed(len(entries), table_size=table_size, leftover=event.leftover)
        if needed is not None and needed > event.rounds:
            raise LeagueError(
                _(
                    "%(format)s of %(players)s players at tables of %(seats)s needs "
                    "%(needed)s rounds to reach its final; the event has %(rounds)s: "
                    "raise its number of rounds first"
                )
                % {
                    "format": _(fmt.title),
                    "players": len(entries),
                    "seats": table_size,
                    "needed": needed,
                    "rounds": event.rounds,
                }
            )
    try:
        plan = scheduling.plan_round(
            scheduler_players(event, entries, table_size),
            pair_history(event),
            table_size,
            event.format,
            number,
            event.leftover,
            event.seed,
        )
    except scheduling.SchedulingError as exc:
        raise LeagueError(str(exc)) from None
    round_ = Round.objects.create(event=event, number=number)
    store_plan(round_, plan, event)
    return round_


def store_plan(round_: Round, plan: Any, event: Event) -> None:
    """Write the plan's tables, seats and byes; each bot seat of the round gets its own bot.

    Part of `generate_round` (which has authorized the organizer), not a service of its own."""
    wanted = sum(p is None for table in plan.tables for p in table)
    bot_iter = iter(bot_players(wanted, event.bot_level))
    # A duplicate round starts with one section of every table (the organizer may split it).
    section = sections.default_section(round_) if event.is_duplicate else None
    seats = []
    for number, table in enumerate(plan.tables, start=1):
        fixture = Fixture.objects.create(round=round_, number=number, section=section)
        for seat_no, player_id in enumerate(table):
            player = next(bot_iter) if player_id is None else None
            seats.append(
                Seat(fixture=fixture, number=seat_no, player_id=player.pk if player else player_id)
            )
    Seat.objects.bulk_create(seats)
    Bye.objects.bulk_create(
        Bye(round=round_, player_id=p, match_points=event.bye_match_points) for p in plan.byes
    )


@transaction.atomic
def discard_draft(round_: Round, *, by: Any) -> None:
    """Throw a draft round away (its tables and byes); the round can be generated again."""
    check_can_manage(by, round_.event)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    why = actions.problem_now(round_.event, "discard", round_)
    if why:
        raise LeagueError(why)
    round_.delete()


def draft_fingerprint(seats: Iterable[tuple[int, int, int]], byes: Iterable[int]) -> str:
    """A short digest of a draft's (table, seat, player) places and byes: what the organizer
    saw, so a second click on the same swap (which would undo it) can be told from a new one."""
    text = repr((sorted(seats), sorted(byes)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def loaded_fingerprint(fixtures: Iterable[Fixture], byes: Iterable[Bye]) -> str:
    """`draft_fingerprint` of fixtures (seats prefetched) and byes already read for a page."""
    seats = [(f.number, seat.number, seat.player_id) for f in fixtures for seat in f.seats.all()]
    return draft_fingerprint(seats, [bye.player_id for bye in byes])


def round_fingerprint(round_: Round) -> str:
    seats = Seat.objects.filter(fixture__round=round_).values_list(
        "fixture__number", "number", "player_id"
    )
    byes = Bye.objects.filter(round=round_).values_list("player_id", flat=True)
    return draft_fingerprint(seats, byes)


def _player_label(player_id: int) -> str:
    name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
    return name or _("player %(id)s") % {"id": player_id}


@transaction.atomic
def swap_players(
    round_: Round, first: int, second: int, *, by: Any, seen: str | None = None
) -> None:
    """Swap two players (seats or byes) of a draft round; seat numbers stay with the seat.

    `first` and `second` are player ids (the round page's two selects offer its players by
    name; the API takes ids). Refused, with nothing changed: the same player twice,
    a player not in this round, a table already played, a published round or a closed event.
    `seen`: the draft's fingerprint when the organizer looked at it; if the draft has changed
    since (the same swap posted twice, another organizer's swap) nothing is swapped."""
    check_can_manage(by, round_.event)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    why = actions.problem_now(round_.event, "swap", round_)
    if why:
        raise LeagueError(why)
    if seen is not None and seen != round_fingerprint(round_):
        raise LeagueError(_("the draft has changed since you loaded it: check it, then swap again"))
    for pid in (first, second):
        if isinstance(pid, bool) or not isinstance(pid, int) or not 0 < pid < 2**63:
            raise LeagueError(_("choose two players of this round"))  # (SQLite: no such id)
    if first == second:
        raise LeagueError(
            _("choose two different players (%(name)s is chosen twice)")
            % {"name": _player_label(first)}
        )
    places = {}
    for pid in (first, second):
        seat = (
            Seat.objects.filter(fixture__round=round_, player_id=pid)
            .select_related("fixture")
            .first()
        )
        bye = Bye.objects.filter(round=round_, player_id=pid).first()
        if not seat and not bye:
            raise LeagueError(_("%(name)s is not in this round") % {"name": _player_label(pid)})
        if seat and (seat.fixture.table_ref or seat.fixture.results.exists()):
            raise LeagueError(
                _("table %(n)s has been played: its seats cannot change")
                % {"n": seat.fixture.number}
            )
        places[pid] = seat or bye
    a, b = places[first], places[second]
    # Take `a` out first, so the unique constraints never see a player twice at one table.
    type(a).objects.filter(pk=a.pk).delete()
    type(b).objects.filter(pk=b.pk).update(player_id=first)
    a.pk = None
    a.player_id = second
    a.save()


class DraftEventRound(LeagueConflict):
    """Publishing a round of a draft event needs `publish_event=True` (the API's 409)."""


@transaction.atomic
def publish_round(round_: Round, *, by: Any, publish_event: bool = False) -> Round:
    """Make a draft round public; refused if anyone sits twice (or at a table and a bye).

    In a draft event the round's players would get a 404 (their table's event is hidden), so
    the round is published only together with the event: `publish_event=True` says the caller
    asked (the page's confirmation, the API's `publish_event: true`); without it, DraftEventRound.
    """
    check_can_manage(by, round_.event)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    why = actions.problem_now(round_.event, "publish_round", round_)  # closed, or published
    if why:
        raise LeagueError(why)
    seated = list(Seat.objects.filter(fixture__round=round_).values_list("player_id", flat=True))
    byes = list(Bye.objects.filter(round=round_).values_list("player_id", flat=True))
    twice = [p for p, n in Counter(seated + byes).items() if n > 1]
    if twice:
        names = ", ".join(Player.objects.filter(pk__in=twice).values_list("name", flat=True))
        raise LeagueError(f"cannot publish: {names} would play twice in this round")
    gone = Entry.objects.filter(
        event=round_.event, player_id__in=seated + byes, withdrawn_after_round__isnull=False
    ).values_list("player__name", flat=True)
    if gone:
        raise LeagueError(
            f"cannot publish: {', '.join(gone)} withdrew; discard this draft and generate again"
        )
    table_size = catalogue.game(round_.event.game).seats
    sizes = [table_size, 4] if round_.event.has_tables_of_four else [table_size]
    short = round_.fixtures.annotate(n=Count("seats")).exclude(n__in=sizes).first()
    if short is not None:
        raise LeagueError(f"table {short.number} does not have {table_size} players")
    if round_.event.visibility == Event.Visibility.DRAFT:
        if not publish_event:
            raise DraftEventRound(
                _(
                    "%(event)s is a draft: publishing round %(number)s publishes the event too "
                    "(its players would otherwise find no event, nor their table). Confirm to "
                    "publish both (API: send publish_event: true)."
                )
                % {"event": round_.event.name, "number": round_.number}
            )
        publish_event_service(round_.event, by=by)
        round_.event.visibility = Event.Visibility.PUBLISHED
    if round_.event.is_duplicate:  # each section's secret seed (or salts) for its tables
        sections.draw_secrets(round_)
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    touch_standings(round_.event_id)  # byes count from publication
    event_end.settle(round_.event)  # running from its first round
    if round_.event.play_online and not round_.event.asynchronous:
        open_tables(round_)  # an asynchronous event's tables open when a player opens them
    round_.refresh_from_db()
    announce_round(round_)
    return round_


def fixture_page(fixture: Fixture, event: Event) -> str:
    """The path of a fixture's page (its schedule, proposals, table link): `league:fixture`."""
    return reverse("league:fixture", args=[event.slug, fixture.pk])


def fixture_is_online(seats: Iterable[Seat]) -> bool:
    """Whether a fixture can be played online: every seat a built-in bot or an account."""
    return all(s.player.is_builtin_bot or s.player.user_id is not None for s in seats)


def announce_round(round_: Round) -> int:
    """Tell every player with an account where they sit (part of `publish_round`): the table's
    page to play an online table now, else the fixture's page — a path, never a seat token."""
    event = round_.event
    made = 0
    for fixture in round_.fixtures.prefetch_related("seats__player"):
        seats = list(fixture.seats.all())
        online = event.play_online and fixture_is_online(seats)
        ref = fixture.table_ref
        url = f"/tables/{ref}/" if ref else fixture_page(fixture, event)
        for seat in seats:
            if seat.player.user_id is None:
                continue
            context = {
                "round": round_.number,
                "table": fixture.number,
                "seat": seat.number + 1,  # as the round page numbers seats: from 1
                "online": bool(fixture.table_ref),
                "asynchronous": online and event.asynchronous,
                "deadline": round_.deadline.isoformat() if round_.deadline else "",
            }
            made += notify(
                [seat.player.user_id],
                "round_published",
                key=f"round_published:{round_.pk}",
                event=event,
                url=url,
                context=context,
            )
    return made


def open_tables(round_: Round) -> None:
    """An online table for every fixture whose players all have accounts to play with.

    A fixture with a player who has no account stays over-the-table: its result is entered by
    the organizer. Built-in bots play their seats at the table by themselves (at their level);
    a bot account is seated as the person it is, and its program plays through the API.
    """
    event = round_.event
    for fixture in round_.fixtures.prefetch_related("seats__player"):
        seats = list(fixture.seats.all())
        if not fixture_is_online(seats):
            continue
        table_ref = start_fixture_table(event, fixture, seats)
        Fixture.objects.filter(pk=fixture.pk).update(table_ref=table_ref)


def table_context(event: Event, fixture: Fixture) -> dict[str, Any]:
    """Where a fixture's table belongs, for the table page's header and its link back: the
    event's name, round and table numbers, and the fixture's page (`start_table(context=)`;
    the page words them in its reader's language)."""
    return {
        "event": " ".join(event.name.split()),  # one line, whatever an old name holds
        "round": fixture.round.number,
        "table": fixture.number,
        "url": fixture_page(fixture, event),
    }


def start_fixture_table(
    event: Event, fixture: Fixture, seats: list[Seat], *, bot_seats: frozenset[int] = frozenset()
) -> str:
    """Open the online table of one fixture (`seats` in seat order, players loaded; its round
    loaded) and return its id. `bot_seats`: seat numbers of people a bot plays for (an
    asynchronous event's deadline policy "bot"); the seat keeps its player's name, so the
    record counts for them. The table's header names the event, round and table and links
    back to the fixture's page (`table_context`). Part of `publish_round` and of
    `league.services.schedule`, which authorized the caller.

    No seed for a table of its own: gameplay draws a secret one. Anything derived from the
    event's seed or the fixture id (both public or guessable) would let anyone replay every
    hand. A duplicate event's table is dealt its section's deals instead (the section's secret
    seed, or the organizer's deal set with secret salts), embargoed and without spectators
    (`sections.table_arguments`); seats as in any event, seat 0 deals first."""
    levels = {s.player.bot_level for s in seats if s.player.is_builtin_bot}
    dealing = sections.table_arguments(event, fixture.pk)
    return gameplay.start_table(
        event.game,
        seats=[
            s.player.name if s.player.is_builtin_bot or s.number in bot_seats else s.player.user_id
            for s in seats
        ],
        names=[s.player.name for s in seats],
        # A round's bots share one level (`bot_players`); a table plays them at it. A table
        # without one (a bot plays for an absent person) plays at the event's.
        bot_level=min(levels) if levels else event.bot_level,
        variant=event.variant,
        n_deals=event.deals_for(len(seats)),  # a table of four plays 4/3 as many
        seconds_per_move=event.seconds_per_move,
        pace=event.pace,  # a turn-based pace: the fixture is played by the day
        on_timeout=event.on_timeout,
        rated=False,  # the league rates fixtures from their counted results
        context=table_context(event, fixture),
        chat=event.table_chat,  # the organizer's choice; never at a duplicate (embargoed) table
        **dealing,  # seed (None: a secret one), spectators; duplicate: deals, embargoed
    )
