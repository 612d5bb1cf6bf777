"""An event's help page, `/events/<slug>/help/`: how its standings are made, for this event.

Every standings column header links here (`#match-points`, `#payouts`, `#wins`,
`#tiebreak-<name>`, `#advancing`). Nothing here names a game or a tie-break: what payouts are
comes from the game's engine through `gameplay.api` (its Match legend, and its example score
sheet scored under the event's variant), the match points are worked out on that example by the
standings' own `pairwise_points`, each tie-break brings its `help` and `example` from the
registry (`league/standings/tiebreaks.py`), and the format its rules (`Format.rules`) and what
an absence counts for (`Format.absence_rules`, `#absences`). A fixed
number of queries: the event, who may see it, and the count of its field.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from gameplay import api as gameplay
from games import catalogue
from league import scheduling
from league.models import Event
from league.pages.events import visible_event
from league.services.standings import mixed_points, standings_mode
from league.standings import TIEBREAKS, MatchRecord, pairwise_points

# The players of the worked example, seat by seat (a game has at most four seats).
EXAMPLE_NAMES = ("Ana", "Ben", "Cleo", "Dan")
# A random example (for a variant the engine's example sheet does not fit) is played from this
# seed, never from the event's own: that seed is secret (it makes the event's draw).
EXAMPLE_SEED = 1


def scored_example(game: str, variant: dict[str, Any], seats: int, deals: int) -> dict[str, Any]:
    """The game's example sheet (`gameplay.api.sheet_examples`) scored by the engine under
    `variant`; where the variant changes what a sheet must hold (another trick target, a
    bidding hand), a match of random legal play in that variant, scored the same way."""
    sheets = {example["game"]: example["example"] for example in catalogue.sheet_examples()}
    try:
        return catalogue.score_sheet(game, variant, sheets[game], n_seats=seats)
    except (KeyError, catalogue.EngineError):
        record = catalogue.random_record(
            game,
            players=list(EXAMPLE_NAMES[:seats]),
            variant=variant,
            n_deals=max(1, min(deals, 2)),
            seed=EXAMPLE_SEED,
        )
        return catalogue.score_record(record)


def signed(value: int) -> str:
    """A payout as the page shows it: +3, 0, -2."""
    return f"{value:+d}" if value else "0"


def worked_example(event: Event, info: catalogue.GameInfo, variant: dict[str, Any]) -> dict:
    """One example match of the event's game: each deal's scores and payouts, the totals, the
    winners, and each seat's match points with the comparison that gives them."""
    scored = scored_example(event.game, variant, info.seats, event.deals_per_match)
    names = EXAMPLE_NAMES[: info.seats]
    totals = scored["totals"]["payouts"]
    seats = tuple(range(info.seats))
    points = pairwise_points(
        MatchRecord(
            fixture_id=0,
            round_no=1,
            players=seats,
            payouts=tuple(totals),
            winners=tuple(scored["winners"]),
            forfeited=frozenset(),
            deals_played=len(scored["deals"]),
            points_per_opponent=mixed_points(info.seats) if event.has_tables_of_four else 1,
        )
    )
    return {
        "names": names,
        "deals": [
            {
                "number": k,  # deals count from 1 for a reader
                "cells": [
                    {"score": score, "payout": signed(payout)}
                    for score, payout in zip(deal["scores"], deal["payouts"], strict=True)
                ],
            }
            for k, deal in enumerate(scored["deals"], start=1)
        ],
        "totals": [
            {"score": score, "payout": signed(payout)}
            for score, payout in zip(scored["totals"]["scores"], totals, strict=True)
        ],
        "winners": [names[s] for s in scored["winners"]],
        "points": [
            {
                "name": names[s],
                "payout": signed(totals[s]),
                "below": sum(totals[o] < totals[s] for o in seats if o != s),
                "level": sum(totals[o] == totals[s] for o in seats if o != s),
                "above": sum(totals[o] > totals[s] for o in seats if o != s),
                "points": signed(points[s]),
            }
            for s in seats
        ],
    }


