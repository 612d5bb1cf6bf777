"""The home page: what an anonymous visitor and a player see, and what neither sees."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay.models import Table
from games import catalogue
from league.models import Event, Fixture
from league.ratings.services import provisional_games
from league.services.events import close_event
from tests.home.builders import finish, friendly
from tests.home.conftest import enter_accounts, publish_next_round
from tests.home.page import parse
from tests.language import number, text, text_plural
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

HOME = "/"


def home(client):
    response = client.get(HOME)
    assert response.status_code == 200
    return parse(response.content)


def test_an_anonymous_visitor_gets_play_now_for_every_game(client):
    """Play now offers the visitor a guest seat, or logging in (docs/accounts.md, "Guests")."""
    page = home(client)
    play_now = page.find(id="play-now")
    action = reverse("gameplay:play-now")
    for game in catalogue.games():
        card = play_now.find(**{"data-game": game.name})
        assert card is not None, game.name
        assert game.display_name in card.text
        assert game.goal and text(game.goal) in card.text
        assert card.links == [reverse("gameplay:rules", args=[game.name])]  # how to play it
        # The same one form as a player's (the pace, then a button per game); the next page
        # offers a guest seat.
        button = play_now.find(tag="button", value=game.name)
        assert button.attrs["form"] == "play-now-form" and button.attrs["name"] == "game"
    assert play_now.forms() == [{"action": action}]
    radios = [i.attrs for i in play_now.find_all("input") if i.attrs.get("type") == "radio"]
    assert [r["value"] for r in radios if "checked" in r] == ["relaxed"]
    assert page.find(id="last-games") is None
    assert page.find(id="next-fixture") is None


def test_a_player_gets_a_play_now_button_for_every_game_that_starts_a_table(client, bob):
    client.force_login(bob)
    page = home(client)
    play_now = page.find(id="play-now")
    action = reverse("gameplay:play-now")
    # One form: the pace (relaxed for a first game), and a button per game naming it.
    assert play_now.forms() == [{"action": action}]
    radios = [i.attrs for i in play_now.find_all("input") if i.attrs.get("type") == "radio"]
    assert [r["value"] for r in radios] == ["relaxed", "normal", "fast"]
    assert [r["value"] for r in radios if "checked" in r] == ["relaxed"]
    for game in catalogue.games():
        button = play_now.find(tag="button", value=game.name)
        assert button.attrs["form"] == "play-now-form" and button.attrs["name"] == "game"

    response = client.post(action, {"game": "mediatore"})  # what one click sends
    table = Table.objects.get(seats__user=bob)
    assert response.status_code == 302
    assert table.game == "mediatore"
    assert table.status == Table.Status.PLAYING


def test_the_developers_echo_box_is_gone(client):
    response = client.get(HOME)
    assert b"echo.js" not in response.content
    assert b"ws-status" not in response.content
    assert b"/ws/echo/" not in response.content


def test_tables_in_play_are_the_public_friendly_tables_that_allow_spectators(
    client, alice, bob, charlie
):
    shown = friendly(bob, "schieberamsch")
    private = friendly(bob, private=True)
    closed_doors = friendly(bob, spectators=False)
    waiting = friendly(bob, "mediatore", open_seats=1)
    event_table = online_event_table(alice, [bob, charlie])
    assert {t.status for t in (shown, private, closed_doors)} == {Table.Status.PLAYING}

    for viewer in (None, charlie):
        if viewer:
            client.force_login(viewer)
        watch = home(client).find(id="watch-tables")
        links = watch.links
        assert reverse("gameplay:table", args=[shown.id]) in links
        for hidden in (private, closed_doors, waiting, event_table):
            assert not any(hidden.id in link for link in links), hidden
        assert "Schieberamsch" in watch.text


def test_a_player_sees_their_own_table_in_play_among_them(client, bob):
    mine = friendly(bob, private=True)
    client.force_login(bob)
    watch = home(client).find(id="watch-tables")
    assert reverse("gameplay:table", args=[mine.id]) in watch.links
    assert text("your seat") in watch.text


def test_open_tables_are_public_waiting_tables_with_an_open_seat_and_link_to_the_invitation(
    client, bob, charlie
):
    public = friendly(bob, "mediatore", open_seats=2)
    private = friendly(bob, "mediatore", open_seats=2, private=True)
    full = friendly(bob, "mediatore")
    client.force_login(charlie)
    section = home(client).find(id="open-tables")
    assert reverse("gameplay:join", args=[public.id]) in section.links
    assert text_plural("%(n)s open seat", "%(n)s open seats", 2) in section.text
    for hidden in (private, full):
        assert not any(hidden.id in link for link in section.links)
    # No link on the page carries a seat token.
    tokens = set(public.seats.values_list("token", flat=True))
    assert not any(token in link for token in tokens for link in section.links)


def test_events_under_way_and_coming_up_are_the_published_ones(client, alice, make_event):
    make_event("Spring open")
    running = make_event("Winter league")
    play_round(running, alice)
    draft = make_event("Secret draft")
    Event.objects.filter(pk=draft.pk).update(visibility=Event.Visibility.DRAFT)
    closed = make_event("Old cup")
    play_round(closed, alice)
    close_event(closed, by=alice)

    for viewer in (None, alice):  # alice organizes the draft: it is still not on the home page
        if viewer:
            client.force_login(viewer)
        events = home(client).find(id="events")
        assert "Winter league" in events.find(id="running-events").text
        assert "Spring open" in events.find(id="upcoming-events").text
        assert "Spring open" not in events.find(id="running-events").text
        assert "Secret draft" not in events.text
        # Closed: not under way nor coming up, but just finished, with its podium.
        assert "Old cup" not in events.find(id="running-events").text
        assert "Old cup" not in events.find(id="upcoming-events").text
        assert "Old cup" in events.find(id="finished-events").text
        assert reverse("league:standings", args=[running.slug]) in events.links


def test_each_games_leaderboard_shows_its_top_five_with_ratings(client, rate):
    for n in range(7):
        rate(f"Saichugen ace {n}", "saichugen", 30.0 - n)
        rate(f"Mediatore ace {n}", "mediatore", 10.0 - n)
    rate("Bot Bianca", "schieberamsch", 4.5, bot=True)
    rate("Fresh face", "schieberamsch", 40.0, games=provisional_games() - 1)
    leaders = home(client).find(id="leaders")

    saichugen = leaders.find(**{"data-game": "saichugen"})
    ranked = [li.text for li in saichugen.find(tag="ol").find_all("li")]
    assert [t.split(" ")[2] for t in ranked] == ["0", "1", "2", "3", "4"]
    assert number(30.0, 2) in ranked[0]
    assert "Saichugen ace 5" not in saichugen.text
    assert "Mediatore ace 0" not in saichugen.text
    assert reverse("league:ratings", args=["saichugen"]) in saichugen.links

    # The provisional player is listed apart, below the established one, never ranked first.
    schieberamsch = leaders.find(**{"data-game": "schieberamsch"})
    assert schieberamsch.find(tag="ol").find(tag="li").text.startswith("Bot Bianca")
    provisional = schieberamsch.find(tag="ul")
    assert "Fresh face" in provisional.text
    assert "Fresh face" not in schieberamsch.find(tag="ol").text

    assert text("No rated games yet.") in leaders.find(**{"data-game": "three_five_eight"}).text


def test_a_player_sees_their_next_fixture_and_nobody_else_does(
    client, alice, bob, dave, make_event
):
    event = make_event("Club night", players=5)  # people without accounts: over the table
    enter_accounts(event, alice, [bob])
    round_ = publish_next_round(event, alice)
    fixture = Fixture.objects.get(round=round_, seats__player__user=bob)

    client.force_login(bob)
    section = home(client).find(id="next-fixture")
    assert "Club night" in section.text
    round_and_table = text(
        "round %(round)s, table %(table)s", round=round_.number, table=fixture.number
    )
    assert round_and_table in section.text
    assert text("Played over the table: the organizer enters the result.") in section.text

    client.force_login(dave)  # not entered
    assert home(client).find(id="next-fixture") is None
    client.logout()
    assert home(client).find(id="next-fixture") is None


def test_an_online_next_fixture_links_to_its_table(client, alice, bob, charlie):
    table = online_event_table(alice, [bob, charlie])
    client.force_login(bob)
    section = home(client).find(id="next-fixture")
    assert reverse("gameplay:table", args=[table.id]) in section.links


def test_a_player_sees_their_last_games_and_not_someone_elses(client, bob, charlie):
    won = finish(friendly(bob, "mediatore"), [5, -1, -2, -2])
    lost = finish(friendly(bob, "schieberamsch"), [-10, 4, 6])
    theirs = finish(friendly(charlie), [1, 0, -1])
    playing = friendly(bob)

    client.force_login(bob)
    section = home(client).find(id="last-games")
    links = section.links
    assert reverse("gameplay:table", args=[won.id]) in links
    assert reverse("gameplay:table", args=[lost.id]) in links
    assert reverse("gameplay:my-games") in links
    for hidden in (theirs, playing):
        assert not any(hidden.id in link for link in links)
    items = [li.text for li in section.find_all("li")]
    assert (
        items[0].startswith("Schieberamsch")
        and text("place %(place)s of %(of)s", place=3, of=3) in items[0]
    )  # newest first
    assert items[1].startswith("Mediatore") and text("won") in items[1] and "+5" in items[1]


def online_event_table(organizer, users) -> Table:
    """An event table: a published round whose people all have accounts plays online (more
    accounts join `users` to fill the one table)."""
    from django.contrib.auth import get_user_model

    seats = catalogue.game("saichugen").seats
    users = list(users) + [
        get_user_model().objects.create_user(f"filler{n}") for n in range(seats - len(users))
    ]
    event = event_for_accounts(organizer, users)
    round_ = publish_next_round(event, organizer)
    fixture = round_.fixtures.get()
    assert fixture.table_ref
    return Table.objects.get(pk=fixture.table_ref)


def event_for_accounts(organizer, users) -> Event:
    from league.services import events as event_services

    event = event_services.create_event(organizer, name="Online cup", game="saichugen", rounds=1)
    event_services.publish_event(event, by=organizer)
    enter_accounts(event, organizer, users)
    return event
