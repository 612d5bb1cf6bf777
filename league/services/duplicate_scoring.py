"""Duplicate events on the league side (shared/spec/duplicate.md): a round's sections loaded
from their fixtures, seats and counting results into the pure `Section`s of
`league.standings.duplicate_arithmetic`, the moment a section is complete, and who may see what
before.

A section is published all at once: until every table of it has its counting result
(`Section.completed_at`), a table's result, scores, ledger rows, standings, ratings, notices and
travellers reach nobody who is not seated at that table (its own players see their own table as
it was at the table, nothing of the others), except an organizer of the event who plays in none
of its rounds. `count_in_section` is called by every path that counts a result
(league.services.results) and completes the section when its last table counts: the online
tables are released (`gameplay.api.release_tables`) and the held results are handed back to be
rated and notified.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from gameplay import api as gameplay
from games import catalogue
from league.models import Event, Fixture, Result, Round, Seat
from league.models import Section as SectionRow
from league.services.permissions import can_manage
from league.standings import (
    DuplicateTable,
    PlayerDuplicate,
    Section,
    SectionScores,
    player_totals,
    score_section,
)

# --- secrecy ------------------------------------------------------------------------------------


def pending(prefix: str = "") -> Q:
    """A filter for fixtures (reached through `prefix`, e.g. "fixture__") of a section still
    being played: their results are not published yet."""
    return Q(**{f"{prefix}section__isnull": False, f"{prefix}section__completed_at__isnull": True})


def published(prefix: str = "") -> Q:
    """The opposite of `pending`: fixtures of no section, or of a completed one."""
    return Q(**{f"{prefix}section__isnull": True}) | Q(
        **{f"{prefix}section__completed_at__isnull": False}
    )


def sees_everything(user: Any, event: Event) -> bool:
    """An organizer of the event who is seated in none of its rounds: sees every table of a
    section still being played (an organizer who plays is a player here). One query at most."""
    if not can_manage(user, event):
        return False
    return not Seat.objects.filter(fixture__round__event=event, player__user_id=user.pk).exists()


def withheld_fixtures(
    user: Any, event: Event, *, round_: Round | None = None, own_table: bool = True
) -> frozenset[int]:
    """The fixtures of the event (or of one round) whose result `user` may not see yet.

    Empty for an event that is not duplicate (no query) and for `sees_everything`. With
    `own_table` the tables `user` is seated at are not withheld from them (a page showing a
    table as it was at the table); without (standings, exports) every pending table is.
    """
    if not event.is_duplicate or sees_everything(user, event):
        return frozenset()
    fixtures = Fixture.objects.filter(pending(), round__event=event)
    if round_ is not None:
        fixtures = fixtures.filter(round=round_)
    if own_table and getattr(user, "is_authenticated", False):
        fixtures = fixtures.exclude(seats__player__user_id=user.pk)
    return frozenset(fixtures.values_list("pk", flat=True))


def rounds_in_play(user: Any, event: Event) -> frozenset[int]:
    """The rounds of the event with a section still being played, whose count of results `user`
    may not see ("2 tables, 1 results" would tell that one table has finished). Empty for an
    event that is not duplicate (no query) and for `sees_everything`."""
    if not event.is_duplicate or sees_everything(user, event):
        return frozenset()
    fixtures = Fixture.objects.filter(pending(), round__event=event)
    return frozenset(fixtures.order_by().values_list("round_id", flat=True).distinct())


def pending_fixtures(event: Event) -> frozenset[int]:
    """Every fixture of the event in a section still being played (none: no query)."""
    if not event.is_duplicate:
        return frozenset()
    return frozenset(
        Fixture.objects.filter(pending(), round__event=event).values_list("pk", flat=True)
    )


# --- loading ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatRow:
    number: int
    player_id: int
    name: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    """A fixture of a section as the pages show it; `result` is its counting result's values
    (None: none yet)."""

    fixture_id: int
    number: int
    table_ref: str
    seats: tuple[SeatRow, ...]
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class LoadedSection:
    """One section of a round: its row's figures, its tables in fixture order and their
    scores (`scores` is None for a section without a table)."""

    section_id: int
    number: int
    round_number: int
    completed_at: datetime | None
    tables: tuple[TableRow, ...]
    scores: SectionScores | None
    # the deal set's secret source, for `section_hands` only: never shown, never logged
    seed: str = field(default="", repr=False)
    uploaded: Any = field(default=None, repr=False)

    @property
    def completed(self) -> bool:
        return self.completed_at is not None

    @property
    def fixture_ids(self) -> list[int]:
        return [t.fixture_id for t in self.tables]


def deals_played(scored: dict[str, Any], *, sheet: bool) -> int:
    """Deals finished at the table (as league.services.standings counts them): an unfinished
    record's last deal is the one in progress, a score sheet (or an absence) lists finished
    deals only."""
    return len(scored["deals"]) - (0 if scored["complete"] or sheet else 1)


def duplicate_table(
    fixture_id: int, players: tuple[int, ...], result: dict[str, Any] | None, n_deals: int
) -> DuplicateTable:
    """A table for the pure scoring: each deal's payouts up to where it stopped.

    No counting result yet: no deal completed, stopped by nobody (only an organizer sees a
    section before it is complete; such a table scores 0 and 50 % there for now). A table that
    stopped before its last deal was stopped by its forfeiting seats (`forfeited_seats`); one
    that completed every deal by nobody, whoever forfeited after.
    """
    if result is None:
        return DuplicateTable(fixture_id, players, (None,) * n_deals)
    scored = result["scored"]
    played = min(deals_played(scored, sheet=result["source"] in Result.FINISHED_DEALS), n_deals)
    deals: list[tuple[int, ...] | None] = [
        tuple(scored["deals"][k]["payouts"]) for k in range(played)
    ]
    deals += [None] * (n_deals - played)
    stopped = frozenset(result["forfeited_seats"] or ()) if played < n_deals else frozenset()
    return DuplicateTable(fixture_id, players, tuple(deals), stopped)


def load_sections(
    event: Event,
    *,
    round_: Round | None = None,
    completed_only: bool = False,
    with_records: bool = False,
) -> list[LoadedSection]:
    """The sections of the event's published rounds (or of one round, published or not), with
    their tables, seats and counting results, scored: three queries whatever their size.

    `with_records` also loads each result's game record (the travellers' contracts)."""
    sections = SectionRow.objects.filter(round__event=event).select_related("round")
    if round_ is not None:
        sections = sections.filter(round=round_)
    else:
        sections = sections.filter(round__status=Round.Status.PUBLISHED)
    if completed_only:
        sections = sections.filter(completed_at__isnull=False)
    rows = list(sections.order_by("round__number", "number"))
    if not rows:
        return []
    ids = [s.pk for s in rows]
    seats: dict[int, list[SeatRow]] = {}
    fixtures: dict[int, list[tuple[int, int, str]]] = {}
    for values in (
        Seat.objects.filter(fixture__section_id__in=ids)
        .order_by("fixture__number", "number")
        .values_list(
            "fixture_id",
            "fixture__number",
            "fixture__table_ref",
            "fixture__section_id",
            "number",
            "player_id",
            "player__name",
            "player__is_bot",
        )
    ):
        fixture_id, number, ref, section_id, seat, player, name, is_bot = values
        if fixture_id not in seats:
            fixtures.setdefault(section_id, []).append((fixture_id, number, ref))
        seats.setdefault(fixture_id, []).append(SeatRow(seat, player, name, is_bot))
    fields = ["fixture_id", "version", "scored", "forfeited_seats", "source"]
    results = {
        r["fixture_id"]: r
        for r in Result.objects.filter(current=True, fixture__section_id__in=ids).values(
            *fields, *(["record"] if with_records else [])
        )
    }
    n_deals = event.deals_per_match
    out = []
    for row in rows:
        tables = tuple(
            TableRow(fid, number, ref, tuple(seats[fid]), results.get(fid))
            for fid, number, ref in fixtures.get(row.pk, [])
        )
        scores = None
        if tables:
            pure = Section(
                tuple(
                    duplicate_table(
                        t.fixture_id, tuple(s.player_id for s in t.seats), t.result, n_deals
                    )
                    for t in tables
                ),
                n_deals,
            )
            scores = score_section(pure)
        out.append(
            LoadedSection(
                row.pk,
                row.number,
                row.round.number,
                row.completed_at,
                tables,
                scores,
                seed=row.seed,
                uploaded=row.deals,
            )
        )
    return out


def duplicate_totals(event: Event, players: Iterable[int] = ()) -> dict[Any, PlayerDuplicate]:
    """Each player's duplicate total and matchpoint percentage over the completed sections of
    the event's published rounds (a table of a section still played counts nothing yet)."""
    loaded = load_sections(event, completed_only=True)
    return player_totals([s.scores for s in loaded if s.scores is not None], players)


