"""Personas of the API tests (as healthchecks' alice, bob and charlie).

Alice organizes the events (she holds the organizer role). Bob plays in them (his account has
a player). Charlie is logged in but has nothing to do with Alice's events and no role: he may
see only what the public sees, and change nothing. Sam is staff.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import Event, Player
from tests.league.conftest import make_organizer
from tests.league_api.builders import client_of, enter, make_event, seat_round


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return make_organizer(django_user_model.objects.create_user("alice", password="alice-password"))


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("bob", password="bob-password")
    Player.objects.create(name="bob", user=user)
    return user


@pytest.fixture
def charlie(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("charlie", password="charlie-password")


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("sam", password="sam-password", is_staff=True)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def as_alice(alice: Any) -> APIClient:
    return client_of(alice)


@pytest.fixture
def as_bob(bob: Any) -> APIClient:
    return client_of(bob)


@pytest.fixture
def as_charlie(charlie: Any) -> APIClient:
    return client_of(charlie)


@pytest.fixture
def cup(alice: Any, bob: Any) -> Event:
    """Alice's published cup: Bob, Dora and Emil at table 1 of a published round 1."""
    event = make_event(alice)
    enter(event, ["bob", "dora", "emil"])
    seat_round(event, [list(Player.objects.filter(name__in=["bob", "dora", "emil"]))])
    return event


@pytest.fixture
def draft(alice: Any) -> Event:
    """Alice's draft event, which nobody but her (and staff) may know exists."""
    event = make_event(alice, "Secret Draft", published=False)
    enter(event, ["dora", "emil", "fritz"])
    return event
