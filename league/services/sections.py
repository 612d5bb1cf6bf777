"""Sections of a duplicate event's rounds: which tables play the same deals, and those deals.

A duplicate round always has sections (shared/spec/duplicate.md, docs/league.md "Duplicate
events"): one holding every table when the round is planned (`default_section`); the organizer
may split a draft round into sections of at least two tables (`split_sections`) and give a
section a deal set of their own (`upload_deals`, packs pre-dealt for play over the table).
Publishing draws each section's secret (`draw_secrets`): a seed from `secrets`, or a fresh salt
per uploaded deal; every table of the section is then started with the same deals, embargoed
(`table_arguments`). The seed is never shown, returned by a page or the API, nor logged.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from games import catalogue
from league.errors import LeagueError
from league.models import Event, Fixture, Round, Section
from league.services import actions

# Each section needs somebody to be compared with.
MIN_TABLES = 2


def default_section(round_: Round) -> Section:
    """One section holding every table of the round (part of `store_plan`, authorized there)."""
    section, _created = Section.objects.get_or_create(round=round_, number=1)
    Fixture.objects.filter(round=round_, section__isnull=True).update(section=section)
    return section


def _locked_round(round_: Round, by: Any) -> Round:
    """The round, locked, once `by` may change its sections now (its rule: a draft round of a
    duplicate event that is not closed)."""
    actions.check(by, round_.event, "sections", round_)
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    actions.check(by, round_.event, "sections", round_)  # as it is now, under the lock
    return round_


def _table_numbers(groups: Any) -> list[list[int]]:
    """`groups` as lists of table numbers, or a clear refusal (an API client sends anything)."""
    if not isinstance(groups, list | tuple) or not groups:
        raise LeagueError(_("give the sections as lists of table numbers"))
    out = []
    for group in groups:
        if not isinstance(group, list | tuple) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in group
        ):
            raise LeagueError(_("give the sections as lists of table numbers"))
        out.append(list(group))
    return out


@transaction.atomic
def split_sections(round_: Round, groups: Sequence[Sequence[int]], *, by: Any) -> list[Section]:
    """Make the draft round's sections: `groups[i]` are the table numbers of section i + 1.

    Every table of the round in exactly one section, each section of at least two tables
    (one section of them all is the default). A section that keeps its number keeps its
    uploaded deal set; a section no longer there goes, with its deal set. Refused, with
    nothing changed, otherwise."""
    round_ = _locked_round(round_, by)
    groups = _table_numbers(groups)
    tables = dict(Fixture.objects.filter(round=round_).values_list("number", "pk"))
    seen: set[int] = set()
    for group in groups:
        for number in group:
            if number not in tables:
                raise LeagueError(
                    _("round %(round)s has no table %(table)s")
                    % {"round": round_.number, "table": number}
                )
            if number in seen:
                raise LeagueError(_("table %(table)s is in two sections") % {"table": number})
            seen.add(number)
    missing = sorted(set(tables) - seen)
    if missing:
        raise LeagueError(
            _("every table needs a section: %(tables)s has none")
            % {"tables": ", ".join(map(str, missing))}
        )
    for number, group in enumerate(groups, start=1):
        if len(group) < MIN_TABLES:
            raise LeagueError(
                _(
                    "section %(section)s has %(n)s table: a section needs at least %(min)s "
                    "tables, whose players are compared"
                )
                % {"section": number, "n": len(group), "min": MIN_TABLES}
            )
    Section.objects.filter(round=round_, number__gt=len(groups)).delete()
    made = []
    for number, group in enumerate(groups, start=1):
        section, _created = Section.objects.get_or_create(round=round_, number=number)
        Fixture.objects.filter(round=round_, number__in=group).update(section=section)
        made.append(section)
    return made


@transaction.atomic
def upload_deals(section: Section, deals: Any, *, by: Any) -> Section:
    """Give the section of a draft round the organizer's deal set (one deal per deal of the
    match, records' hands and stock, or a whole record holding them); the tables of the
    section play it instead of deals from a secret seed. Checked by gameplay
    (`check_deal_set`: the game's deck, hands of the right size, as many deals as the match);
    refused with its reason and nothing changed."""
    round_ = _locked_round(section.round, by)
    event = round_.event
    section = Section.objects.select_for_update().get(pk=section.pk, round=round_)
    try:
        checked = gameplay.check_deal_set(event.game, event.variant, deals, event.deals_per_match)
    except catalogue.VariantError as exc:
        raise LeagueError(_("The deal set was not accepted: %(why)s") % {"why": str(exc)}) from None
    Section.objects.filter(pk=section.pk).update(deals=checked)
    section.refresh_from_db()
    return section


@transaction.atomic
def clear_deals(section: Section, *, by: Any) -> Section:
    """Take the section's uploaded deal set back: its deals come from a secret seed again."""
    round_ = _locked_round(section.round, by)
    Section.objects.filter(pk=section.pk, round=round_).update(deals=None)
    section.refresh_from_db()
    return section


def draw_secrets(round_: Round) -> None:
    """Part of `publish_round` (which authorized the organizer and holds the round): make sure
    the duplicate round has its sections, then draw each one's secret — a seed from `secrets`,
    or a fresh secret salt for each uploaded deal (the deal commitments then reveal nothing
    before the section is complete). Every table of a section is dealt from it."""
    if not round_.sections.exists():
        default_section(round_)
    loose = Fixture.objects.filter(round=round_, section__isnull=True).values_list(
        "number", flat=True
    )
    if loose:
        raise LeagueError(
            _("table %(tables)s is in no section: split the round's sections again")
            % {"tables": ", ".join(map(str, loose))}
        )
    for section in Section.objects.select_for_update().filter(round=round_):
        if section.deals:
            salted = [{**deal, "salt": secrets.token_hex(16)} for deal in section.deals]
            Section.objects.filter(pk=section.pk).update(deals=salted, seed="")
        else:
            Section.objects.filter(pk=section.pk).update(seed=secrets.token_hex(16))


def table_arguments(event: Event, fixture_id: int) -> dict[str, Any]:
    """`gameplay.api.start_table`'s deal and secrecy arguments for one fixture's table: for a
    duplicate event its section's seed or deals, embargoed, without spectators; for any other
    event a secret seed of the table's own (gameplay draws it)."""
    if not event.is_duplicate:
        return {"seed": None, "allow_spectators": event.allow_spectators}
    section = Section.objects.filter(fixtures=fixture_id).values("seed", "deals").first()
    if section is None or not (section.get("seed") or section.get("deals")):
        raise LeagueError(_("this table's section has no deals yet: publish its round first"))
    return {
        "seed": section["seed"] or None,
        "deals": section["deals"] or None,
        "embargoed": True,
        "allow_spectators": False,
    }


def section_deals(event: Event, section: Section) -> list[dict[str, Any]] | None:
    """The deals every table of the section is dealt (hands, stock, commitment per deal), for
    the printable hand records; None while they are not drawn yet (a draft round without an
    uploaded deal set). The caller has decided who may see them."""
    if not section.seed and not section.deals:
        return None
    return gameplay.deal_set(
        event.game,
        event.variant,
        event.deals_per_match,
        seed=section.seed or None,
        deals=section.deals,
    )


def sections_overview(round_: Round, fixtures: Sequence[Fixture]) -> dict[str, Any] | None:
    """A duplicate round's sections for its page: each one's number, table numbers, whether
    it plays an uploaded deal set and whether it is complete; each table's section and the
    section numbers a split may use. `fixtures` are the page's (already read): one query.
    None for an event that is not duplicate (no query)."""
    if not round_.event.is_duplicate:
        return None
    uploaded = ExpressionWrapper(Q(deals__isnull=False), output_field=BooleanField())
    rows = list(
        Section.objects.filter(round=round_)
        .annotate(uploaded=uploaded)
        .values("pk", "number", "completed_at", "uploaded")
    )
    numbers = {row["pk"]: row["number"] for row in rows}
    tables: dict[int, list[int]] = {}
    for fixture in fixtures:
        tables.setdefault(fixture.section_id, []).append(fixture.number)
    listed = [
        {
            "number": row["number"],
            "tables": sorted(tables.get(row["pk"], [])),
            "uploaded": row["uploaded"],
            "complete": row["completed_at"] is not None,
        }
        for row in rows
    ]
    return {
        "sections": listed,
        "any_complete": any(row["complete"] for row in listed),
        "tables": [
            {"number": f.number, "section": numbers.get(f.section_id)}
            for f in sorted(fixtures, key=lambda f: f.number)
        ],
        "choices": list(range(1, max(1, len(fixtures) // MIN_TABLES) + 1)),
    }
