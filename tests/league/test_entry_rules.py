"""Who may enter an event: bot accounts where the event allows them, never a built-in bot or a
deleted account's player; and names are one name whatever their case (lobby-api.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from league.errors import LeagueError
from league.models import Entry, Event, Player
from league.services import events as event_services
from league.services import players

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def robo(db) -> Player:
    """A bot account's player."""
    user = User.objects.create_user("robo", password="pw", is_bot_account=True)
    return players.player_for_user(user)


def event_of(alice, **fields) -> Event:
    return event_services.create_event(alice, name="Cup", game="saichugen", **fields)


def test_events_allow_bot_accounts_unless_the_organizer_says_otherwise(alice, robo):
    open_cup = event_of(alice)
    assert open_cup.allow_bot_accounts
    entry = event_services.add_entry(open_cup, robo, by=alice)
    assert entry.player == robo


def test_an_event_refusing_bot_accounts_refuses_them_with_a_clear_message(alice, robo):
    people_only = event_of(alice, allow_bot_accounts=False)
    with pytest.raises(LeagueError, match="robo is a bot account, and this event does not"):
        event_services.add_entry(people_only, robo, by=alice)
    with pytest.raises(LeagueError, match="does not allow bot accounts"):
        event_services.enter_player(people_only, by=alice, name="ROBO")  # any case finds robo
    assert not Entry.objects.filter(event=people_only).exists()
    person = Player.objects.create(name="ana")
    event_services.add_entry(people_only, person, by=alice)  # people still enter


def test_the_api_answers_a_refused_bot_account_with_400(alice, robo):
    people_only = event_of(alice, allow_bot_accounts=False)
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post(
        f"/api/events/{people_only.slug}/entries/", {"player_id": robo.pk}, format="json"
    )
    assert response.status_code == 400
    assert "does not allow bot accounts" in response.json()["detail"]
    listed = client.get(f"/api/events/{people_only.slug}/").json()
    assert listed["allow_bot_accounts"] is False


def test_bot_accounts_can_be_refused_only_once_none_is_entered(alice, robo):
    cup = event_of(alice)
    entry = event_services.add_entry(cup, robo, by=alice)
    with pytest.raises(LeagueError, match=r"Bot accounts have entered this event \(robo\)"):
        event_services.update_event(cup, by=alice, allow_bot_accounts=False)
    assert Event.objects.get(pk=cup.pk).allow_bot_accounts
    event_services.withdraw(entry, by=alice)
    event_services.update_event(Event.objects.get(pk=cup.pk), by=alice, allow_bot_accounts=False)
    assert not Event.objects.get(pk=cup.pk).allow_bot_accounts


def test_the_event_form_offers_the_choice(alice, client):
    client.force_login(alice)
    page = client.get("/events/new/?game=saichugen").content.decode()
    assert 'name="allow_bot_accounts"' in page
    cup = event_of(alice)
    edit = client.get(f"/events/{cup.slug}/edit/").content.decode()
    assert 'name="allow_bot_accounts"' in edit


def test_builtin_bots_and_deleted_accounts_players_never_enter(alice):
    cup = event_of(alice)
    bot = players.bot_player("Bot A")
    with pytest.raises(LeagueError, match="Built-in bots fill seats"):
        event_services.add_entry(cup, bot, by=alice)
    gone = Player.objects.create(name="Deleted player 7f3a", deleted_at=timezone.now())
    with pytest.raises(LeagueError, match="account was deleted"):
        event_services.add_entry(cup, gone, by=alice)
    assert not Entry.objects.filter(event=cup).exists()


# --- one name whatever its case ------------------------------------------------------------------


def test_the_database_refuses_a_name_that_differs_only_in_case():
    Player.objects.create(name="Ana")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="aNA")


def test_entering_a_name_in_another_case_finds_the_player_it_names(alice):
    ana = Player.objects.create(name="Ana")
    cup = event_of(alice)
    entry = event_services.enter_player(cup, by=alice, name="ANA")
    assert entry.player == ana
    assert Player.objects.count() == 1


def test_an_account_is_not_given_a_name_another_player_has_in_another_case():
    Player.objects.create(name="Nina")
    user = User.objects.create_user("nina", password="pw")
    assert players.player_for_user(user).name == "nina-2"
