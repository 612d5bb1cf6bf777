"""Results from the table: at over-the-table events a player at the table types the score grid.

With the event's `table_results` on, a seated player (with an account) submits the grid of a
table that has no result; it waits (`ResultSubmission`, pending) until every other person at the
table confirms it, then counts as the table's result (source: score sheet, typed by the
submitter). A different grid from another player, or a rejection, makes it a dispute: the
organizers see every version side by side and pick one (`approve_submission`) or set them aside
and enter the result themselves. An organizer may approve a pending grid at once too — the only
way when somebody at the table has no account to confirm with.

Every write is authorized here: only the seated players of that fixture submit, confirm, reject
or withdraw; only the event's organizers approve or set aside. Refusals change nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalogue
from league.errors import LeagueError
from league.models import Event, Fixture, Result, ResultSubmission, Round, Seat, SubmissionVote
from league.services.entering import require_open
from league.services.permissions import check_can_manage
from league.services.results import record_result, score_submission, sheet_of_grid
from league.services.rounds import fixture_is_online

Status = ResultSubmission.Status


def persons(seats: list[Seat]) -> list[Seat]:
    """The seats people sit at (a built-in bot confirms nothing)."""
    return [s for s in seats if not s.player.is_builtin_bot]


def seat_of(seats: list[Seat], user: Any) -> Seat:
    """The account's seat at this table, or PermissionDenied for anyone else."""
    if getattr(user, "is_authenticated", False):
        for seat in seats:
            if seat.player.user_id == user.pk:
                return seat
    raise PermissionDenied(_("only the players of this table may do that"))


def over_the_table(event: Event, fixture: Fixture, seats: list[Seat]) -> bool:
    """Whether the table is played over the table (no online table counts it)."""
    return not fixture.table_ref and not (event.play_online and fixture_is_online(seats))


def takes_table_results(event: Event, fixture: Fixture, seats: list[Seat]) -> bool:
    """Whether players at this table may submit its result (before any result counts)."""
    return event.table_results and over_the_table(event, fixture, seats)


def needs_organizer(seats: list[Seat]) -> bool:
    """Somebody at the table has no account to confirm with: only an organizer can count it."""
    return any(s.player.user_id is None for s in persons(seats))


def _load(fixture: Fixture) -> tuple[Fixture, Event, list[Seat]]:
    """The fixture locked (one change at a time per table), its event and seats in order."""
    fixture = Fixture.objects.select_for_update().select_related("round__event").get(pk=fixture.pk)
    seats = list(fixture.seats.select_related("player").order_by("number"))
    return fixture, fixture.round.event, seats


def _check_open(event: Event, fixture: Fixture, seats: list[Seat]) -> None:
    require_open(event)
    if fixture.round.status != Round.Status.PUBLISHED:
        raise LeagueError(_("results can be entered only for a published round"))
    if fixture.results.filter(current=True).exists():
        raise LeagueError(
            _("table %(n)s has a result already; ask the organizer for a correction")
            % {"n": fixture.number}
        )


def _player_may_act(user: Any, fixture: Fixture) -> tuple[Fixture, Event, list[Seat], Seat]:
    fixture, event, seats = _load(fixture)
    seat = seat_of(seats, user)
    if not takes_table_results(event, fixture, seats):
        raise PermissionDenied(_("the organizer enters the results of this table"))
    _check_open(event, fixture, seats)
    return fixture, event, seats, seat


def _open(fixture: Fixture) -> list[ResultSubmission]:
    return list(
        ResultSubmission.objects.select_for_update()
        .filter(fixture=fixture, status__in=ResultSubmission.OPEN)
        .order_by("created_at", "pk")
    )


def _vote(submission: ResultSubmission, seat: Seat, agrees: bool, reason: str = "") -> None:
    SubmissionVote.objects.update_or_create(
        submission=submission,
        player=seat.player,
        defaults={"agrees": agrees, "reason": reason.strip()[:300]},
    )


def _count_if_agreed(
    submission: ResultSubmission, seats: list[Seat], fixture: Fixture
) -> Result | None:
    """Count the submission once every person at the table agrees (all with accounts)."""
    if needs_organizer(seats):
        return None
    agreed = set(submission.votes.filter(agrees=True).values_list("player_id", flat=True))
    if any(s.player_id not in agreed for s in persons(seats)):
        return None
    result = record_result(
        fixture,
        by=None,  # the system: the table's players agreed (authorized above)
        grid=submission.grid,
        grid_layout=submission.grid_layout,
        entered_by=submission.submitted_by.user,
        reason="",
    )
    _decide(submission, Status.COUNTED, result=result)
    return result


def _decide(
    submission: ResultSubmission, status: str, *, by: Any = None, result: Result | None = None
) -> None:
    submission.status = status
    submission.decided_at = timezone.now()
    submission.decided_by = by if getattr(by, "is_authenticated", False) else None
    submission.result = result
    submission.save(update_fields=["status", "decided_at", "decided_by", "result"])


