"""Over-the-table events to print: alice organizes them, sam is logged in and organizes nothing.

`over_the_table` builds an event through the league services (entries, a generated and
published round), as an organizer does; the browser tests build theirs in the live server's
own database (tests/print/test_browser.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Event, Round
from league.services import events as event_services
from league.services import rounds as round_services
from tests.league.conftest import make_organizer


@pytest.fixture
def alice(db):
    """Organizes every event here (she holds the organizer role)."""
    return make_organizer(get_user_model().objects.create_user("alice", password="pw"))


@pytest.fixture
def sam(db):
    """Logged in, organizes nothing: sees what the public sees."""
    return get_user_model().objects.create_user("sam", password="pw")


def over_the_table(
    organizer,
    game: str = "three_five_eight",
    *,
    players: int = 9,
    deals: int = 4,
    publish_event: bool = True,
    publish_round: bool = True,
    prefix: str = "",
) -> tuple[Event, Round]:
    """An event of `game` played over the table, `players` entered (named "<prefix>p1"…) and
    round 1 generated (published unless told not to)."""
    event = event_services.create_event(
        organizer,
        name=f"{prefix}{game} club night",
        game=game,
        rounds=2,
        deals_per_match=deals,
        format="swiss",
        play_online=False,
    )
    if publish_event:
        event_services.publish_event(event, by=organizer)
    for n in range(1, players + 1):
        event_services.enter_player(event, by=organizer, name=f"{prefix}p{n}")
    round_ = round_services.generate_round(event, by=organizer)
    if publish_round:
        round_ = round_services.publish_round(round_, by=organizer)
    event.refresh_from_db()
    return event, round_


# The browser tests' real server and Chromium (tests/browser/conftest.py).
from tests.browser.conftest import browser, server  # noqa: E402, F401
