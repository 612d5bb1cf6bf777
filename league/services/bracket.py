"""A knockout's bracket: every table of every round, who went on from it and how, the champion.

Read once for the whole event (a fixed number of queries, whatever the rounds): the published
rounds, their tables with seats and counting results, the byes, and the standings the format's
decisions read (`advancing`), each round's decision made in memory as `advancing.round_outcome`
makes it for the round page. `league/pages/bracket.py` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from league import scheduling
from league.models import Bye, Entry, Event, Fixture, Result, Round, Seat
from league.scheduling.records import Advance, RoundOutcome, Standing
from league.services import advancing
from league.services.entering import check_format
from league.services.standings import bye_records, match_records
from league.standings import tally_event


@dataclass(frozen=True)
class BracketSeat:
    player_id: int
    name: str
    bot: bool
    payout: int | None  # the table's total payout (None before its result)
    won: bool  # a winner of the table by the game's result
    goes_on: bool  # went on from this table (the table's advancer)
    filled: bool  # went on as one of the best non-winners, to fill the next round's tables


@dataclass(frozen=True)
class BracketTable:
    number: int
    fixture_id: int
    seats: tuple[BracketSeat, ...]
    played: bool  # the table has its counting result
    decided_by: str  # the TableCall's criterion ("won", …, "draw"); "" before the result
    level: tuple[str, ...]  # who was level with the advancer before that criterion (a tie)

    @property
    def by_lot(self) -> bool:
        return self.decided_by == "draw"


@dataclass(frozen=True)
class BracketRound:
    number: int
    final: bool
    tables: tuple[BracketTable, ...]
    byes: tuple[tuple[int, str], ...]  # (player id, name) of who sat out and went through
    filled: tuple[tuple[int, str], ...]  # best non-winners taken on to fill the next round
    decided: bool  # every table has its result


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[BracketRound, ...]
    champion: str | None
    champion_by: str  # how the champion won the final ("won", "table_payout", …, "draw")


def is_knockout(event: Event) -> bool:
    """Whether the event's format picks who goes on (a bracket is drawn for it)."""
    return check_format(event.format).picks_players


def bracket(event: Event) -> Bracket:
    """The event's bracket as far as it is played."""
    fmt = check_format(event.format)
    rounds = list(
        Round.objects.filter(event=event, status=Round.Status.PUBLISHED)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "fixtures",
                queryset=Fixture.objects.order_by("number").prefetch_related(
                    Prefetch(
                        "seats", queryset=Seat.objects.select_related("player").order_by("number")
                    ),
                    Prefetch(
                        "results", queryset=Result.objects.filter(current=True), to_attr="counting"
                    ),
                ),
            ),
            Prefetch("byes", queryset=Bye.objects.select_related("player")),
        )
    )
    matches, bye_rows = match_records(event), bye_records(event)
    entered = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    active = advancing.still_entered(event)
    names: dict[int, str] = {}
    drawn: list[BracketRound] = []
    champion, champion_by = None, ""
    for round_ in rounds:
        tables = advancing.played_tables(round_, round_.fixtures.all())
        byes = [(b.player_id, b.player.name) for b in round_.byes.all()]
        for _f, seats, _r in tables:
            names.update((s.player_id, s.player.name) for s in seats)
        names.update(byes)
        decision = None
        if all(result is not None for _f, _s, result in tables):
            outcome = RoundOutcome(
                tables=[advancing.table_result(seats, r.scored) for _f, seats, r in tables],
                byes=tuple(p for p, _n in byes),
                standing=_standing(event, round_.number, matches, bye_rows, entered),
                active=active,
                table_size=len(tables[0][1]) if tables else None,
                leftover=event.leftover,
                seed=event.seed,
            )
            decision = fmt.advance(outcome)
        played = tuple(tuple(s.player_id for s in seats) for _f, seats, _r in tables)
        final = fmt.is_decided(scheduling.RoundPlan(played, tuple(p for p, _n in byes)))
        drawn.append(_round(round_.number, final, tables, byes, decision, names))
        if final and decision is not None and decision.calls and decision.calls[0].advancer:
            champion = names.get(decision.calls[0].advancer)
            champion_by = decision.calls[0].decided_by
    return Bracket(tuple(drawn), champion, champion_by)


def _standing(
    event: Event, round_no: int, matches: list, byes: list, entered: set[int]
) -> dict[int, Standing]:
    """`advancing.standing_through`, from records read once for every round."""
    upto = [m for m in matches if m.round_no <= round_no]
    players = entered | {p for m in upto for p in m.players}
    tally = tally_event(
        sorted(players), upto, [b for b in byes if b.round_no <= round_no], lot_seed=event.seed
    )
    return {p: Standing(t.total_payouts, t.match_points) for p, t in tally.players.items()}


def _round(
    number: int,
    final: bool,
    tables: list,
    byes: list[tuple[int, str]],
    decision: Advance | None,
    names: dict[int, str],
) -> BracketRound:
    calls = {c.table: c for c in decision.calls} if decision is not None else {}
    taken = set(decision.filled) if decision is not None and not final else set()
    drawn = []
    for i, (fixture, seats, result) in enumerate(tables, start=1):
        call = calls.get(i)
        payouts = result.scored["totals"]["payouts"] if result is not None else None
        winners = set(result.scored["winners"]) if result is not None else set()
        drawn.append(
            BracketTable(
                number=fixture.number,
                fixture_id=fixture.pk,
                seats=tuple(
                    BracketSeat(
                        player_id=seat.player_id,
                        name=seat.player.name,
                        bot=seat.player.is_builtin_bot,
                        payout=payouts[s] if payouts is not None else None,
                        won=s in winners,
                        goes_on=call is not None and call.advancer == seat.player_id,
                        filled=seat.player_id in taken,
                    )
                    for s, seat in enumerate(seats)
                ),
                played=result is not None,
                decided_by=call.decided_by if call is not None else "",
                level=tuple(names.get(p, "") for p in call.level) if call is not None else (),
            )
        )
    filled = tuple((p, names.get(p, "")) for p in decision.filled) if decision is not None else ()
    return BracketRound(
        number=number,
        final=final,
        tables=tuple(drawn),
        byes=tuple(byes),
        filled=filled if not final else (),
        decided=decision is not None,
    )
