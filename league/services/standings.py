"""Loads an event's results as plain records, ranks them with the pure standings, caches rows."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q

from league import queue, scheduling
from league.models import Bye, Entry, Event, Fixture, Player, Result, Seat, StandingsSnapshot
from league.services import duplicate_scoring
from league.standings import (
    ByeRecord,
    KnockoutProgress,
    MatchRecord,
    StandingsConfig,
    compute_standings,
    rank_people,
    round_half_even,
)
from league.standings.duplicate_arithmetic import PAGE_PLACES, json_number


def match_records(event: Event) -> list[MatchRecord]:
    """The counting result of every fixture, as the pure standings want it (two queries)."""
    seats_by_fixture: dict[int, list[int]] = {}
    for fixture_id, player_id in (
        Fixture.objects.filter(round__event=event)
        .order_by("id", "seats__number")
        .values_list("id", "seats__player_id")
    ):
        seats_by_fixture.setdefault(fixture_id, []).append(player_id)
    mixed = event.has_tables_of_four
    records = []
    for result in Result.objects.filter(fixture__round__event=event, current=True).values(
        "fixture_id",
        "fixture__round__number",
        "scored",
        "forfeited_seats",
        "absent_seats",
        "source",
    ):
        players = tuple(seats_by_fixture[result["fixture_id"]])
        scored = result["scored"]
        played = deals_played(scored, sheet=result["source"] in Result.FINISHED_DEALS)
        records.append(
            MatchRecord(
                fixture_id=result["fixture_id"],
                round_no=result["fixture__round__number"],
                players=players,
                payouts=tuple(scored["totals"]["payouts"]),
                winners=tuple(players[s] for s in scored["winners"]),
                forfeited=frozenset(players[s] for s in result["forfeited_seats"]),
                deals_played=played,
                absent=frozenset(players[s] for s in result["absent_seats"] or ()),
                points_per_opponent=mixed_points(len(players)) if mixed else 1,
                sat_out=sat_out(scored, played, len(players)),
            )
        )
    return records


def deals_played(scored: dict, *, sheet: bool) -> int:
    """Deals finished at the table: an unfinished record's last deal is the one in progress (its
    partial score), while a score sheet (`sheet`: or an absence, `Result.FINISHED_DEALS`) lists
    finished deals only, even when cut by a forfeit."""
    return len(scored["deals"]) - (0 if scored["complete"] or sheet else 1)


def mixed_points(seats: int) -> int:
    """Match points per opponent beaten in an event of tables of three and four: 3 at a
    three, 2 at a four, so a table's best gets +6 and its last -6 at either size."""
    return 6 // (seats - 1)


def sat_out(scored: dict, played: int, seats: int) -> tuple[int, ...]:
    """Deals each seat sat out (as a table of four's dealer) among the `played` first ones;
    () at a table where nobody sits out."""
    sitters = [deal.get("sitter") for deal in scored["deals"][:played]]
    if all(s is None for s in sitters):
        return ()
    return tuple(sitters.count(seat) for seat in range(seats))


def bye_records(event: Event) -> list[ByeRecord]:
    return [
        ByeRecord(player_id=player_id, round_no=number, match_points=points)
        for player_id, number, points in Bye.objects.filter(
            round__event=event, round__status="published"
        ).values_list("player_id", "round__number", "match_points")
    ]


def played_in(event: Event | None = None) -> Q:
    """Entries (as a filter on Entry) whose player has a seat or a bye in a published round of
    the entry's own event (`event` is not needed: any list of entries may be filtered)."""
    seated = Seat.objects.filter(
        fixture__round__event=OuterRef("event_id"),
        fixture__round__status="published",
        player_id=OuterRef("player_id"),
    )
    byes = Bye.objects.filter(
        round__event=OuterRef("event_id"),
        round__status="published",
        player_id=OuterRef("player_id"),
    )
    return Q(Exists(seated)) | Q(Exists(byes))


def entrant_entries() -> Q:
    """The entries that make an event's entrants (a filter on Entry): all but those who withdrew
    before they played (a seat or a bye in a published round). What the standings rank and
    every page counts (`league.services.entry_counts`)."""
    return ~(Q(withdrawn_after_round__isnull=False) & ~played_in())


def ranked_entrants(event: Event) -> list[int]:
    """Who the standings rank: every entrant (`entrant_entries`); those who withdrew before they
    played are listed apart, never ranked above anyone."""
    return list(
        Entry.objects.filter(entrant_entries(), event=event).values_list("player_id", flat=True)
    )


def withdrawn_before_play(event: Event) -> list[Entry]:
    """The entries `ranked_entrants` leaves out, by name (their players loaded)."""
    return list(
        Entry.objects.filter(event=event, withdrawn_after_round__isnull=False)
        .exclude(played_in(event))
        .select_related("player")
        .order_by("player__name")
    )