def variant_flags(info: catalogue.GameInfo, variant: dict[str, Any]) -> list[dict[str, Any]]:
    """The event's rules of play, flag by flag as the rules page and the forms name them
    (`gameplay.api.flag_label`, `value_label`, translated), default or not."""
    flags = []
    for flag in info.variant_schema:
        value = variant.get(flag["name"], flag["default"])
        flags.append(
            {
                "name": flag["name"],
                "label": gameplay.flag_label(flag),
                "value": gameplay.value_label(flag, value),
                "default": value == flag["default"],
            }
        )
    return flags


def format_notes(fmt: scheduling.Format | None, event: Event, table_size: int) -> list[str]:
    """What the format's round pages say about how rounds are made and who goes on: round 1's
    notes, then those of the rounds after it that round 1 does not already say."""
    if fmt is None:
        return []
    n_players = event.entries.filter(withdrawn_after_round__isnull=True).count()
    notes: list[str] = []
    for round_no in (1, 2):
        for note in fmt.rules(
            round_no, n_players=n_players, table_size=table_size, leftover=event.leftover
        ):
            text = _(note.text) % note.params
            if text not in notes:
                notes.append(text)
    return notes


def absence_notes(fmt: scheduling.Format | None, event: Event) -> list[str]:
    """What an absence counts for in this event: its format's rule (`Format.absence_rules`),
    and the duplicate scoring's forfeit rule in a duplicate event."""
    fmt = fmt or scheduling.Format()  # a format since taken out of the registry: the defaults
    return [_(note.text) % note.params for note in fmt.absence_rules(duplicate=event.is_duplicate)]


def tiebreak_sections(event: Event) -> list[dict[str, Any]]:
    """Each of the event's tie-breaks in its order: its anchor, label, help and example."""
    sections = []
    for position, name in enumerate(event.tiebreaks, start=1):
        tiebreak = TIEBREAKS.get(name)
        if tiebreak is None:  # no longer registered: the standings refuse it loudly elsewhere
            continue
        sections.append(
            {
                "position": position,
                "name": name,
                "label": _(tiebreak.label),
                "help": _(tiebreak.help),
                "example": _(tiebreak.example),
            }
        )
    return sections


@require_GET
def event_help(request: HttpRequest, slug: str) -> HttpResponse:
    """How this event's standings are made: payouts, match points, each tie-break in the
    event's order, and (a format that picks who plays on) who goes on. Visible to whoever may
    see the event."""
    event = visible_event(request, slug)
    info = catalogue.game(event.game)
    try:
        variant = catalogue.validate_variant(event.game, event.variant)
    except catalogue.VariantError:  # a stored variant the engine no longer takes: its defaults
        variant = dict(info.defaults)
    try:
        fmt = scheduling.get_format(event.format)
    except scheduling.SchedulingError:
        fmt = None
    context = {
        "event": event,
        "game": info,
        "flags": variant_flags(info, variant),
        "format_label": _(fmt.label) if fmt else event.format,
        "legend": gameplay.legend(event.game),
        "example": worked_example(event, info, variant),
        "tiebreaks": tiebreak_sections(event),
        "knockout": standings_mode(event) == "knockout",
        "advancing": bool(fmt and fmt.picks_players),
        "format_notes": format_notes(fmt, event, info.seats),
        "absence_notes": absence_notes(fmt, event),
        "byes": event.leftover in (Event.Leftover.BYE, Event.Leftover.MIXED),
        # tables of three and four: deals, match points per opponent (docs/league.md)
        "mixed": event.has_tables_of_four
        and {
            "three": event.deals_per_match,
            "four": event.deals_for(4),
            "per_three": mixed_points(3),
            "per_four": mixed_points(4),
        },
        "bye_points": event.bye_match_points,
        # bots fill seats and take no place in the standings (Event.rank_bots off)
        "bots_unranked": event.leftover == Event.Leftover.BOT and not event.rank_bots,
    }
    return render(request, "league/event_help.html", context)
