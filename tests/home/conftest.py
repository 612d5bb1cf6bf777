"""Builders for the home page's tests: events in each state, ratings, fixtures of a player.

The league personas (alice organizes, bob plays) come from the league tests' conftest.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import Event, Player, Rating
from league.ratings.services import provisional_games, provisional_opponents
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import player_for_user
from tests.league.conftest import alice, bob, charlie  # noqa: F401


@pytest.fixture
def dave(db):
    """Another player with an account (whose fixtures are not bob's business)."""
    return get_user_model().objects.create_user("dave", password="pw")


@pytest.fixture
def make_event(alice) -> Callable[..., Event]:  # noqa: F811  (the imported fixture)
    """A published event organized by alice, with `players` entered players without accounts
    (named after the event, so several events may exist at once)."""

    def make(name: str, game: str = "saichugen", players: int = 3, **fields) -> Event:
        fields = {"rounds": 3, "deals_per_match": 1, "format": "swiss", **fields}
        event = event_services.create_event(alice, name=name, game=game, **fields)
        event_services.publish_event(event, by=alice)
        event.refresh_from_db()
        for n in range(players):
            player = Player.objects.create(name=f"{name} player {n}")
            event_services.add_entry(event, player, by=alice, checked_in=True)
        return event

    return make


def enter_accounts(event: Event, organizer, users) -> None:
    for user in users:
        event_services.add_entry(event, player_for_user(user), by=organizer, checked_in=True)


def publish_next_round(event: Event, organizer):
    round_ = round_services.generate_round(event, by=organizer)
    return round_services.publish_round(round_, by=organizer)


@pytest.fixture
def rate() -> Callable[..., Rating]:
    """A player's rating in a game, made directly (the rating pipeline has its own tests):
    established unless `games` or `opponents` is below the provisional thresholds."""

    def make(
        name: str,
        game: str,
        ordinal: float,
        *,
        games: int | None = None,
        opponents: int | None = None,
        bot: bool = False,
    ) -> Rating:
        player, _ = Player.objects.get_or_create(name=name, defaults={"is_bot": bot})
        return Rating.objects.create(
            player=player,
            game=game,
            mu=ordinal + 3 * 2.0,
            sigma=2.0,
            ordinal=ordinal,
            games=provisional_games() if games is None else games,
            opponents=provisional_opponents() if opponents is None else opponents,
            last_played_at=timezone.now() - timedelta(days=1),
        )

    return make
