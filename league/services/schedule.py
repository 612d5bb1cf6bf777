"""A round's schedule, and asynchronous events (the way correspondence leagues run).

Every round may have a start and a deadline (`set_round_schedule`). In an **asynchronous**
event an online fixture's table is not opened when the round is published: its players agree on
a time on the fixture's page (`propose_time`, `accept_time`), and any of them opens the table
(`open_table`), within the round's window; the others get a notice. A player who proposed or
accepted a time, or opened the table, has **shown up** (`Seat.showed_up_at`); the others are
absent. After the deadline the event's policy applies to each table nobody opened
(`apply_deadline_policies`, run by beat, idempotent): the absent seats forfeit, bots play them,
or the deadline is extended once (then the absent seats forfeit). When nobody or everybody
showed up, no one is more absent than another: every person at that table forfeits (with
"bot", bots play every seat of people who did not show up). A table already opened is played
out (its turn clock ends it).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import Event, Fixture, FixtureProposal, Round, Seat
from league.services.event_times import show_time
from league.services.events import require_open
from league.services.notifications import notify
from league.services.permissions import check_can_manage
from league.services.results import record_forfeit
from league.services.rounds import fixture_is_online, fixture_page, start_fixture_table

# Times one player may have proposed for one table and not yet seen pass (no flooding).
MAX_OPEN_PROPOSALS = 5


def effective_deadline(fixture: Fixture) -> datetime | None:
    """The table's deadline: the policy's extension, else its round's (`fixture.round` loaded)."""
    return fixture.extended_until or fixture.round.deadline


# --- the organizer: a round's window -----------------------------------------------------------


@transaction.atomic
def set_round_schedule(
    round_: Round, *, by: Any, starts_at: datetime | None, deadline: datetime | None
) -> Round:
    """Set (or clear, with None) a round's start and deadline."""
    check_can_manage(by, round_.event)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    require_open(round_.event)
    for moment in (starts_at, deadline):
        if moment is not None and timezone.is_naive(moment):
            raise LeagueError(_("give times with their time zone"))
    if starts_at and deadline and deadline <= starts_at:
        raise LeagueError(_("the deadline must come after the start"))
    if (
        deadline is not None
        and deadline != round_.deadline
        and round_.status == Round.Status.PUBLISHED
        and deadline <= timezone.now()
    ):
        raise LeagueError(_("a published round's deadline cannot be in the past"))
    moved = deadline != round_.deadline
    Round.objects.filter(pk=round_.pk).update(starts_at=starts_at, deadline=deadline)
    round_.refresh_from_db()
    if moved and round_.status == Round.Status.PUBLISHED:
        announce_deadline(round_)
    return round_


def announce_deadline(round_: Round) -> int:
    """Tell the people at a published round's tables still to be played that its deadline was
    set, moved or taken away (the notice of its publishing told the one it had then, or none):
    once per table and deadline. Tables whose deadline policy has applied are left alone."""
    event = round_.event
    stamp = round_.deadline.isoformat() if round_.deadline else ""
    fixtures = (
        round_.fixtures.exclude(results__current=True)
        .filter(deadline_outcome=Fixture.Outcome.NONE)
        .prefetch_related("seats__player")
    )
    made = 0
    for fixture in fixtures:
        made += notify(
            _users(fixture.seats.all()),
            "deadline_changed",
            key=f"deadline_changed:{fixture.pk}:{stamp or 'none'}",
            event=event,
            url=fixture_page(fixture, event),
            context={"round": round_.number, "table": fixture.number, "deadline": stamp},
        )
    return made


# --- the players of an asynchronous fixture ----------------------------------------------------


def _locked(fixture: Fixture) -> Fixture:
    return Fixture.objects.select_for_update().select_related("round__event").get(pk=fixture.pk)


def _seats(fixture: Fixture) -> list[Seat]:
    return list(fixture.seats.select_related("player").order_by("number"))


