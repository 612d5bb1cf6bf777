"""Who goes on after a round, as the event's format decides it (a knockout's table goers,
byes and best non-winners), read from the database for the format's pure `advance`.

One loader for its readers: `rounds.generate_round` (the next round's field),
`results.record_result` (a correction that would change who went on, once the next round
exists, is refused), the round page (who went on, and why) and `event_end` (a knockout's
champion, and whether its final is played).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Prefetch

from league import scheduling
from league.models import Bye, Entry, Event, Fixture, Result, Round, Seat
from league.scheduling.records import Advance, RoundOutcome, Standing
from league.services.entering import check_format
from league.services.standings import bye_records, match_records
from league.standings import MatchRecord, tally_event


def table_result(
    seats: Sequence[Seat], scored: dict[str, Any], absent: Sequence[int] = ()
) -> scheduling.TableResult:
    """A table's counted result as the formats read it (`seats` in seat order, players loaded;
    `absent`: the seats marked absent, `Result.absent_seats`).

    A built-in bot fills a seat and goes nowhere (None); a bot account is an entrant like
    anyone."""
    return scheduling.TableResult(
        seats=tuple(None if seat.player.is_builtin_bot else seat.player_id for seat in seats),
        winners=frozenset(scored["winners"]),
        payouts=tuple(scored["totals"]["payouts"]),
        absent=frozenset(absent),
    )


def standing_through(
    event: Event, round_no: int, *, replace: MatchRecord | None = None
) -> dict[int, Standing]:
    """Every player's total payout and match points over rounds 1..`round_no` (later rounds
    do not count: they did not exist when the round's decision was made); `replace`: a
    fixture's record as a correction would make it."""
    matches = [m for m in match_records(event) if m.round_no <= round_no]
    if replace is not None:
        matches = [m for m in matches if m.fixture_id != replace.fixture_id] + [replace]
    byes = [b for b in bye_records(event) if b.round_no <= round_no]
    players = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    players |= {p for m in matches for p in m.players}
    tally = tally_event(sorted(players), matches, byes, lot_seed=event.seed)
    return {p: Standing(t.total_payouts, t.match_points) for p, t in tally.players.items()}


def still_entered(event: Event) -> frozenset[int]:
    """Who may still play: checked in and not withdrawn (as `rounds.active_entries`)."""
    return frozenset(
        Entry.objects.filter(
            event=event, checked_in=True, withdrawn_after_round__isnull=True
        ).values_list("player_id", flat=True)
    )


def played_plan(round_: Round) -> scheduling.RoundPlan:
    """A stored round as the scheduler writes one: tables in seat order (None: bot), byes
    (two queries). What `Format.is_decided` reads: the next round's planning, the event's end."""
    tables: dict[int, list[int | None]] = {}
    seats = Seat.objects.filter(fixture__round=round_).order_by("fixture__number", "number")
    for fixture_id, player_id, bot_level in seats.values_list(
        "fixture_id", "player_id", "player__bot_level"
    ):
        # A built-in bot is a filler the plan leaves open; a bot account is an entrant.
        tables.setdefault(fixture_id, []).append(None if bot_level else player_id)
    byes = Bye.objects.filter(round=round_).values_list("player_id", flat=True)
    return scheduling.RoundPlan(tuple(map(tuple, tables.values())), tuple(byes))


def played_tables(
    round_: Round, fixtures: Iterable[Fixture] | None = None
) -> list[tuple[Fixture, list[Seat], Result | None]]:
    """The round's fixtures, table 1 first, each with its seats in seat order (players
    loaded) and its counting result (None while it has none). `fixtures`: already loaded so
    (the round page's: seats with their players, the current result `counting`)."""
    if fixtures is None:
        fixtures = round_.fixtures.order_by("number").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")),
            Prefetch("results", queryset=Result.objects.filter(current=True), to_attr="counting"),
        )
    return [(f, list(f.seats.all()), f.counting[0] if f.counting else None) for f in fixtures]


def round_outcome(
    round_: Round,
    *,
    tables: list[tuple[Fixture, list[Seat], Result | None]] | None = None,
    byes: list[int] | None = None,
    corrected: tuple[Fixture, dict[str, Any], list[int]] | None = None,
) -> RoundOutcome | None:
    """What the format decides from, once every table of the round has a result (None
    before); `tables` and `byes`: as already loaded (`played_tables`, the byes' player ids);
    `corrected`: (fixture, scored, forfeited seats) of a correction to weigh."""
    event = round_.event
    tables = played_tables(round_) if tables is None else tables
    results, replace = [], None
    for fixture, seats, result in tables:
        scored = result.scored if result is not None else None
        forfeited = result.forfeited_seats if result is not None else []
        absent = (result.absent_seats or []) if result is not None else []
        if corrected is not None and corrected[0].pk == fixture.pk:
            _, scored, forfeited = corrected
            absent = []  # a correction is a result of the match played, without the mark
            replace = _match_record(fixture, round_, seats, scored, forfeited)
        if scored is None:
            return None
        results.append(table_result(seats, scored, absent))
    return RoundOutcome(
        tables=results,
        byes=tuple(
            Bye.objects.filter(round=round_).values_list("player_id", flat=True)
            if byes is None
            else byes
        ),
        standing=standing_through(event, round_.number, replace=replace),
        active=still_entered(event),
        table_size=len(tables[0][1]) if tables else None,
        leftover=event.leftover,
        seed=event.seed,
    )


def _match_record(fixture, round_, seats, scored, forfeited) -> MatchRecord:
    players = tuple(seat.player_id for seat in seats)
    return MatchRecord(
        fixture_id=fixture.pk,
        round_no=round_.number,
        players=players,
        payouts=tuple(scored["totals"]["payouts"]),
        winners=tuple(players[s] for s in scored["winners"]),
        forfeited=frozenset(players[s] for s in forfeited),
        deals_played=len(scored["deals"]),
    )


def decision(round_: Round, **kwargs: Any) -> Advance | None:
    """The format's decision after `round_` (None: the format keeps everyone, or a result
    is missing)."""
    fmt = check_format(round_.event.format)
    if not fmt.picks_players:
        return None
    outcome = round_outcome(round_, **kwargs)
    return None if outcome is None else fmt.advance(outcome)


def going_on(round_: Round) -> list[int] | None:
    """Who plays the round after `round_`, seeded (None: everyone still entered)."""
    decided = decision(round_)
    return None if decided is None else list(decided.players)


def correction_keeps_who_went_on(
    fixture: Fixture, scored: dict[str, Any], forfeited_seats: list[int]
) -> bool:
    """Whether counting `scored` for `fixture` leaves the field of the next round as it was
    planned (the best non-winners too: a correction can move a total payout)."""
    round_ = fixture.round
    before = decision(round_)
    if before is None:
        return True
    after = decision(round_, corrected=(fixture, scored, forfeited_seats))
    return after is None or set(after.players) == set(before.players)
