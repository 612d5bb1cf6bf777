"""An event's bot fill chooses its level (`Event.bot_level`): its leftover seats, and an absent
person's seat after an asynchronous round's deadline, are played by built-in bots at it, and
each level is its own rated player ("Bot 1" basic, "Strong bot 1" strong)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay.models import Seat as TableSeat
from league.errors import LeagueError
from league.models import Event, Player
from league.services import events as event_services
from league.services import players
from league.services import rounds as round_services
from league.services.players import player_for_user
from tests.home.page import parse
from tests.organizer_forms.conftest import forms_of

# Not transactional: the tables' bots would start moving after a commit, and a strong one
# searches; here only how the tables are seated matters.
pytestmark = pytest.mark.django_db

FOUR = ["ana", "ben", "cleo", "dario"]  # two Saichugen tables of three: two bot seats


def online_event(alice, names, **fields) -> Event:
    """A published Saichugen league of people with accounts, one round of one deal."""
    event = event_services.create_event(
        alice, name="Bot cup", game="saichugen", rounds=2, deals_per_match=1, **fields
    )
    event_services.publish_event(event, by=alice)
    event.refresh_from_db()
    for name in names:
        player = player_for_user(get_user_model().objects.create_user(name, password="pw"))
        event_services.add_entry(event, player, by=alice, checked_in=True)
    return event


# --- the round's bot fill ---------------------------------------------------------------------


def test_a_strong_events_leftover_seats_open_their_table_with_strong_bots(alice):
    basic = players.bot_players(2)  # an earlier event's fill: "Bot 1", "Bot 2" at basic
    event = online_event(alice, FOUR, leftover="bot", bot_level="strong")
    round_ = round_services.generate_round(event, by=alice)
    fillers = [s.player for f in round_.fixtures.all() for s in f.seats.all() if s.player.is_bot]
    assert len(fillers) == 2
    assert {b.bot_level for b in fillers} == {"strong"}
    assert sorted(b.name for b in fillers) == ["Strong bot 1", "Strong bot 2"]
    assert not {b.pk for b in fillers} & {b.pk for b in basic}  # its own rated players

    round_services.publish_round(round_, by=alice)
    for fixture in round_.fixtures.prefetch_related("seats__player"):
        assert fixture.table_ref
        seats = {s.name: s for s in TableSeat.objects.filter(table_id=fixture.table_ref)}
        for seat in fixture.seats.all():
            table_seat = seats[seat.player.name]
            if seat.player.is_bot:
                assert (table_seat.bot_level, table_seat.user_id) == ("strong", None)
            else:
                assert (table_seat.bot_level, table_seat.user_id) == ("", seat.player.user_id)


def test_an_event_that_names_no_level_fills_with_the_basic_bots_it_always_had(alice):
    event = online_event(alice, FOUR, leftover="bot")
    assert event.bot_level == "basic"
    round_ = round_services.generate_round(event, by=alice)
    fillers = [s.player for f in round_.fixtures.all() for s in f.seats.all() if s.player.is_bot]
    assert sorted((b.name, b.bot_level) for b in fillers) == [
        ("Bot 1", "basic"),
        ("Bot 2", "basic"),
    ]


def test_each_level_numbers_its_own_bots_and_never_takes_another_levels_name():
    Player.objects.create(name="Strong bot 1")  # a person
    assert [b.name for b in players.bot_players(2, "strong")] == ["Strong bot 2", "Strong bot 3"]
    assert [b.name for b in players.bot_players(1, "random")] == ["Random bot 1"]
    assert [b.name for b in players.bot_players(1)] == ["Bot 1"]
    assert set(Player.objects.exclude(bot_level="").values_list("name", "bot_level")) == {
        ("Strong bot 2", "strong"),
        ("Strong bot 3", "strong"),
        ("Random bot 1", "random"),
        ("Bot 1", "basic"),
    }


# --- the event services -----------------------------------------------------------------------


def test_the_services_refuse_a_level_the_game_has_not(alice):
    with pytest.raises(LeagueError, match="bot level is one of random, basic, strong"):
        event_services.create_event(alice, name="X", game="saichugen", bot_level="grandmaster")
    event = event_services.create_event(alice, name="Y", game="saichugen")
    with pytest.raises(LeagueError, match="bot level"):
        event_services.update_event(event, by=alice, bot_level="")
    event_services.update_event(event, by=alice, bot_level="random")
    event.refresh_from_db()
    assert event.bot_level == "random"


def test_the_level_is_fixed_once_a_round_is_planned(alice):
    event = online_event(alice, FOUR, leftover="bot")
    round_services.generate_round(event, by=alice)  # a draft: its bot seats hold basic bots
    with pytest.raises(LeagueError, match="bot level cannot change once rounds exist"):
        event_services.update_event(event, by=alice, bot_level="strong")
    event_services.update_event(event, by=alice, bot_level="basic", name="Same level")


# --- the event form ---------------------------------------------------------------------------


def test_the_new_event_form_offers_the_games_levels_and_saves_the_chosen_one(client, alice):
    client.force_login(alice)
    url = reverse("league:event_create") + "?game=saichugen"
    html = client.get(url).content
    select = parse(html).find(name="bot_level")
    options = [(o.attrs["value"], o.text.strip()) for o in select.walk() if o.tag == "option"]
    assert options == [("random", "Random"), ("basic", "Basic"), ("strong", "Strong")]
    (form,) = [f for f in forms_of(url, html) if "bot_level" in f.fields]
    assert form.fields["bot_level"] == "basic"
    response = client.post(url, {**form.fields, "name": "Strong cup", "bot_level": "strong"})
    assert response.status_code == 302
    assert Event.objects.get(name="Strong cup").bot_level == "strong"


def test_the_event_form_refuses_an_unknown_level_beside_its_field(client, alice):
    client.force_login(alice)
    url = reverse("league:event_create") + "?game=saichugen"
    (form,) = [f for f in forms_of(url, client.get(url).content) if "bot_level" in f.fields]
    response = client.post(url, {**form.fields, "name": "Odd cup", "bot_level": "grandmaster"})
    assert response.status_code == 200
    assert "bot_level" in response.context["form"].errors
    assert not Event.objects.filter(name="Odd cup").exists()


def test_the_edit_form_changes_the_level_until_a_round_is_planned(client, alice):
    client.force_login(alice)
    event = online_event(alice, FOUR, leftover="bot")
    url = reverse("league:event_edit", args=[event.slug])
    (form,) = [f for f in forms_of(url, client.get(url).content) if f.action == url]
    assert client.post(url, {**form.fields, "bot_level": "random"}).status_code == 302
    event.refresh_from_db()
    assert event.bot_level == "random"

    round_services.generate_round(event, by=alice)
    html = client.get(url).content
    assert "disabled" in parse(html).find(name="bot_level").attrs
    (form,) = [f for f in forms_of(url, html) if f.action == url]
    assert "bot_level" not in form.fields  # a browser does not send a disabled field
    response = client.post(url, {**form.fields, "bot_level": "strong"})
    assert response.status_code == 200
    assert "this cannot change once rounds exist" in response.content.decode()
    event.refresh_from_db()
    assert event.bot_level == "random"


def test_the_event_page_names_the_level_of_its_bots(client, alice):
    event = online_event(alice, [], leftover="bot", bot_level="strong")
    assert "Bot level: Strong." in client.get(event.get_absolute_url()).content.decode()
    plain = online_event(alice, [], leftover="bye")
    assert "Bot level" not in client.get(plain.get_absolute_url()).content.decode()


# --- the API ----------------------------------------------------------------------------------


def test_the_api_writes_and_reads_the_level_and_defaults_to_basic(alice):
    api = APIClient()
    api.force_login(alice)
    made = api.post(
        "/api/events/", {"name": "API cup", "game": "saichugen", "bot_level": "strong"}, "json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["bot_level"] == "strong"
    assert Event.objects.get(slug=made.json()["slug"]).bot_level == "strong"
    plain = api.post("/api/events/", {"name": "Older client", "game": "saichugen"}, "json")
    assert plain.status_code == 201, plain.content
    assert api.get(f"/api/events/{plain.json()['slug']}/").json()["bot_level"] == "basic"


def test_the_api_refuses_an_unknown_level_on_its_field(alice):
    api = APIClient()
    api.force_login(alice)
    response = api.post(
        "/api/events/", {"name": "X", "game": "saichugen", "bot_level": "grandmaster"}, "json"
    )
    assert response.status_code == 400
    assert response.json() == {"bot_level": ["the bot level is one of random, basic, strong"]}
    assert not Event.objects.exists()


def test_a_built_in_bots_page_names_its_level_as_people_read_it(client):
    (strong,) = players.bots_named(players.numbered_bot_names("strong"), 1, "strong")
    page = client.get(reverse("league:player", args=[strong.pk]))
    assert page.status_code == 200
    heading = parse(page.content).find_all("h1")[0].text
    assert "built-in bot (Strong)" in heading
    assert "(strong)" not in heading
