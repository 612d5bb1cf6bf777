"""Paper for events played over the table: a round's score sheets, one printed page per table.

Each sheet carries the event, the round, the table's number, its players in seat order and the
game's blank score grid: one row per deal (numbered from 1) and a totals row. The grid's columns
come from the game's own sheet description (`catalogue.sheet_grid`, the fields the result form
asks for), so nothing here names a game; a payout per seat closes each row for the running score.
The pairings and the standings print from their own pages (`static/css/print.css`).
A duplicate event's round also prints its hand records (`round_hands`): the cards of each deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from accounts.preferences import card_faces
from gameplay.api import rank_label
from games import catalogue
from league.models import Event, Fixture, Round, Seat
from league.services.duplicate_scoring import sees_everything
from league.services.permissions import can_manage, can_see
from league.services.sections import section_deals


def _tr(text: str) -> str:
    return _(text) if text else ""


def _when_text(when: Sequence[Sequence[Any]], fields: Mapping[str, Mapping[str, Any]]) -> str:
    """When a field is asked, as a reader of the sheet reads it: "only if Grand Hand is ticked"."""
    parts = []
    for name, value in when:
        field = fields.get(name, {})
        label = _tr(field.get("label", "")) or name
        if field.get("kind") == "bool":
            text = _("%(field)s is ticked") if value else _("%(field)s is not ticked")
            parts.append(text % {"field": label})
            continue
        shown = next((_tr(lab) for v, lab in field.get("choices", []) if v == value), str(value))
        parts.append(_("%(field)s is %(value)s") % {"field": label, "value": shown})
    return _("only if %(conditions)s") % {"conditions": _(" and ").join(parts)}


def _notes(field: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]], n: int) -> list[str]:
    """What the sheet's key says of one column: its help, what may be written, when it is asked."""
    notes = [_tr(field["help"])] if field["help"] else []
    kind = field["kind"]
    if kind == "choice":
        choices = ", ".join(_tr(label) for _value, label in field["choices"])
        notes.append(_("one of: %(choices)s") % {"choices": choices})
    elif kind == "seat":
        notes.append(_("a seat's number, 1 to %(last)s") % {"last": n})  # as the sheet numbers them
    elif kind == "bool":
        notes.append(_("tick if so"))
    elif field["min"] is not None and field["max"] is not None:
        notes.append(_("from %(min)s to %(max)s") % {"min": field["min"], "max": field["max"]})
    if field["sum"] is not None:
        notes.append(_("add up to %(sum)s over the seats") % {"sum": field["sum"]})
    if field["optional"]:
        blank = _tr(field["blank"])
        notes.append(
            _("may stay blank: %(blank)s") % {"blank": blank} if blank else _("may stay blank")
        )
    if field["when"]:
        notes.append(_when_text(field["when"], fields))
    return notes


def _key(
    fields: Sequence[Mapping[str, Any]], by_name: Mapping[str, Mapping[str, Any]], n: int
) -> list[dict[str, Any]]:
    """The sheet's key, a line per column with notes; columns whose notes are the same share
    one line ("Round 1, Round 2: …")."""
    lines: list[dict[str, Any]] = []
    for field in fields:
        notes = _notes(field, by_name, n)
        if not notes:
            continue
        if lines and lines[-1]["notes"] == notes:
            lines[-1]["labels"].append(_tr(field["label"]))
            continue
        lines.append({"labels": [_tr(field["label"])], "notes": notes})
    return [{"label": ", ".join(line["labels"]), "notes": line["notes"]} for line in lines]


