"""An over-the-table 3-5-8 event whose three players have accounts (ann, ben, cat), run by
alice; dan has an account and sits at no table; olga organizes another event."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from games import catalogue
from league.models import Event, Fixture, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import player_for_user
from tests.league.conftest import make_organizer


@dataclass
class Table:
    event: Event
    fixture: Fixture
    users: list  # the seats' accounts in seat order (None: a player without one)


def user(name: str):
    return get_user_model().objects.create_user(name, password="pw")


@pytest.fixture
def alice(db):
    return make_organizer(user("alice"))


@pytest.fixture
def olga(db):
    """Organizes an event of her own: no right over alice's."""
    olga = make_organizer(user("olga"))
    event_services.create_event(olga, name="Olga's cup", game="saichugen", rounds=1)
    return olga


@pytest.fixture
def dan(db):
    return user("dan")


def over_the_table(
    alice,
    game: str = "three_five_eight",
    *,
    deals: int = 2,
    accounts: int = 4,
    table_results: bool = True,
    variant: dict | None = None,
    prefix: str = "",
) -> Table:
    """One published round, one table played over the table by ann, ben, cat (and dil in a
    four-player game), the first `accounts` of them with an account; `prefix` keeps the names
    of a second table apart."""
    event = event_services.create_event(
        alice,
        name=f"{prefix}{game} club night",
        game=game,
        variant=variant or {},
        rounds=1,
        deals_per_match=deals,
        format="league",
        play_online=False,
        table_results=table_results,
    )
    event_services.publish_event(event, by=alice)
    names = [f"{prefix}{name}" for name in ("ann", "ben", "cat", "dil")][
        : catalogue.game(game).seats
    ]
    for n, name in enumerate(names):
        player = player_for_user(user(name)) if n < accounts else Player.objects.create(name=name)
        event_services.add_entry(event, player, by=alice, checked_in=True)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.get()
    users = [s.player.user for s in fixture.seats.select_related("player__user").order_by("number")]
    event.refresh_from_db()
    return Table(event, fixture, users)


@pytest.fixture
def table(alice) -> Table:
    return over_the_table(alice)


# The browser test's real server and Chromium (tests/browser/conftest.py).
from tests.browser.conftest import browser, server  # noqa: E402, F401
