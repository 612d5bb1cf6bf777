"""The end of an event: it finishes by itself once its last round is decided, and names its
podium (docs/league.md, "The end of an event").

`settle(event)` runs where what it reads changes — a result counted or corrected
(`results.record_result`, `record_forfeit`: every way a result comes in, the end of an online
match included), a round published, the event's settings changed — inside that transaction,
the event's row locked (two last results counted at once: the second sees the first). It sets
what the state says, so it is idempotent, and a change that reopens the event (more rounds)
takes `finished` back. A closed event is left as it is: closing (`events.close_event`) keeps
the podium the event has then, and nothing changes after.

The podium (`Event.winners`, kept with the status so every list shows it at no cost): a
knockout's champion (and how they went on: the result at the final, or a tie-break of the
stated order, or the event's draw) and the final's other players; any other format's first
three of the standings. Built-in bots that filled seats are never on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from league.models import Event, Player, Round
from league.scheduling.knockout import stated_key, table_call
from league.services import actions, advancing
from league.services.entering import check_format
from league.services.standings import compute_rows, ranked_entrants, standings_mode

# How a knockout's champion went on from the final (`TableCall.decided_by`), as the API says it.
DECIDED_BY = {
    "won": "result",
    "table_payout": "result",
    "alone": "result",
    "total_payouts": "total_payouts",
    "match_points": "match_points",
    "draw": "lot",
}
PODIUM_PLACES = 3  # of a points format's standings


def is_decided(event: Event, facts: actions.Facts | None = None) -> bool:
    """Whether nothing is left to play: no draft round, every published table has its result,
    and the last round is the event's last (`rounds`) or one after which its format plays no
    other (a knockout's final)."""
    facts = facts or actions.Facts(event)
    if not facts.rounds or facts.draft_number is not None or facts.waiting:
        return False
    number = facts.rounds[-1][0]
    if number >= event.rounds:
        return True
    last = Round.objects.get(event=event, number=number)
    return check_format(event.format).is_decided(advancing.played_plan(last))


def winners(event: Event, *, decided: bool) -> list[dict[str, Any]]:
    """The podium to keep on the event (`Event.winners`); a knockout has one only once its
    final is decided."""
    fmt = check_format(event.format)
    if fmt.standings_mode == "knockout":
        return _knockout_podium(event) if decided else []
    entrants = set(ranked_entrants(event))
    rows = [row for row in compute_rows(event) if row["player_id"] in entrants]
    return [
        # a tie shares its place (1, 1, 3), as the standings show it
        {"place": row["rank"] or place, "player": row["player_id"], "decided_by": None}
        for place, row in enumerate(rows[:PODIUM_PLACES], start=1)
    ]


def _knockout_podium(event: Event) -> list[dict[str, Any]]:
    """The final's champion, as the format decides who goes on from a table (the game's
    winners, the payout, then the stated order and the draw: `table_call`), then the final's
    other people in that same order."""
    last = event.round_set.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    outcome = advancing.round_outcome(last) if last is not None else None
    if outcome is None or len(outcome.tables) != 1:
        return []
    final = outcome.tables[0]
    # Everyone who played the final is in it, even one who withdrew since.
    call = table_call(1, final, replace(outcome, active=None))
    if call.advancer is None:
        return []

    def key(seat: int) -> tuple:
        player = final.seats[seat]
        return (
            seat in final.winners,
            final.payouts[seat],
            *stated_key(player, outcome.standing, outcome.seed),
        )

    seats = [s for s, p in enumerate(final.seats) if p is not None and p != call.advancer]
    others = [final.seats[s] for s in sorted(seats, key=key, reverse=True)]
    return [
        {"place": 1, "player": call.advancer, "decided_by": DECIDED_BY[call.decided_by]},
        *({"place": n, "player": p, "decided_by": None} for n, p in enumerate(others, start=2)),
    ]


def settle(event: Event) -> None:
    """Set the event's status and podium from its state (see the module); the caller's
    `event` is updated too. Part of the services named above, inside their transaction."""
    row = Event.objects.select_for_update().get(pk=event.pk)
    if row.status != Event.Status.CLOSED:
        facts = actions.Facts(row)
        published = any(status == Round.Status.PUBLISHED for _n, status in facts.rounds)
        decided = published and is_decided(row, facts)
        status = (
            Event.Status.FINISHED
            if decided
            else Event.Status.RUNNING
            if published
            else Event.Status.OPEN
        )
        podium = winners(row, decided=True) if decided else []
        if (status, podium) != (row.status, row.winners):
            Event.objects.filter(pk=row.pk).update(status=status, winners=podium)
        row.status, row.winners = status, podium
    event.status, event.winners = row.status, row.winners


def close_podium(event: Event) -> list[dict[str, Any]]:
    """The podium an event closes with: a finished one keeps its own; one closed under way
    names the standings' first three (a knockout without its final, or an event that never
    started: nobody)."""
    if event.status == Event.Status.FINISHED:
        return event.winners
    if event.status != Event.Status.RUNNING:
        return []
    return winners(event, decided=False)


# --- reading the podium, for the pages and the API ---------------------------------------------


@dataclass(frozen=True)
class Place:
    """One place of a podium, its player loaded; `decided_by` says how a knockout's champion
    went on ("result", "total_payouts", "match_points", "lot"), None for the others; `role`:
    a knockout's "champion" or "finalist", "" in a points format."""

    place: int
    player: Player
    decided_by: str | None = None
    role: str = ""

    @property
    def how(self) -> str:
        """How the champion went on, as a person reads it ("" when the result said it)."""
        return {
            "lot": _("by the event's draw"),
            "total_payouts": _("level at the final, by total payout in the event"),
            "match_points": _("level at the final, by match points"),
        }.get(self.decided_by or "", "")


def podiums(events: list[Event]) -> dict[int, list[Place]]:
    """Each event's podium with its players (one query for all, none when nobody is on one)."""
    ids = {place["player"] for event in events for place in event.winners}
    players = Player.objects.in_bulk(ids) if ids else {}
    return {
        event.pk: [
            Place(
                place["place"],
                players[place["player"]],
                place.get("decided_by"),
                _role(event, place["place"]),
            )
            for place in event.winners
            if place["player"] in players
        ]
        for event in events
    }


def _role(event: Event, place: int) -> str:
    if standings_mode(event) != "knockout":
        return ""
    return "champion" if place == 1 else "finalist"


def podium(event: Event) -> list[Place]:
    """One event's podium (`podiums`)."""
    return podiums([event])[event.pk]