def seat_of(seats: Iterable[Seat], user: Any) -> Seat:
    """The seat of the account at this table, or PermissionDenied for anyone else."""
    if getattr(user, "is_authenticated", False):
        for seat in seats:
            if seat.player.user_id == user.pk:
                return seat
    raise PermissionDenied(_("only the players of this table may do that"))


def people(seats: Iterable[Seat]) -> list[Seat]:
    """The seats of people (accounts), not of built-in bots."""
    return [s for s in seats if not s.player.is_builtin_bot]


def check_playable(fixture: Fixture, seats: list[Seat], now: datetime) -> None:
    """Refuse what an asynchronous fixture's players may not do now, with the reason."""
    round_, event = fixture.round, fixture.round.event
    require_open(event)
    if not event.asynchronous:
        raise LeagueError(_("this event is not asynchronous: its tables open when published"))
    if round_.status != Round.Status.PUBLISHED:
        raise LeagueError(_("this round is not published"))
    if not event.play_online or not fixture_is_online(seats):
        raise LeagueError(_("this table is played over the table: its organizer enters it"))
    if fixture.results.filter(current=True).exists():
        raise LeagueError(_("this table has a result"))
    if fixture.deadline_outcome in (Fixture.Outcome.FORFEIT, Fixture.Outcome.BOT):
        raise LeagueError(_("the deadline has passed and the event's policy applied"))
    deadline = effective_deadline(fixture)
    if deadline is not None and now > deadline:
        raise LeagueError(_("the deadline has passed"))


def _show(fixture: Fixture, moment: datetime | None) -> str:
    return show_time(moment, fixture.round.event.time_zone)


def _context(fixture: Fixture, **more: Any) -> dict[str, Any]:
    return {"round": fixture.round.number, "table": fixture.number, **more}


def _users(seats: Iterable[Seat], but: Seat | None = None) -> list[int]:
    return [
        s.player.user_id
        for s in seats
        if s.player.user_id is not None and (but is None or s.pk != but.pk)
    ]


def _showed_up(seat: Seat, now: datetime, **fields: Any) -> None:
    Seat.objects.filter(pk=seat.pk).update(**fields)
    Seat.objects.filter(pk=seat.pk, showed_up_at__isnull=True).update(showed_up_at=now)


@transaction.atomic
def propose_time(fixture: Fixture, *, by: Any, starts_at: datetime) -> FixtureProposal:
    """A player proposes a time to play (and accepts it); the others get a notice."""
    fixture = _locked(fixture)
    seats = _seats(fixture)
    seat = seat_of(seats, by)
    now = timezone.now()
    check_playable(fixture, seats, now)
    if timezone.is_naive(starts_at):
        raise LeagueError(_("give times with their time zone"))
    if starts_at <= now:
        raise LeagueError(_("propose a time in the future"))
    round_ = fixture.round
    if round_.starts_at and starts_at < round_.starts_at:
        raise LeagueError(
            _("the round starts at %(start)s") % {"start": _show(fixture, round_.starts_at)}
        )
    deadline = effective_deadline(fixture)
    if deadline and starts_at > deadline:
        raise LeagueError(
            _("the deadline is %(deadline)s") % {"deadline": _show(fixture, deadline)}
        )
    mine = FixtureProposal.objects.filter(
        fixture=fixture, proposed_by=seat.player, starts_at__gt=now
    ).count()
    if mine >= MAX_OPEN_PROPOSALS:
        raise LeagueError(
            _("you have proposed %(n)s times already: wait for answers") % {"n": mine}
        )
    proposal = FixtureProposal.objects.create(
        fixture=fixture, proposed_by=seat.player, starts_at=starts_at
    )
    _showed_up(seat, now, accepted_proposal=proposal)
    event = round_.event
    notify(
        _users(seats, but=seat),
        "time_proposed",
        key=f"time_proposed:{proposal.pk}",
        event=event,
        url=fixture_page(fixture, event),
        context=_context(fixture, by_player=seat.player_id, when=starts_at.isoformat()),
    )
    _agree_if_all_accepted(fixture, proposal, people(seats), now)
    return proposal


