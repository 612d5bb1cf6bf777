"""Results from the table on the round and fixture pages (docs/league.md, "Results from the
table"): which tables a player may enter the grid of, and which have grids waiting.

`{% round_table_results round as tr %}` once per round page (two queries whatever the number of
tables), then `{% with s=tr|for_fixture:t.fixture.pk %}` per table; `{% fixture_table_result
fixture %}` on a fixture's page.
"""

from __future__ import annotations

from typing import Any

from django import template

from league.models import Fixture, ResultSubmission, Round, Seat
from league.services.table_results import takes_table_results

register = template.Library()


def _status(fixture_id: int, subs: list[ResultSubmission]) -> str:
    mine = [s for s in subs if s.fixture_id == fixture_id]
    if any(s.status == ResultSubmission.Status.DISPUTED for s in mine):
        return "disputed"
    return "pending" if mine else ""


@register.simple_tag(takes_context=True)
def round_table_results(context: dict[str, Any], round_: Round) -> dict[int, dict[str, Any]]:
    """Per fixture of the round: whether the user may submit its grid, and its open grids'
    status ("pending", "disputed" or "")."""
    event = round_.event
    if not event.table_results or round_.status != Round.Status.PUBLISHED:
        return {}
    user = context.get("user")
    fixtures = list(round_.fixtures.filter(results__isnull=True).prefetch_related("seats__player"))
    subs = list(
        ResultSubmission.objects.filter(
            fixture__round=round_, status__in=ResultSubmission.OPEN
        ).only("fixture_id", "status")
    )
    out = {}
    for fixture in fixtures:
        seats: list[Seat] = list(fixture.seats.all())
        seated = bool(
            user and user.is_authenticated and any(s.player.user_id == user.pk for s in seats)
        )
        out[fixture.pk] = {
            "can_submit": seated and takes_table_results(event, fixture, seats),
            "status": _status(fixture.pk, subs),
        }
    return out


@register.filter
def for_fixture(states: dict[int, dict[str, Any]], fixture_id: int) -> dict[str, Any]:
    return states.get(fixture_id, {})


@register.inclusion_tag("league/_table_result.html", takes_context=True)
def fixture_table_result(context: dict[str, Any], fixture: Fixture) -> dict[str, Any]:
    """The fixture page's box: enter or confirm the grid (seated players), or a note that
    grids wait for the organizer."""
    event = fixture.round.event
    user = context.get("user")
    seats = list(fixture.seats.all())
    result = fixture.results.filter(current=True).exists()
    takes = not result and takes_table_results(event, fixture, seats)
    seated = bool(
        user and user.is_authenticated and any(s.player.user_id == user.pk for s in seats)
    )
    subs = (
        list(
            fixture.submissions.filter(status__in=ResultSubmission.OPEN).only(
                "status", "fixture_id"
            )
        )
        if takes
        else []
    )
    return {
        "event": event,
        "fixture": fixture,
        "takes": takes,
        "seated": seated,
        "manager": context.get("manager", False),
        "status": _status(fixture.pk, subs),
    }
