"""Personas and small builders for league tests: alice organizes (she holds the organizer role),
bob plays, charlie is outside (logged in, no role, organizes nothing)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model

from games import catalogue
from league.models import Event, Fixture, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.permissions import organizer_role
from league.services.results import record_result


def make_organizer(user):
    """Give the account the organizer role, as staff do in the admin; returns it afresh (an
    account caches its permissions)."""
    user.user_permissions.add(organizer_role())
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def alice(db):
    """The organizer: she holds the organizer role."""
    return make_organizer(get_user_model().objects.create_user("alice", password="pw"))


@pytest.fixture
def bob(db):
    """A player with an account."""
    return get_user_model().objects.create_user("bob", password="pw")


@pytest.fixture
def charlie(db):
    """Logged in, but neither organizer nor staff: may see public pages and change nothing."""
    return get_user_model().objects.create_user("charlie", password="pw")


@pytest.fixture
def make_event(alice) -> Callable[..., Event]:
    def make(game: str = "saichugen", players: int = 6, **fields) -> Event:
        fields = {
            "name": f"{game} open",
            "game": game,
            "rounds": 3,
            "deals_per_match": 1,
            "format": "swiss",
            **fields,
        }
        event = event_services.create_event(alice, **fields)
        event_services.publish_event(event, by=alice)
        event.refresh_from_db()
        for n in range(players):
            player = Player.objects.create(name=f"{game[:3]}-player-{n}")
            event_services.add_entry(event, player, by=alice, checked_in=True)
        return event

    return make


def record_for(fixture: Fixture, seed: int = 0) -> dict:
    """A legal, complete record of this fixture's match (random legal play)."""
    event = fixture.round.event
    names = [seat.player.name for seat in fixture.seats.select_related("player")]
    return catalogue.random_record(
        event.game,
        players=names,
        variant=event.variant,
        n_deals=event.deals_for(len(names)),
        seed=seed + fixture.pk,
    )


def play_round(event: Event, by, seed: int = 0):
    """Generate, publish and enter a record for every table of the next round."""
    round_ = round_services.generate_round(event, by=by)
    round_services.publish_round(round_, by=by)
    for fixture in round_.fixtures.all():
        record_result(fixture, by=by, record=record_for(fixture, seed))
    return round_
