"""The league's queries behind the home page: leaders per game, events, a player's next fixture."""

from __future__ import annotations

import pytest

from league.models import Event, Fixture
from league.ratings.leaders import leaders
from league.ratings.services import provisional_games, provisional_opponents
from league.services import overview
from league.services.events import close_event
from league.services.results import record_result
from tests.home.conftest import enter_accounts, publish_next_round
from tests.league.conftest import play_round, record_for

pytestmark = pytest.mark.django_db


def test_leaders_are_each_games_best_established_in_leaderboard_order(rate):
    for n in range(7):
        rate(f"s{n}", "saichugen", 10.0 - n)
        rate(f"m{n}", "mediatore", 20.0 + n)
    rate("tie-b", "schieberamsch", 5.0)
    rate("tie-a", "schieberamsch", 5.0)
    tops = leaders(size=5)
    assert [r.player.name for r in tops["saichugen"].established] == [f"s{n}" for n in range(5)]
    assert [r.player.name for r in tops["mediatore"].established] == [
        f"m{n}" for n in (6, 5, 4, 3, 2)
    ]
    # Equal ratings (same mu): by name, as the leaderboard orders them.
    assert [r.player.name for r in tops["schieberamsch"].established] == ["tie-a", "tie-b"]
    assert "three_five_eight" not in tops


def test_provisional_players_are_listed_apart_and_never_ranked_among_the_established(rate):
    rate("veteran", "saichugen", 1.0)
    rate("newcomer", "saichugen", 50.0, games=provisional_games() - 1)
    rate("bot farmer", "saichugen", 40.0, games=100, opponents=provisional_opponents() - 1)
    tops = leaders()
    assert [r.player.name for r in tops["saichugen"].established] == ["veteran"]
    assert [r.player.name for r in tops["saichugen"].provisional] == ["newcomer", "bot farmer"]


def test_events_under_way_and_coming_up_are_published_and_not_closed(make_event, alice):
    upcoming = make_event("Spring open")
    running = make_event("Winter league")
    play_round(running, alice)
    draft = make_event("Secret draft")
    Event.objects.filter(pk=draft.pk).update(visibility=Event.Visibility.DRAFT)
    closed = make_event("Old cup")
    play_round(closed, alice)
    close_event(closed, by=alice)

    assert [e.name for e in overview.running_events()] == ["Winter league"]
    assert overview.running_events()[0].rounds_published == 1
    assert [e.name for e in overview.upcoming_events()] == ["Spring open"]
    assert overview.upcoming_events()[0].n_entries == 3
    assert upcoming.pk not in {e.pk for e in overview.running_events()}


def test_the_next_fixture_is_the_players_own_unplayed_one_online_or_over_the_table(
    make_event, alice, bob, dave
):
    event = make_event("Cup", players=5)  # players without accounts: over the table
    enter_accounts(event, alice, [bob])
    round_ = publish_next_round(event, alice)
    mine = Fixture.objects.get(round=round_, seats__player__user=bob)
    assert mine.table_ref == ""  # the others have no accounts

    fixture = overview.next_fixture(bob)
    assert fixture == mine
    assert [s.player.name for s in fixture.seats.all()] == [
        s.player.name for s in mine.seats.order_by("number")
    ]
    assert overview.next_fixture(dave) is None  # not entered: bob's fixture is not his

    record_result(mine, by=alice, record=record_for(mine))
    assert overview.next_fixture(bob) is None  # played


def test_a_draft_round_or_an_unpublished_event_gives_no_next_fixture(make_event, alice, bob):
    event = make_event("Cup", players=2)
    enter_accounts(event, alice, [bob])
    publish_next_round(event, alice)
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    assert overview.next_fixture(bob) is None
