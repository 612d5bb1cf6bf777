"""A small league for the schedule's tests: alice organizes; bob, carol and dave (accounts with
e-mail addresses) play one Saichugen table; erin is an outsider. Times are frozen with
time-machine where they matter."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from league.models import Event, Round
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.permissions import organizer_role
from league.services.players import player_for_user
from league.services.schedule import set_round_schedule

# A Monday in winter: Europe/Rome is CET (UTC+1) then.
T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def account(name: str, **fields):
    user = get_user_model().objects.create_user(
        name, password="pw", email=f"{name}@example.org", **fields
    )
    player_for_user(user)
    return user


@pytest.fixture
def alice(db):
    user = account("alice")
    user.user_permissions.add(organizer_role())
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def players(db):
    """bob, carol and dave: the three seats of the table."""
    return [account(name) for name in ("bob", "carol", "dave")]


@pytest.fixture
def erin(db):
    return account("erin")


@pytest.fixture
def make_event(alice, players) -> Callable[..., Event]:
    """A published Saichugen event with bob, carol and dave entered and checked in."""

    def make(**fields) -> Event:
        fields = {
            "name": "Winter league",
            "game": "saichugen",
            "rounds": 2,
            "deals_per_match": 1,
            "format": "league",
            **fields,
        }
        event = event_services.create_event(alice, **fields)
        event_services.publish_event(event, by=alice)
        for user in players:
            event_services.add_entry(event, user.player, by=alice, checked_in=True)
        return Event.objects.get(pk=event.pk)

    return make


@pytest.fixture
def publish(alice) -> Callable[..., Round]:
    """Plan and publish the event's next round, with its window."""

    def run(event: Event, *, starts_at=None, deadline=None) -> Round:
        round_ = round_services.generate_round(event, by=alice)
        if starts_at or deadline:
            set_round_schedule(round_, by=alice, starts_at=starts_at, deadline=deadline)
        return round_services.publish_round(round_, by=alice)

    return run