# --- completing a section -----------------------------------------------------------------------


def count_in_section(fixture: Fixture) -> list[Result] | None:
    """Called when a result of `fixture` counts (inside that transaction): None when nothing is
    held (not duplicate, or a section already complete: publish it as usual); otherwise the
    results to publish now — none while other tables of the section still play, and every
    table's counting result at the moment the last one counts (the section is complete: its
    online tables are released, every held result is published at once).

    The section's row is locked first, so two last tables counting at once complete it once.
    """
    if fixture.section_id is None or not fixture.round.event.is_duplicate:
        return None
    section = SectionRow.objects.select_for_update().filter(pk=fixture.section_id).first()
    if section is None or section.completed_at is not None:
        return None
    tables = list(section.fixtures.values_list("pk", "table_ref"))
    counting = list(
        Result.objects.filter(fixture__section=section, current=True).select_related(
            "fixture__round__event"
        )
    )
    if len(counting) < len(tables):
        return []
    section.completed_at = timezone.now()
    section.save(update_fields=["completed_at"])
    refs = [ref for _pk, ref in tables if ref]
    if refs:
        gameplay.release_tables(refs)
    return sorted(counting, key=lambda r: r.fixture.number)


# --- travellers ---------------------------------------------------------------------------------


def visible_sections(user: Any, event: Event, sections: list[LoadedSection]) -> list[bool]:
    """Per section, whether `user` may see its travellers: once it is complete, or before for
    an organizer who plays in none of the event's rounds (its players wait like anyone: the
    traveller shows the other tables)."""
    everything = any(not s.completed for s in sections) and sees_everything(user, event)
    return [s.completed or everything for s in sections]