@transaction.atomic
def submit_grid(
    fixture: Fixture, *, by: Any, grid: Any, layout: Any = catalogue.FULL_GRID
) -> ResultSubmission:
    """A seated player's grid for the table, in a layout (the full grid or final scores only).
    The same outcome as an open grid of another player is a confirmation of it, whatever its
    layout; a different one disputes every open grid; the player's own open grid is replaced.
    Refused (SheetProblems) if the rules refuse the grid."""
    fixture, event, seats, seat = _player_may_act(by, fixture)
    sheet = sheet_of_grid(event, grid, layout, n_seats=len(seats))
    scored = score_submission(fixture, sheet=sheet, forfeited_seats=[])
    open_ = _open(fixture)
    mine = next((s for s in open_ if s.submitted_by_id == seat.player_id), None)
    others = [s for s in open_ if s is not mine]
    same = next((s for s in others if s.scored == scored), None)
    if same is not None:
        if mine is not None:
            _decide(mine, Status.SET_ASIDE)
        _vote(same, seat, True)
        if same.status == Status.PENDING:
            _count_if_agreed(same, seats, fixture)
        return same
    if mine is not None:
        if mine.scored == scored and mine.grid == grid and mine.grid_layout == layout:
            raise LeagueError(_("this is the grid you submitted already"))
        _decide(mine, Status.SET_ASIDE)
    disputed = bool(others)
    submission = ResultSubmission.objects.create(
        fixture=fixture,
        submitted_by=seat.player,
        grid=grid,
        grid_layout=layout,
        sheet=sheet,
        scored=scored,
        status=Status.DISPUTED if disputed else Status.PENDING,
    )
    _vote(submission, seat, True)
    for other in others:
        _vote(other, seat, False, _("submitted a different grid"))
        if other.status != Status.DISPUTED:
            other.status = Status.DISPUTED
            other.save(update_fields=["status"])
    if not disputed:
        _count_if_agreed(submission, seats, fixture)
    submission.refresh_from_db()
    return submission


def _submission(submission: ResultSubmission) -> ResultSubmission:
    return ResultSubmission.objects.select_for_update().get(pk=submission.pk)


@transaction.atomic
def confirm_submission(submission: ResultSubmission, *, by: Any) -> ResultSubmission:
    """A seated player says a pending grid is right; the last confirmation counts it."""
    fixture, _event, seats, seat = _player_may_act(by, submission.fixture)
    submission = _submission(submission)
    if submission.status != Status.PENDING:
        raise LeagueError(_("this grid is not waiting for confirmation any more"))
    _vote(submission, seat, True)
    _count_if_agreed(submission, seats, fixture)
    submission.refresh_from_db()
    return submission


@transaction.atomic
def reject_submission(submission: ResultSubmission, *, by: Any, reason: str) -> ResultSubmission:
    """A seated player says a grid is wrong: it goes to the organizer to decide."""
    seat = _player_may_act(by, submission.fixture)[3]
    submission = _submission(submission)
    if submission.status not in ResultSubmission.OPEN:
        raise LeagueError(_("this grid is not open any more"))
    if submission.submitted_by_id == seat.player_id:
        raise LeagueError(_("you submitted this grid: withdraw it or submit a new one"))
    if not reason.strip():
        raise LeagueError(_("say what is wrong with it"))
    _vote(submission, seat, False, reason)
    if submission.status != Status.DISPUTED:
        submission.status = Status.DISPUTED
        submission.save(update_fields=["status"])
    return submission


@transaction.atomic
def withdraw_submission(submission: ResultSubmission, *, by: Any) -> ResultSubmission:
    """The player who submitted an open grid takes it back."""
    seat = _player_may_act(by, submission.fixture)[3]
    submission = _submission(submission)
    if submission.submitted_by_id != seat.player_id:
        raise PermissionDenied(_("only the player who submitted a grid may withdraw it"))
    if submission.status not in ResultSubmission.OPEN:
        raise LeagueError(_("this grid is not open any more"))
    _decide(submission, Status.SET_ASIDE)
    return submission


def _organizer_may_act(by: Any, submission: ResultSubmission) -> ResultSubmission:
    check_can_manage(by, submission.fixture.round.event)
    submission = _submission(submission)
    if submission.status not in ResultSubmission.OPEN:
        raise LeagueError(_("this grid is not open any more"))
    return submission


@transaction.atomic
def approve_submission(submission: ResultSubmission, *, by: Any) -> Result:
    """An organizer counts this grid as the table's result (the others are set aside)."""
    submission = _organizer_may_act(by, submission)
    result = record_result(
        submission.fixture,
        by=by,
        grid=submission.grid,
        grid_layout=submission.grid_layout,
        reason="",
        expected_version=0,
    )
    _decide(submission, Status.COUNTED, by=by, result=result)
    return result


@transaction.atomic
def set_aside_submission(submission: ResultSubmission, *, by: Any) -> ResultSubmission:
    """An organizer sets a grid aside (to enter the result themselves, or wait for a new one)."""
    submission = _organizer_may_act(by, submission)
    _decide(submission, Status.SET_ASIDE, by=by)
    return submission


def open_submissions(fixture: Fixture) -> list[ResultSubmission]:
    """The table's open grids, oldest first, with their votes and submitters loaded."""
    return list(
        ResultSubmission.objects.filter(fixture=fixture, status__in=ResultSubmission.OPEN)
        .select_related("submitted_by")
        .prefetch_related("votes__player")
        .order_by("created_at", "pk")
    )