@transaction.atomic
def accept_time(proposal: FixtureProposal, *, by: Any) -> FixtureProposal:
    """A player accepts a proposed time; once every person at the table has, it is agreed."""
    fixture = _locked(proposal.fixture)
    proposal = FixtureProposal.objects.get(pk=proposal.pk, fixture=fixture)
    seats = _seats(fixture)
    seat = seat_of(seats, by)
    now = timezone.now()
    check_playable(fixture, seats, now)
    if proposal.starts_at <= now:
        raise LeagueError(_("this time has passed: propose another"))
    _showed_up(seat, now, accepted_proposal=proposal)
    _agree_if_all_accepted(fixture, proposal, people(seats), now)
    proposal.refresh_from_db()
    return proposal


def _agree_if_all_accepted(
    fixture: Fixture, proposal: FixtureProposal, persons: list[Seat], now: datetime
) -> None:
    accepted = Seat.objects.filter(
        pk__in=[s.pk for s in persons], accepted_proposal=proposal
    ).count()
    if accepted < len(persons):
        return
    agreed = FixtureProposal.objects.filter(pk=proposal.pk, agreed_at__isnull=True).update(
        agreed_at=now
    )
    if agreed:
        event = fixture.round.event
        notify(
            _users(persons),
            "time_agreed",
            key=f"time_agreed:{proposal.pk}",
            event=event,
            url=fixture_page(fixture, event),
            context=_context(fixture, when=proposal.starts_at.isoformat()),
        )


@transaction.atomic
def open_table(fixture: Fixture, *, by: Any) -> str:
    """A player opens the fixture's table (made now, on first opening) and gets its id; the
    others get a notice. Opening a table someone opened already just joins it."""
    fixture = _locked(fixture)
    seats = _seats(fixture)
    seat = seat_of(seats, by)
    now = timezone.now()
    if fixture.table_ref:
        _showed_up(seat, now)
        return fixture.table_ref
    check_playable(fixture, seats, now)
    round_, event = fixture.round, fixture.round.event
    if round_.starts_at and now < round_.starts_at:
        raise LeagueError(
            _("the round starts at %(start)s") % {"start": _show(fixture, round_.starts_at)}
        )
    table_ref = start_fixture_table(event, fixture, seats)
    Fixture.objects.filter(pk=fixture.pk).update(table_ref=table_ref, opened_at=now)
    _showed_up(seat, now)
    notify(
        _users(seats, but=seat),
        "table_opened",
        key=f"table_opened:{fixture.pk}",
        event=event,
        url=f"/tables/{table_ref}/",
        context=_context(fixture, by_player=seat.player_id),
    )
    return table_ref


# --- beat: reminders and the deadline policy ---------------------------------------------------


def _waiting() -> Any:
    """Fixtures of open, published rounds with no counting result."""
    return (
        Fixture.objects.filter(round__status=Round.Status.PUBLISHED)
        .exclude(round__event__status=Event.Status.CLOSED)
        .exclude(results__current=True)
    )


def send_deadline_reminders(now: datetime | None = None) -> int:
    """Remind the players of every table without a result whose deadline is less than
    `LEAGUE_DEADLINE_REMINDER_HOURS` away, once per table and deadline; returns notices made."""
    now = now or timezone.now()
    soon = now + timedelta(hours=settings.LEAGUE_DEADLINE_REMINDER_HOURS)
    in_window = Q(extended_until__isnull=True, round__deadline__gt=now, round__deadline__lte=soon)
    in_window |= Q(extended_until__gt=now, extended_until__lte=soon)
    fixtures = (
        _waiting()
        .filter(in_window, round__event__visibility=Event.Visibility.PUBLISHED)
        .select_related("round__event")
        .prefetch_related("seats__player")
    )
    made = 0
    for fixture in fixtures:
        event, deadline = fixture.round.event, effective_deadline(fixture)
        made += notify(
            _users(fixture.seats.all()),
            "deadline_soon",
            key=f"deadline_soon:{fixture.pk}:{deadline.isoformat()}",
            event=event,
            url=fixture_page(fixture, event),
            context=_context(fixture, deadline=deadline.isoformat()),
        )
    return made


