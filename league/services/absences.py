"""Absence as a result: an organizer marks seats of a published table absent, or takes a
no-show's absence back when the player arrives late (docs/league.md, "Absences").

An absence is counted by the deadline policy's own path, `results.record_forfeit`: the absent
seats forfeit (below everyone at the table), whom the format says win it (everyone who was
there, `Format.absence_winners`), and the deals played before the absence count as played —
their payouts, zero-sum each, go to the ledger — while the rest of the match pays nothing. So
the round closes as with any result, and a duplicate section scores the rest of the table's
deals by the spec's forfeit rule (`duplicate_scoring`: the table stopped, its absent seats
stopped it).

Where the deals played come from: an online table's own record — the live table is stopped
through `gameplay.api.stop_table`, so it does not wait for the absent player forever — or,
over the table, the score grid (or sheet) of the deals typed so far. Every write is authorized
here (the event's organizers); a refusal changes nothing, the stopped table included (one
transaction).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay import api as gameplay
from games import catalogue
from league.errors import LeagueConflict, LeagueError, LeagueFault
from league.models import Event, Fixture, LedgerEntry, Result, Seat
from league.services import actions, event_end
from league.services.permissions import check_can_manage
from league.services.results import (
    DealsPlayed,
    record_forfeit,
    score_submission,
    sheet_of_grid,
)
from league.services.rounds import fixture_is_online, start_fixture_table
from league.services.standings import deals_played, touch_standings


def _locked(fixture: Fixture) -> tuple[Fixture, Event, list[Seat]]:
    """The fixture under its row lock (one change at a time per table), its event, its seats
    in seat order with their players."""
    fixture = Fixture.objects.select_for_update().select_related("round__event").get(pk=fixture.pk)
    seats = list(fixture.seats.select_related("player").order_by("number"))
    return fixture, fixture.round.event, seats


def _counting(fixture: Fixture) -> Result | None:
    return fixture.results.filter(current=True).first()


def check_seats(seats: Any, table: list[Seat]) -> list[int]:
    """The absent seats, sorted, or LeagueError: seat numbers of this table, each a person's
    (a built-in bot is never absent), and not every seat."""
    if not isinstance(seats, list) or not seats:
        raise LeagueError(_("say which seats are absent"))
    if any(isinstance(s, bool) or not isinstance(s, int) for s in seats):
        raise LeagueError(_("seats are given by their numbers"))
    numbers = sorted(set(seats))
    for number in numbers:
        if number not in range(len(table)):
            raise LeagueError(
                _("seat %(seat)s is not a seat of this table (seats 0 to %(last)s)")
                % {"seat": number, "last": len(table) - 1}
            )
        if table[number].player.is_builtin_bot:
            raise LeagueError(
                _("seat %(seat)s is a bot's: a bot is never absent") % {"seat": number}
            )
    if len(numbers) == len(table):
        raise LeagueError(_("somebody must have come: not every seat can be absent"))
    return numbers


def _after(after_deal: Any, n_deals: int) -> int:
    """`after_deal` as a number of deals: None (or 0) is before the first deal."""
    if after_deal is None:
        return 0
    if isinstance(after_deal, bool) or not isinstance(after_deal, int) or after_deal < 0:
        raise LeagueError(_("after_deal is the number of deals played before the absence"))
    if after_deal > n_deals:
        raise LeagueError(
            ngettext(
                "matches here last %(n)s deal: no absence after deal %(k)s",
                "matches here last %(n)s deals: no absence after deal %(k)s",
                n_deals,
            )
            % {"n": n_deals, "k": after_deal}
        )
    return after_deal


def _beyond(after: int, played: int) -> LeagueError:
    return LeagueError(
        ngettext(
            "only %(played)s deal was played at this table: no absence after deal %(k)s",
            "only %(played)s deals were played at this table: no absence after deal %(k)s",
            played,
        )
        % {"played": played, "k": after}
    )


def _online_deals(fixture: Fixture, event: Event, absent: list[int], after: int) -> DealsPlayed:
    """Stop the live table (its absent seats forfeit) and take its first `after` deals."""
    record = gameplay.stop_table(fixture.table_ref, absent)
    if record is None:
        raise LeagueConflict(
            _("the online match at table %(n)s is over: its result counts (correct it instead)")
            % {"n": fixture.number}
        )
    try:
        scored = catalogue.score_record(record, n_deals=event.deals_for(len(record["players"])))
    except catalogue.RecordError as exc:  # the table's own record: a bug, never the user's
        raise LeagueFault(f"table {fixture.table_ref}: its record does not score: {exc}") from None
    played = deals_played(scored, sheet=False)
    if after > played:
        raise _beyond(after, played)
    return DealsPlayed(deals=tuple(scored["deals"][:after]), record=record)


def _typed_deals(
    fixture: Fixture, event: Event, absent: list[int], after: int, grid: Any, sheet: Any
) -> DealsPlayed:
    """The first `after` deals of the grid (or sheet) typed so far, checked by the rules."""
    if grid is not None and sheet is not None:
        raise LeagueError(_("give the deals played as a score grid or as a score sheet, not both"))
    if grid is None and sheet is None:
        if after:
            raise LeagueError(
                _(
                    "this table is played over the table: give the score grid of the deals "
                    "played before the absence"
                )
            )
        return DealsPlayed()
    if grid is not None:
        sheet = sheet_of_grid(event, grid, n_seats=fixture.seats.count())
    scored = score_submission(fixture, sheet=sheet, forfeited_seats=absent)
    if scored["complete"]:
        raise LeagueError(_("these deals are the whole match: enter its result instead"))
    if after > len(scored["deals"]):
        raise _beyond(after, len(scored["deals"]))
    return DealsPlayed(deals=tuple(scored["deals"][:after]), sheet=sheet, grid=grid)


@transaction.atomic
def mark_absent(
    fixture: Fixture,
    *,
    by: Any,
    seats: Any,
    after_deal: Any = None,
    grid: Any = None,
    sheet: Any = None,
) -> Result:
    """Count the table's result as an absence of `seats` (table seat numbers) after deal
    `after_deal` (None or 0: before the first deal, a no-show) and return it.

    An online table's deals come from the table, which is stopped now; an over-the-table
    one's from `grid` or `sheet` (the deals typed so far; needed only after a deal). Refused
    (LeagueError, nothing changed) for bad seats, a deal beyond those played, a round not
    published or a closed event; a table that has a result already, or whose online match has
    ended, is a LeagueConflict.
    """
    check_can_manage(by, fixture.round.event)
    fixture, event, table = _locked(fixture)
    if _counting(fixture) is not None:
        raise LeagueConflict(
            _("table %(n)s already has a result; enter a correction with a reason")
            % {"n": fixture.number}
        )
    actions.check(by, event, "mark_absent", fixture)
    absent = check_seats(seats, table)
    after = _after(after_deal, event.deals_for(len(table)))
    if fixture.table_ref:
        if grid is not None or sheet is not None:
            raise LeagueError(_("this table is played online: its deals come from the table"))
        played = _online_deals(fixture, event, absent, after)
    elif event.play_online and fixture_is_online(table):
        if grid is not None or sheet is not None or after:
            raise LeagueError(_("nothing has been played at this table: it was never opened"))
        played = DealsPlayed()
    else:
        played = _typed_deals(fixture, event, absent, after, grid, sheet)
    return record_forfeit(
        fixture,
        absent,
        reason=_absence_reason(table, absent, after),
        played=played,
        source=Result.Source.ABSENCE,
        by=by,
    )


def _absence_reason(table: list[Seat], absent: list[int], after: int) -> str:
    """The history's "why" of an absence, in the words of the organizer's language."""
    names = ", ".join(table[s].player.name for s in absent)
    if not after:
        return _("absent: %(names)s") % {"names": names}
    return _("absent after deal %(k)s: %(names)s") % {"k": after, "names": names}


def undo_problem(fixture: Fixture, result: Result | None) -> str | None:
    """Why the table's absence cannot be taken back (beyond what the rule `undo_absence` of
    `league.services.actions` says): a deal was played at its online table, or its duplicate
    section is complete (its deals are public now). None if it can."""
    if result is None:
        return None
    if result.record is not None:
        scored = catalogue.score_record(result.record)
        if deals_played(scored, sheet=False):
            return _("a deal was played at the online table: the absence stands")
        if fixture.section_id and any(d.get("actions") for d in result.record.get("deals", [])):
            # A duplicate table is dealt its section's cards again: none may have been seen.
            return _("play had begun at this duplicate table: the absence stands")
    if fixture.section_id and fixture.section.completed_at is not None:
        return _("the results of this table's section are published: the absence stands")
    return None


@transaction.atomic
def undo_absence(fixture: Fixture, *, by: Any) -> Fixture:
    """Take back the table's absence (a late arrival before the first deal): the result no
    longer counts (kept in the history), and the fixture is open again — an online table of
    a synchronous event is started afresh, an asynchronous one waits to be opened again.

    Refused (LeagueError, nothing changed) unless the counting result is an organizer's
    absence that counted no deal, with no deal played at its table, in an open event whose
    next round (in a format that plans from results) was not made from it yet.
    """
    check_can_manage(by, fixture.round.event)
    fixture, event, table = _locked(fixture)
    result = _counting(fixture)
    fixture.counting = [result] if result is not None else []
    actions.check(by, event, "undo_absence", fixture)
    if why := undo_problem(fixture, result):
        raise LeagueError(why)
    Result.objects.filter(pk=result.pk).update(current=False)
    LedgerEntry.objects.filter(result=result).delete()  # none: no deal counted
    if fixture.table_ref:
        if event.asynchronous:
            fixture.table_ref, fixture.opened_at = "", None
        else:
            fixture.table_ref = start_fixture_table(event, fixture, table)
        fixture.save(update_fields=["table_ref", "opened_at"])
    touch_standings(event.pk)
    event_end.settle(event)  # the absence may have ended the event: it runs again
    return fixture
