"""Entering, correcting and counting fixture results; writing the zero-sum ledger."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalogue
from league import queue, scheduling
from league.errors import LeagueConflict, LeagueError, LeagueFault, ResultChanged
from league.models import Fixture, LedgerEntry, Result, ResultSubmission, Round, Seat
from league.services import advancing, duplicate_scoring, event_end
from league.services.entering import check_format
from league.services.events import require_open
from league.services.notifications import notify
from league.services.permissions import check_can_manage
from league.services.standings import touch_standings


class SheetProblems(LeagueError):
    """A score sheet or grid the rules refuse. The message is the API's (deals from 0, as records
    count); `problems` keep each one's deal (from 0), field, seat and reason apart, so a page
    shows them beside the inputs, deals numbered from 1."""

    def __init__(self, message: str, problems: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.problems = problems


def sheet_of_grid(
    event: Any, grid: Any, layout: Any = catalogue.FULL_GRID, *, n_seats: int | None = None
) -> dict[str, Any]:
    """The score sheet a grid of this layout stands for under the event's game and variant, at
    a table of `n_seats` (a table of four: the sitter's cells blank), or SheetProblems naming
    every field that is wrong (or the layout, if the game has no such)."""
    if _has_nul(grid) or _has_nul(layout):
        raise LeagueError(_("the score grid contains a NUL character"))
    sheet, problems = catalogue.grid_sheet(event.game, event.variant, grid, layout, n_seats)
    if problems:
        raise SheetProblems("score grid: " + "; ".join(p["message"] for p in problems), problems)
    return sheet


def _has_nul(value: Any) -> bool:
    """Whether a parsed JSON value holds a NUL character (PostgreSQL cannot store one)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _check_record_matches_fixture(fixture: Fixture, record: Any, names: list[str]) -> None:
    event = fixture.round.event
    if not isinstance(record, dict):
        raise LeagueError("the record must be a JSON object")
    if record.get("game") != event.game:
        theirs = record.get("game")
        theirs = catalogue.display_name(theirs) if isinstance(theirs, str) else repr(theirs)
        raise LeagueError(f"this record is a {theirs} game; the event plays {event.game_name}")
    players = record.get("players")
    if players != names:
        # Required: without the names a record of any other table of the event would count here.
        raise LeagueError(
            f"the record's players {players!r} are not this table's seats {names} (in seat order)"
        )
    try:
        variant = catalogue.validate_variant(event.game, record.get("variant") or {})
    except catalogue.VariantError as exc:
        raise LeagueError(f"record: {exc}") from None
    if variant != event.variant:
        raise LeagueError("the record's variant flags differ from the event's")
    if record.get("dealer") != 0:
        raise LeagueError("seat 0 deals first at this table: the record's dealer must be 0")
    n_deals = event.deals_for(len(names))
    if len(record.get("deals") or []) > n_deals:
        raise LeagueError(
            f"the record has {len(record['deals'])} deals; matches here last {n_deals}"
        )


def score_submission(
    fixture: Fixture, *, record: Any = None, sheet: Any = None, forfeited_seats: list[int]
) -> dict[str, Any]:
    """Validate a record or a score sheet for this fixture and score it (records.md shape)."""
    if (record is None) == (sheet is None):
        raise LeagueError("give either a game record or a score sheet")
    if _has_nul(record) or _has_nul(sheet):
        raise LeagueError("the record or score sheet contains a NUL character")
    event = fixture.round.event
    names = [seat.player.name for seat in fixture.seats.all()]
    n_deals = event.deals_for(len(names))  # a table of four plays 4/3 as many
    if record is not None:
        _check_record_matches_fixture(fixture, record, names)
        try:
            scored = catalogue.score_record(record, n_deals=n_deals)
        except catalogue.RecordError as exc:
            raise LeagueError(f"illegal record: {exc}") from None
    else:
        try:
            scored = catalogue.score_sheet(
                event.game,
                event.variant,
                sheet,
                dealer=0,
                n_seats=len(names),
                n_deals=n_deals,
            )
        except catalogue.EngineError as exc:
            problem = {
                "deal": getattr(exc, "deal", None),
                "field": getattr(exc, "field", None),
                "seat": getattr(exc, "seat", None),
                "reason": getattr(exc, "reason", str(exc)),
                "message": str(exc),
            }
            raise SheetProblems(f"score sheet: {exc}", [problem]) from None
        if len(scored["deals"]) > n_deals:
            raise LeagueError(f"matches here last {n_deals} deals")
    if not scored["complete"] and not forfeited_seats:
        raise LeagueError("the match is not finished; only a forfeit can end it early")
    if any(s not in range(len(names)) for s in forfeited_seats):
        raise LeagueError("a forfeited seat is not a seat of this table")
    if len(forfeited_seats) >= len(names):
        raise LeagueError("somebody at the table must not have forfeited")
    return scored


@transaction.atomic
def record_result(
    fixture: Fixture,
    *,
    by: Any,
    record: Any = None,
    sheet: Any = None,
    grid: Any = None,
    grid_layout: Any = catalogue.FULL_GRID,
    forfeited_seats: list[int] | None = None,
    reason: str = "",
    correction: bool = False,
    source: str | None = None,
    expected_version: int | None = None,
    entered_by: Any = None,
) -> Result:
    """Count a result for the fixture: a first result, or (with a reason) a correction.

    `by` is the organizer entering it, authorized here; `None` is the system itself (the
    receiver that counts a finished online table), for internal callers only: pages and the
    API always pass the requesting account, which may be anonymous, never None.

    Posting a second result without `correction` is refused; a correction makes a new version
    that counts instead of the old one (kept in the history). The ledger always reflects the
    counting version. `expected_version` (0: no result yet) is the version the person saw: a
    result that changed since (a second click, another organizer) is refused, not overwritten.
    A correction identical to the counting result (the same outcome and forfeits, and the same
    grid if one is typed) is refused: it would make a version that changes nothing.

    `grid` (score-grid rows, instead of a sheet, laid out as `grid_layout`: the full grid or
    final scores only) is converted to its sheet and kept with the result and its layout, so a
    correction opens filled in. `entered_by` is who typed it when `by` is the
    system (a grid confirmed at the table, league.services.table_results). Counting a result
    sets aside the table's open submissions from the table.
    """
    if by is not None:
        check_can_manage(by, fixture.round.event)
    fixture = Fixture.objects.select_for_update().select_related("round__event").get(pk=fixture.pk)
    event = fixture.round.event
    require_open(event)
    if fixture.round.status != Round.Status.PUBLISHED:
        raise LeagueError("results can be entered only for a published round")
    forfeited_seats = sorted(set(forfeited_seats or []))
    current = fixture.results.filter(current=True).first()
    if current and not correction:
        if expected_version == 0:  # the person saw no result: one was counted meanwhile
            raise _changed(fixture, current.version)
        raise LeagueError(
            f"table {fixture.number} already has a result; enter a correction with a reason"
        )
    if correction and not current:
        raise LeagueError(f"table {fixture.number} has no result to correct")
    now = current.version if current else 0
    if expected_version is not None and expected_version != now:
        raise _changed(fixture, now)
    if correction and not reason.strip():
        raise LeagueError("say why the result is corrected")
    if grid is not None:
        if record is not None or sheet is not None:
            raise LeagueError(_("give either a game record, a score sheet or a score grid"))
        sheet = sheet_of_grid(event, grid, grid_layout, n_seats=fixture.seats.count())
    else:
        grid_layout = catalogue.FULL_GRID
    scored = score_submission(fixture, record=record, sheet=sheet, forfeited_seats=forfeited_seats)
    if current and _same_as(current, scored, forfeited_seats, grid, grid_layout):
        raise LeagueError(
            _(
                "this correction is the result that counts already (version %(v)s): nothing "
                "would change"
            )
            % {"v": current.version}
        )
    if current and event.round_set.filter(number__gt=fixture.round.number).exists():
        _check_advancers_kept(fixture, scored, forfeited_seats)
    if current:
        Result.objects.filter(pk=current.pk).update(current=False)
        LedgerEntry.objects.filter(result=current).delete()
    version = next_version(fixture)
    result = Result.objects.create(
        fixture=fixture,
        version=version,
        current=True,
        source=source or (Result.Source.RECORD if record is not None else Result.Source.SHEET),
        record=record,
        sheet=sheet,
        grid=grid,
        grid_layout=grid_layout,
        scored=scored,
        forfeited_seats=forfeited_seats,
        entered_by=by if getattr(by, "is_authenticated", False) else entered_by,
        reason=reason.strip(),
    )
    ResultSubmission.objects.filter(fixture=fixture, status__in=ResultSubmission.OPEN).update(
        status=ResultSubmission.Status.SET_ASIDE,
        decided_at=timezone.now(),
        decided_by=by if getattr(by, "is_authenticated", False) else None,
    )
    write_ledger(result)
    touch_standings(event.pk)
    # A table of a duplicate section still being played is held (rated and notified when the
    # section completes, all at once): league.services.duplicate_scoring.
    held = duplicate_scoring.count_in_section(fixture)
    # The last result finishes the event (its section complete first: the podium counts it).
    event_end.settle(event)
    for counted in [result] if held is None else held:
        queue.rate_result(counted.pk)  # robust: a broker that is down is no 500 (a sweep too)
        notify_result(counted.fixture, counted)
    return result


def _changed(fixture: Fixture, now: int) -> ResultChanged:
    """Another result was counted since the person loaded the form (version `now`)."""
    return ResultChanged(
        _(
            "Another result of table %(n)s was counted while you were entering yours (it is "
            "version %(version)s now): yours was not saved. Check the result that counts; if "
            "yours is right, save it as a correction with a reason."
        )
        % {"n": fixture.number, "version": now},
        version=now,
    )


def next_version(fixture: Fixture) -> int:
    """The version a new result of the fixture gets: after every one it ever had, counting or
    not (an absence taken back leaves its version in the history)."""
    last = fixture.results.order_by("-version").values_list("version", flat=True).first()
    return (last or 0) + 1


def _same_as(
    current: Result, scored: dict[str, Any], forfeited: list[int], grid: Any, layout: str
) -> bool:
    """Whether a correction would count exactly what counts now (the same grid in the same
    layout, when one is typed)."""
    same = current.scored == scored and sorted(current.forfeited_seats or []) == forfeited
    return same and (grid is None or (grid == current.grid and layout == current.grid_layout))


def notify_result(fixture: Fixture, result: Result) -> int:
    """Tell the table's players with accounts that its result counts (or was corrected)."""
    event = fixture.round.event
    users = Seat.objects.filter(fixture=fixture, player__user__isnull=False).values_list(
        "player__user_id", flat=True
    )
    return notify(
        users,
        "result_corrected" if result.version > 1 else "result_entered",
        key=f"result:{result.pk}",
        event=event,
        url=reverse("league:round", args=[event.slug, fixture.round.number]),
        context={
            "round": fixture.round.number,
            "table": fixture.number,
            "reason": result.reason,
        },
    )


@dataclass(frozen=True)
class DealsPlayed:
    """What a match that stopped at an absence played first: the deals that count (each
    finished, `score_record`'s shape: scores and payouts per seat) and what they were read
    from — the online table's record as it stopped, or the sheet or grid typed so far."""

    deals: tuple[dict[str, Any], ...] = ()
    record: dict[str, Any] | None = None
    sheet: dict[str, Any] | None = None
    grid: list[Any] | None = None


DEADLINE = DealsPlayed(sheet={"deals": [], "forfeit": "deadline"})


def forfeit_scored(event: Any, n_seats: int, absent: list[int], deals: Sequence[dict]) -> dict:
    """A match that stopped at an absence as it counts: the deals played (their payouts sum to
    zero, each), their totals, and as winners whom the event's format says win it (everyone
    who was there, by default: `Format.absence_winners`). Never complete."""
    winners = check_format(event.format).absence_winners(n_seats, frozenset(absent))
    return {
        "game": event.game,
        "complete": False,
        "deals": list(deals),
        "totals": {
            key: [sum(deal[key][s] for deal in deals) for s in range(n_seats)]
            for key in ("scores", "payouts")
        },
        "winners": sorted(winners),
    }


@transaction.atomic
def record_forfeit(
    fixture: Fixture,
    forfeited_seats: list[int],
    *,
    reason: str,
    played: DealsPlayed = DEADLINE,
    source: str = Result.Source.SHEET,
    by: Any = None,
) -> Result:
    """Count a match that stopped because the `forfeited_seats` were absent: they forfeit, the
    others win (the format's `absence_winners`), the deals `played` before it count as played
    (their ledger rows, zero-sum each) and the rest of the match pays nothing.

    Two callers, the system's own: an asynchronous event's deadline policy (nothing played, no
    account: its players hear of it from the policy) and an organizer's absence
    (`league.services.absences`, which authorized `by` and checked the seats; the players are
    told as of any result). Never a page's or the API's directly."""
    fixture = Fixture.objects.select_for_update().select_related("round__event").get(pk=fixture.pk)
    event = fixture.round.event
    require_open(event)
    if fixture.results.filter(current=True).exists():
        raise LeagueConflict(
            _("table %(n)s already has a result; enter a correction with a reason")
            % {"n": fixture.number}
        )
    n = fixture.seats.count()
    forfeited = sorted(set(forfeited_seats))
    if not forfeited or any(s not in range(n) for s in forfeited):
        raise LeagueFault(f"forfeited seats {forfeited} for a table of {n}")
    entered_by = by if getattr(by, "is_authenticated", False) else None
    result = Result.objects.create(
        fixture=fixture,
        version=next_version(fixture),
        current=True,
        source=source,
        record=played.record,
        sheet=played.sheet,
        grid=played.grid,
        scored=forfeit_scored(event, n, forfeited, played.deals),
        forfeited_seats=forfeited,
        absent_seats=forfeited,
        entered_by=entered_by,
        reason=reason[:300],
    )
    ResultSubmission.objects.filter(fixture=fixture, status__in=ResultSubmission.OPEN).update(
        status=ResultSubmission.Status.SET_ASIDE, decided_at=timezone.now(), decided_by=entered_by
    )
    write_ledger(result)
    touch_standings(event.pk)
    held = duplicate_scoring.count_in_section(fixture)
    event_end.settle(event)
    for counted in [result] if held is None else held:
        queue.rate_result(counted.pk)
        if by is not None or counted.pk != result.pk:  # the policy tells its own players
            notify_result(counted.fixture, counted)
    return result


def table_result(
    seats: Sequence[Seat], scored: dict[str, Any], absent: Sequence[int] = ()
) -> scheduling.TableResult:
    """A table's counted result as the formats read it (`seats` in seat order, players loaded;
    `absent` its absent seats).

    One translation for every reader: `league.services.advancing` (who goes on, and whether
    a correction would change that)."""
    return advancing.table_result(seats, scored, absent)


def _check_advancers_kept(fixture: Fixture, after: dict[str, Any], forfeited: list[int]) -> None:
    """Once the next round exists, a correction may not change who went on from this round
    (a knockout's next round was planned from it: its table goers, and its best non-winners,
    whom a corrected payout can move). The event's format says who advances; formats that do
    not pick (league, Swiss) never refuse."""
    if not advancing.correction_keeps_who_went_on(fixture, after, forfeited):
        raise LeagueError(
            f"round {fixture.round.number + 1} was planned from this round's results; a "
            f"correction that changes who advances cannot be counted now"
        )


def ledger_rows(result: Result) -> list[LedgerEntry]:
    """The ledger rows of a result, checked zero-sum per deal before anything is written. A
    table of four's sitter has no row for the deal he sat out (he did not play it)."""
    fixture = result.fixture
    seats = {seat.number: seat.player_id for seat in fixture.seats.all()}
    rows = []
    for deal_no, deal in enumerate(result.scored["deals"]):
        payouts, scores = deal["payouts"], deal["scores"]
        if len(payouts) != len(seats) or len(scores) != len(seats):
            raise LeagueFault(f"deal {deal_no} has {len(payouts)} payouts for {len(seats)} seats")
        if sum(payouts) != 0:
            raise LeagueFault(f"deal {deal_no} payouts {payouts} do not sum to zero")
        for seat_no, player_id in seats.items():
            if deal.get("sitter") == seat_no:
                continue
            rows.append(
                LedgerEntry(
                    event_id=fixture.round.event_id,
                    round_id=fixture.round_id,
                    fixture=fixture,
                    result=result,
                    player_id=player_id,
                    deal=deal_no,
                    seat=seat_no,
                    score=scores[seat_no],
                    payout=payouts[seat_no],
                )
            )
    return rows


def write_ledger(result: Result) -> None:
    LedgerEntry.objects.bulk_create(ledger_rows(result))