def paper_grid(description: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A score grid laid out for paper: two header rows (a field asked once per deal spans both,
    one asked per seat spans a column per player), each row's cells, the totals row (only the
    payouts add up over a match) and the key (what each column takes)."""
    fields = description["fields"]
    by_name = {f["name"]: f for f in fields}
    n = len(names)
    top: list[dict[str, Any]] = []
    cells: list[dict[str, Any]] = []
    for field in fields:
        label = _tr(field["label"])
        kind = "tick" if field["kind"] == "bool" else field["kind"]
        if field["per_seat"]:
            top.append({"label": label, "colspan": n, "rowspan": 1, "kind": kind})
            cells += [{"kind": kind, "first": s == 0, "seat": s} for s in range(n)]
        else:
            top.append({"label": label, "colspan": 1, "rowspan": 2, "kind": kind})
            cells.append({"kind": kind, "first": True})
    top.append({"label": _("Payout"), "colspan": n, "rowspan": 1, "kind": "payout"})
    cells += [{"kind": "payout", "first": s == 0, "seat": s} for s in range(n)]
    per_seat_groups = sum(1 for f in fields if f["per_seat"]) + 1
    return {
        "top": top,
        "seats": [{"number": s, "name": name} for s, name in enumerate(names)] * per_seat_groups,
        "cells": cells,
        "key": _key(fields, by_name, n),
        "empty": not fields,
    }


def round_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One score sheet per table of the round, for play over the table: whoever may see the
    round may print them (a published round of a visible event, or any round for its
    organizers). A fixed number of queries whatever the number of tables."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event):
        raise Http404("no such event")
    round_ = get_object_or_404(Round, event=event, number=number)
    if round_.status != Round.Status.PUBLISHED and not can_manage(request.user, event):
        raise Http404("this round is not published yet")
    fixtures = round_.fixtures.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )
    description = catalogue.sheet_grid(event.game, event.variant)
    seats_of_game = catalogue.game(event.game).seats
    sheets = []
    for fixture in fixtures:
        seats = list(fixture.seats.all())
        sheets.append(
            {
                "fixture": fixture,
                "seats": seats,
                "grid": paper_grid(description, [s.player.name for s in seats]),
                # a table of four among threes plays 4/3 as many (Event.deals_for), and each
                # deal's dealer sits it out: his cells are shaded
                "rows": [
                    {
                        "number": k + 1,
                        "sitter": k % len(seats) if len(seats) > seats_of_game else None,
                    }
                    for k in range(event.deals_for(len(seats)))
                ],
            }
        )
    context = {
        "event": event,
        "round": round_,
        "game": catalogue.game(event.game),
        "sheets": sheets,
    }
    return render(request, "league/round_sheets.html", context)


# --- duplicate events: hand records, for dealing the packs before play over the table --------

SUIT_ORDER = "SHDCdcsb"  # the French suits, then the Italian ones (records' codes)
RANK_ORDER = "AKRQCJFT98765432"  # high to low in either pack: re > cavallo > fante


def _suit_name(suit: str) -> str:
    names = {
        "S": _("spades"),
        "H": _("hearts"),
        "D": _("diamonds"),
        "C": _("clubs"),
        "d": "denari",
        "c": "coppe",
        "s": "spade",
        "b": "bastoni",
    }
    return names.get(suit, suit)


GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "d": "◆", "c": "♥", "s": "♠", "b": "♣"}


def _rank_key(rank: str) -> tuple[int, str]:
    return (RANK_ORDER.index(rank) if rank in RANK_ORDER else len(RANK_ORDER), rank)


def hand_lines(codes: Sequence[str], faces: str = "home") -> list[dict[str, Any]]:
    """A hand as a person deals it from a pack: a line per suit (glyph, name), its ranks high
    to low ("10" for the ten, a court card by its letter in the page's language:
    `rank_label`). Codes are records' (rank then suit: `TH` is the ten of hearts, `3d` the three
    of denari); anything else is shown as it is, on a line of its own."""
    by_suit: dict[str, list[str]] = {}
    odd = []
    for code in codes:
        rank, suit = code[:-1], code[-1:]
        if not rank or suit not in GLYPHS:
            odd.append(code)
            continue
        by_suit.setdefault(suit, []).append(rank)
    lines = []
    for suit in sorted(by_suit, key=SUIT_ORDER.index):
        ranks = sorted(by_suit[suit], key=_rank_key)
        lines.append(
            {
                "suit": suit,
                "glyph": GLYPHS[suit],
                "name": _suit_name(suit),
                "ranks": " ".join(rank_label(r, suit, faces) for r in ranks),
                "count": len(ranks),
            }
        )
    if odd:
        lines.append({"suit": "", "glyph": "", "name": "", "ranks": " ".join(odd), "count": 0})
    return lines


def round_hands(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's hand records, a block per deal with every seat's cards (and the stock), for
    pre-dealing the packs of a duplicate event played over the table.

    A section's hands are the organizer's only until every table of it has finished (an
    organizer who plays in the event waits like any player: `sees_everything`); then whoever
    may see the event sees them. A fixed number of queries whatever the number of tables."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event) or not event.is_duplicate:
        raise Http404("no such event")
    round_ = get_object_or_404(Round, event=event, number=number)
    if round_.status != Round.Status.PUBLISHED and not can_manage(request.user, event):
        raise Http404("this round is not published yet")
    everything = sees_everything(request.user, event)
    rows = round_.sections.prefetch_related(
        Prefetch("fixtures", queryset=Fixture.objects.order_by("number"))
    )
    n_seats = catalogue.game(event.game).seats
    faces = card_faces(request.user)
    blocks = []
    for section in rows:
        shown = everything or section.completed_at is not None
        deals = section_deals(event, section) if shown else None
        blocks.append(
            {
                "section": section,
                "tables": [f.number for f in section.fixtures.all()],
                "shown": shown,
                "drawn": deals is not None,
                "uploaded": bool(section.deals) if shown else False,
                "deals": [
                    {
                        "number": k,
                        "seats": [
                            {"number": s, "lines": hand_lines(hand, faces)}
                            for s, hand in enumerate(deal["hands"][:n_seats])
                        ],
                        "stock": hand_lines(deal.get("stock") or [], faces),
                        "commitment": deal.get("commitment"),
                    }
                    for k, deal in enumerate(deals or [], start=1)
                ],
            }
        )
    context = {
        "event": event,
        "round": round_,
        "game": catalogue.game(event.game),
        "blocks": blocks,
    }
    response = render(request, "league/round_hands.html", context)
    response["Cache-Control"] = "private, no-store"  # the hands of a section still being played
    return response