def due_fixtures(now: datetime) -> list[int]:
    """Asynchronous online tables nobody opened whose deadline has passed, policy not done."""
    late = Q(extended_until__isnull=True, round__deadline__lt=now) | Q(extended_until__lt=now)
    return list(
        _waiting()
        .filter(late, round__event__asynchronous=True, round__event__play_online=True)
        .filter(table_ref="", deadline_outcome__in=["", Fixture.Outcome.EXTENDED])
        # over-the-table fixtures (a person without an account) are the organizer's
        .exclude(
            Exists(
                Seat.objects.filter(
                    fixture=OuterRef("pk"), player__user__isnull=True, player__bot_level=""
                )
            )
        )
        .order_by("round__deadline", "pk")
        .values_list("pk", flat=True)
        .distinct()
    )


def apply_deadline_policies(now: datetime | None = None) -> int:
    """Apply the event's deadline policy to every due table (each in its own transaction; a
    second run finds nothing to do). Returns how many tables it changed."""
    now = now or timezone.now()
    return sum(bool(apply_deadline_policy(pk, now)) for pk in due_fixtures(now))


@transaction.atomic
def apply_deadline_policy(fixture_id: int, now: datetime) -> str:
    """The policy for one table, under its lock; "" when it is not due (any more)."""
    fixture = (
        Fixture.objects.select_for_update()
        .select_related("round__event")
        .filter(pk=fixture_id)
        .first()
    )
    if fixture is None or fixture.table_ref or fixture.results.filter(current=True).exists():
        return ""
    deadline = effective_deadline(fixture)
    if fixture.deadline_outcome not in ("", Fixture.Outcome.EXTENDED) or not deadline:
        return ""
    if deadline >= now:
        return ""
    event = fixture.round.event
    seats = _seats(fixture)
    persons = people(seats)
    absent = [s for s in persons if s.showed_up_at is None]
    if not absent:
        absent = persons  # everybody showed up, and nobody opened the table
    policy = event.deadline_policy
    if policy == Event.DeadlinePolicy.EXTEND and not fixture.deadline_outcome:
        outcome = Fixture.Outcome.EXTENDED
        until = deadline + timedelta(days=event.extension_days)
        Fixture.objects.filter(pk=fixture.pk).update(
            extended_until=until, deadline_outcome=outcome, deadline_outcome_at=now
        )
        extra: dict[str, Any] = {"deadline": until.isoformat()}
        url = fixture_page(fixture, event)
    elif policy == Event.DeadlinePolicy.BOT:
        outcome = Fixture.Outcome.BOT
        absent_seats = frozenset(s.number for s in absent)
        table_ref = start_fixture_table(event, fixture, seats, bot_seats=absent_seats)
        Fixture.objects.filter(pk=fixture.pk).update(
            table_ref=table_ref, opened_at=now, deadline_outcome=outcome, deadline_outcome_at=now
        )
        extra, url = {}, f"/tables/{table_ref}/"
    else:  # forfeit, or an extension that has run out
        outcome = Fixture.Outcome.FORFEIT
        record_forfeit(
            fixture,
            [s.number for s in absent],
            reason="deadline passed: absent seats forfeit (the event's policy)",
        )
        Fixture.objects.filter(pk=fixture.pk).update(
            deadline_outcome=outcome, deadline_outcome_at=now
        )
        extra, url = {}, fixture_page(fixture, event)
    notify(
        _users(persons),
        "deadline_passed",
        key=f"deadline_passed:{fixture.pk}:{outcome}",
        event=event,
        url=url,
        context=_context(
            fixture,
            outcome=outcome,
            absent_players=[s.player_id for s in absent],
            **extra,
        ),
    )
    return outcome
