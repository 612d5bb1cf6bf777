"""Duplicate events' travellers (shared/spec/duplicate.md, "What is published"): a page per deal
of a round, and the round's travellers as CSV.

A traveller is the deal's hands, then one line per table of the section (by fixture number): its
players by seat, the contract or outcome, and each seat's payout, difference, matchpoints and
percentage; then the datum per seat. Pages round half to even to 2 places, the CSV to 6. A
section still being played is withheld (its tables listed, nothing else) from everyone but an
organizer who plays in none of the event's rounds. A fixed number of queries per page.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from league import csv_safe
from league.models import Event, Round
from league.pages.events import visible_event
from league.services import duplicate_scoring
from league.services.permissions import can_manage
from league.standings.duplicate_arithmetic import API_PLACES, PAGE_PLACES, round_half_even


def duplicate_round(request: HttpRequest, slug: str, number: int) -> tuple[Event, Round]:
    """The event and round, or 404: not a duplicate event, a round that is not there, a draft
    round for anyone who may not manage the event."""
    event = visible_event(request, slug)
    if not event.is_duplicate:
        raise Http404("this event is not scored in duplicate")
    round_ = get_object_or_404(Round, event=event, number=number)
    if round_.status != Round.Status.PUBLISHED and not can_manage(request.user, event):
        raise Http404("this round is not published yet")
    return event, round_


def _shown(x: Fraction | int | None, places: int = PAGE_PLACES) -> str:
    return "" if x is None else str(round_half_even(x, places))


def _cell(x: Fraction | int | None) -> Decimal | str:
    """A CSV cell: a number of 6 places (the safe writer leaves numbers alone), or empty."""
    return "" if x is None else round_half_even(x, API_PLACES)


def traveller_section(
    event: Event, section: duplicate_scoring.LoadedSection, deal: int, visible: bool
) -> dict[str, Any]:
    """One section's traveller for deal `deal` (from 0), as the page shows it."""
    out: dict[str, Any] = {
        "number": section.number,
        "visible": visible,
        "tables": [t.number for t in section.tables],
    }
    if not visible or section.scores is None:
        return out
    hands = duplicate_scoring.section_hands(event, section)
    traveller = section.scores.travellers[deal]
    lines = []
    for table, row in zip(section.tables, traveller.tables, strict=True):
        outcomes = duplicate_scoring.table_outcomes(table)
        lines.append(
            {
                "fixture_id": table.fixture_id,
                "number": table.number,
                "seats": table.seats,
                "completed": row.completed,
                "outcome": outcomes[deal] if row.completed and deal < len(outcomes) else "",
                "cells": [
                    {
                        "payout": "" if row.payouts is None else row.payouts[s],
                        "difference": _shown(row.differences[s]),
                        "matchpoints": _shown(
                            None if row.matchpoints is None else row.matchpoints[s]
                        ),
                        "percentage": _shown(row.percentages[s]),
                    }
                    for s in range(len(table.seats))
                ],
            }
        )
    out.update(
        {
            "hands": (hands[deal] if hands and deal < len(hands) else None),
            "datum": [_shown(d) for d in traveller.datum],
            "lines": lines,
        }
    )
    return out


@require_GET
def traveller(request: HttpRequest, slug: str, number: int, deal: int) -> HttpResponse:
    """Deal `deal` (from 1, as pages count) of the round: one traveller per section."""
    event, round_ = duplicate_round(request, slug, number)
    if not 1 <= deal <= event.deals_per_match:
        raise Http404("no such deal")
    sections = duplicate_scoring.load_sections(event, round_=round_, with_records=True)
    visible = duplicate_scoring.visible_sections(request.user, event, sections)
    seats = max((len(t.seats) for s in sections for t in s.tables), default=0)
    context = {
        "event": event,
        "round": round_,
        "deal": deal,
        "deals": range(1, event.deals_per_match + 1),
        "seat_numbers": range(seats),
        "sections": [
            traveller_section(event, s, deal - 1, v) for s, v in zip(sections, visible, strict=True)
        ],
    }
    return render(request, "league/traveller.html", context)


CSV_HEADER = [
    "section", "deal", "table", "fixture_id", "seat", "player_id", "player", "is_bot",
    "completed", "payout", "difference", "matchpoints", "percentage", "datum",
]  # fmt: skip


@require_GET
def travellers_csv(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every deal's traveller of the round, one row per deal, table and seat (deals from 1, as a
    person reads it; 6 places, half to even). A section still being played has no rows."""
    event, round_ = duplicate_round(request, slug, number)
    sections = duplicate_scoring.load_sections(event, round_=round_)
    visible = duplicate_scoring.visible_sections(request.user, event, sections)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"{event.slug}-round{round_.number}-travellers.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv_safe.writer(response)  # player names are anyone's text: no formulas
    writer.writerow(CSV_HEADER)
    for section, shown in zip(sections, visible, strict=True):
        if not shown or section.scores is None:
            continue
        for trav in section.scores.travellers:
            for table, row in zip(section.tables, trav.tables, strict=True):
                for seat in table.seats:
                    s = seat.number
                    mp = None if row.matchpoints is None else row.matchpoints[s]
                    writer.writerow(
                        [
                            section.number,
                            trav.deal + 1,
                            table.number,
                            table.fixture_id,
                            s,
                            seat.player_id,
                            seat.name,
                            int(seat.is_bot),
                            int(row.completed),
                            "" if row.payouts is None else row.payouts[s],
                            _cell(row.differences[s]),
                            _cell(mp),
                            _cell(row.percentages[s]),
                            _cell(trav.datum[s]),
                        ]
                    )
    return response