def section_hands(event: Event, section: LoadedSection) -> list[dict[str, Any]] | None:
    """Each deal's hands and stock, as every table of the section was dealt them: from the deal
    set (its seed or the uploaded deals, `gameplay.api.deal_set`), else from the first game
    record of the section; None when neither says (a section played over the table from its
    own shuffles, results entered as sheets)."""
    if section.seed or section.uploaded:
        try:
            return gameplay.deal_set(
                event.game,
                event.variant,
                event.deals_per_match,
                seed=section.seed or None,
                deals=section.uploaded,
            )
        except (catalogue.VariantError, ValueError, TypeError):
            pass  # an unreadable stored set: fall back on the records
    for table in section.tables:
        record = (table.result or {}).get("record")
        if isinstance(record, dict) and record.get("deals"):
            deals = record["deals"]
            return [
                {"hands": d.get("hands") or [], "stock": d.get("stock") or []}
                for d in deals[: event.deals_per_match]
            ]
    return None


def table_outcomes(table: TableRow) -> list[str]:
    """The contract or outcome of each deal at a table, from its game record
    (`gameplay.api.deal_outcomes`); none for a score sheet."""
    record = (table.result or {}).get("record")
    if not isinstance(record, dict):
        return []
    try:
        return list(gameplay.deal_outcomes(record))
    except (catalogue.RecordError, KeyError, ValueError, TypeError):
        return []  # a traveller line without its contract, never a 500