def compute_rows(event: Event) -> list[dict[str, Any]]:
    """The standings table as JSON-ready rows, with player names for the pages.

    A duplicate event ranks by its duplicate total or matchpoint percentage: only completed
    sections count (a table of a section still being played counts nothing yet, for anyone),
    and each row carries both figures (`duplicate_total`, `matchpoint_pct`: 6 places for the
    API, and `…_shown`, 2 places, for the page; both rounded half to even from the exact value).
    """
    players = ranked_entrants(event)
    matches = match_records(event)
    dup = None
    if event.is_duplicate:
        held = duplicate_scoring.pending_fixtures(event)
        matches = [m for m in matches if m.fixture_id not in held]
        dup = duplicate_scoring.duplicate_totals(event)
    # A bot that filled a seat takes part in matches but is no entrant of the event.
    entrants = set(players)
    extra = sorted({p for m in matches for p in m.players if p not in entrants})
    config = standings_config(event)
    mode = config.mode
    progress = knockout_progress(event, players) if mode == "knockout" else None
    table = compute_standings(players + extra, matches, bye_records(event), config, progress, dup)
    names, bots, fill_ins = {}, set(), set()
    for pk, name, is_bot, bot_level in Player.objects.filter(pk__in=players + extra).values_list(
        "id", "name", "is_bot", "bot_level"
    ):
        names[pk] = name
        if is_bot:  # the bot mark: built-in bots that filled seats, and bot accounts
            bots.add(pk)
        if bot_level and pk not in entrants:  # a built-in bot that filled a seat
            fill_ins.add(pk)
    if not event.rank_bots:  # they take no place (Event.rank_bots)
        table = rank_people(table, fill_ins)
    # who withdrew after playing stays ranked, marked (those who never played are listed apart)
    withdrew = dict(
        Entry.objects.filter(event=event, withdrawn_after_round__isnull=False).values_list(
            "player_id", "withdrawn_after_round"
        )
    )
    return [
        {
            "rank": row.rank,
            "player_id": row.player_id,
            "player": names[row.player_id],
            "is_bot": row.player_id in bots,
            "withdrawn_after": withdrew.get(row.player_id),
            "matches_played": row.matches_played,
            "match_points": row.match_points,
            "total_payouts": row.total_payouts,
            "wins": row.wins,
            "byes": row.byes,
            "absences": row.absences,
            "tiebreaks": list(row.tiebreak_values),
            "tied": row.tied,
            "round_reached": row.round_reached,
            **(_duplicate_columns(row) if dup is not None else {}),
        }
        for row in table
    ]


def _duplicate_columns(row: Any) -> dict[str, Any]:
    total, pct = row.duplicate_total, row.matchpoint_pct
    return {
        "duplicate_total": json_number(total),
        "matchpoint_pct": None if pct is None else json_number(pct),
        "duplicate_total_shown": str(round_half_even(total, PAGE_PLACES)),
        "matchpoint_pct_shown": "" if pct is None else str(round_half_even(pct, PAGE_PLACES)),
        "duplicate_deals": row.duplicate_deals,
    }


def standings_config(event: Event) -> StandingsConfig:
    """The event's standings configuration: its tie-breaks and lot, its format's mode, its
    scoring (a duplicate event ranks by `duplicate_rank`)."""
    return StandingsConfig(
        tiebreaks=tuple(event.tiebreaks),
        lot_seed=event.seed,
        mode=standings_mode(event),
        scoring=event.scoring,
        duplicate_rank=event.duplicate_rank,
    )


def standings_mode(event: Event) -> str:
    """How the event's format ranks ("points" or "knockout"); an unknown format: points."""
    try:
        return scheduling.get_format(event.format).standings_mode
    except scheduling.SchedulingError:
        return "points"


def knockout_progress(event: Event, entrants: list[int]) -> KnockoutProgress:
    """The last published round each entrant was in (at a table or with a bye), and the
    final's round once it is published: the last round, one table and no bye (two queries)."""
    entered = set(entrants)
    reached: dict[int, int] = {}
    tables: dict[int, set[int]] = {}
    for player_id, number, fixture_id in Seat.objects.filter(
        fixture__round__event=event, fixture__round__status="published"
    ).values_list("player_id", "fixture__round__number", "fixture_id"):
        tables.setdefault(number, set()).add(fixture_id)
        if player_id in entered:
            reached[player_id] = max(reached.get(player_id, 0), number)
    bye_rounds = set()
    for player_id, number in Bye.objects.filter(
        round__event=event, round__status="published"
    ).values_list("player_id", "round__number"):
        bye_rounds.add(number)
        reached[player_id] = max(reached.get(player_id, 0), number)
    last = max(tables, default=None)
    final = last if last is not None and len(tables[last]) == 1 and last not in bye_rounds else None
    return KnockoutProgress(reached=reached, final_round=final)


def touch_standings(event_id: int) -> None:
    """Mark the event's standings stale now and recompute them once the transaction commits.

    Pages compare the snapshot's version with the event's, so they are right even before the
    task has run (or when no worker is running); the task only saves the first reader the work.
    """
    Event.objects.filter(pk=event_id).update(standings_version=F("standings_version") + 1)
    # robust (queue.recompute_standings): the change is committed by then; a broker that is down
    # must not turn it into a 500 (pages recompute a snapshot that is behind).
    queue.recompute_standings(event_id)


@transaction.atomic
def refresh_standings(event: Event) -> list[dict[str, Any]]:
    """Recompute and store the snapshot; idempotent (same inputs, same row, same contents)."""
    version = Event.objects.filter(pk=event.pk).values_list("standings_version", flat=True).get()
    rows = compute_rows(event)
    StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": rows, "version": version}
    )
    return rows


def standings_rows(event: Event) -> list[dict[str, Any]]:
    """The cached table (one query), recomputed first if anything changed since it was made."""
    snapshot = StandingsSnapshot.objects.filter(event=event).values("rows", "version").first()
    if snapshot is None or snapshot["version"] != event.standings_version:
        return refresh_standings(event)
    return snapshot["rows"]
