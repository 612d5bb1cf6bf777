"""Builders for the API tests: events, entries, rounds with fixed tables, finished matches.

Tables seat three (3-5-8) and matches last one deal, so each record is quick to play. Rounds
are built from a fixed table plan through the service that stores plans, so the read tests do
not depend on the scheduler's choices; the generate endpoint is tested on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from django.db import transaction
from rest_framework.test import APIClient

from games import catalogue
from league.models import Event, Fixture, Player, Result, Round
from league.services import events as event_services
from league.services import results as result_services
from league.services import rounds as round_services

GAME = "three_five_eight"
TABLE = 3


def client_of(user: Any) -> APIClient:
    """A client logged in (by session) as this user."""
    client = APIClient()
    client.force_login(user)
    return client


def organizer_of(event: Event) -> Any:
    """The account that created the event (its first organizer): builders act as them."""
    return event.organizers.order_by("pk").first()


def make_event(organizer: Any, name: str = "Spring Cup", *, published: bool = True, **fields: Any):
    fields = {"game": GAME, "rounds": 5, "deals_per_match": 1, "format": "league", **fields}
    event = event_services.create_event(organizer, name=name, **fields)
    if published:
        event_services.publish_event(event, by=organizer)
    event.refresh_from_db()
    return event


def enter(event: Event, names: Sequence[str], *, checked_in: bool = True) -> list[Player]:
    """Enter these players (made if new) as the event's organizer."""
    by = organizer_of(event)
    return [
        event_services.enter_player(event, by=by, name=name, checked_in=checked_in).player
        for name in names
    ]


def seat_round(
    event: Event,
    tables: Sequence[Sequence[Player]],
    *,
    byes: Sequence[Player] = (),
    publish: bool = True,
) -> Round:
    """The next round with exactly these tables (players in seat order) and byes."""
    number = event.round_set.count() + 1
    with transaction.atomic():
        round_ = Round.objects.create(event=event, number=number)
        plan = SimpleNamespace(
            tables=[[p.pk for p in table] for table in tables], byes=[p.pk for p in byes]
        )
        round_services.store_plan(round_, plan, event)
    if publish:
        round_ = round_services.publish_round(round_, by=organizer_of(event))
    return round_


def record_for(fixture: Fixture, *, seed: int = 1, game: str | None = None) -> dict[str, Any]:
    """A legal, complete record of this fixture's match (seats' names in seat order)."""
    event = fixture.round.event
    names = [seat.player.name for seat in fixture.seats.select_related("player")]
    return catalogue.random_record(
        game or event.game,
        players=names,
        variant=event.variant if game is None else None,
        n_deals=event.deals_per_match,
        seed=seed,
    )


def finish(fixture: Fixture, by: Any, *, seed: int = 1) -> Result:
    """Count a complete random record as the fixture's result."""
    return result_services.record_result(fixture, by=by, record=record_for(fixture, seed=seed))


def league_with(
    organizer: Any, *, rounds: int, tables: int, finished: bool = True, **fields: Any
) -> Event:
    """A published event of `tables` full tables per round, `rounds` rounds, results counted."""
    event = make_event(organizer, f"League {rounds}x{tables}", **fields)
    players = enter(event, [f"p{rounds}-{n:02d}" for n in range(tables * TABLE)])
    for r in range(rounds):
        shift = r % TABLE  # rotate seats between rounds, so rounds differ
        order = players[shift:] + players[:shift]
        round_ = seat_round(event, [order[t * TABLE : (t + 1) * TABLE] for t in range(tables)])
        if finished:
            for fixture in round_.fixtures.all():
                finish(fixture, organizer, seed=fixture.pk)
    return event


def table_one(event: Event, round_no: int = 1) -> Fixture:
    return Fixture.objects.select_related("round__event").get(
        round__event=event, round__number=round_no, number=1
    )
