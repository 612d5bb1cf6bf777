"""A fixture's online table and the league's pages: the table's header names the event, round and
table and links back to the fixture's page (`rounds.start_fixture_table` → `start_table(context=)`);
the league's pages link a table nobody may watch — a duplicate one, or one of an event without
spectators — only for its own players (league/services/table_links.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gameplay.models import Table
from league.models import Event, Fixture, Round
from league.pages import events as events_pages
from league.pages import fixtures as fixtures_pages
from league.services import events as event_services
from league.services import rounds as round_services
from league.services import schedule
from league.services.players import player_for_user
from tests.language import text

pytestmark = pytest.mark.django_db

GAME = "saichugen"  # three seats


def people_event(alice, *, players: int = 6, **fields) -> Event:
    """A published event of people with accounts, checked in."""
    fields = {"name": "Spring league", "game": GAME, "format": "league", "rounds": 3, **fields}
    event = event_services.create_event(alice, **fields)
    event_services.publish_event(event, by=alice)
    event.refresh_from_db()
    for n in range(players):
        user = get_user_model().objects.create_user(f"{event.slug}-{n}", password="pw")
        event_services.add_entry(event, player_for_user(user), by=alice, checked_in=True)
    return event


def published_round(event: Event, alice) -> Round:
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    return round_


def fixture_url(event: Event, fixture: Fixture) -> str:
    return reverse("league:fixture", args=[event.slug, fixture.pk])


def table_links(html: str) -> set[str]:
    """The online tables a page links to."""
    return set(re.findall(r'href="/tables/([0-9a-f]+)/"', html))


def seated_user(fixture: Fixture):
    return fixture.seats.order_by("number").first().player.user


# --- the table's header ------------------------------------------------------------------------


def test_each_table_is_opened_with_where_it_belongs(alice, client):
    event = people_event(alice)
    round_ = published_round(event, alice)
    for fixture in round_.fixtures.all():
        context = Table.objects.get(pk=fixture.table_ref).context
        url = fixture_url(event, fixture)
        assert context == {
            "event": "Spring league",
            "round": 1,
            "table": fixture.number,
            "url": url,
        }
    fixture = round_.fixtures.get(number=2)
    client.force_login(seated_user(fixture))
    html = client.get(f"/tables/{fixture.table_ref}/").content.decode()
    head = html.split('<header class="tbl-head">', 1)[1].split("</header>", 1)[0]
    back = head.split(f'href="{fixture_url(event, fixture)}">', 1)[1].split("</a>", 1)[0]
    assert "Spring league" in back
    assert text("Round %(n)s", n=1) in back and text("Table %(n)s", n=2) in back
    assert client.get(fixture_url(event, fixture)).status_code == 200  # the way back leads home


def test_a_table_its_players_open_later_gets_it_too(alice):
    event = people_event(alice, asynchronous=True)
    round_ = published_round(event, alice)
    fixture = round_.fixtures.get(number=1)
    ref = schedule.open_table(fixture, by=seated_user(fixture))
    assert Table.objects.get(pk=ref).context == {
        "event": "Spring league",
        "round": 1,
        "table": 1,
        "url": fixture_url(event, fixture),
    }


# --- no "watch" link to a table that refuses spectators ------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [{"scoring": "duplicate", "deals_per_match": 2}, {"allow_spectators": False}],
    ids=["duplicate", "no-spectators"],
)
def test_a_table_nobody_may_watch_is_linked_for_its_players_only(alice, client, fields):
    event = people_event(alice, **fields)
    round_ = published_round(event, alice)
    one, two = round_.fixtures.order_by("number")
    assert not Table.objects.get(pk=one.table_ref).allow_spectators
    round_page = reverse("league:round", args=[event.slug, 1])
    player = one.seats.order_by("number").first().player
    player_page = reverse("league:player", args=[player.pk])

    # a visitor, and an organizer who does not play: no link to any table, none would open
    for who in (None, alice):
        if who:
            client.force_login(who)
        assert table_links(client.get(round_page).content.decode()) == set()
        html = client.get(fixture_url(event, one)).content.decode()
        assert table_links(html) == set() and 'id="no-spectators"' in html
        html = client.get(player_page).content.decode()
        assert table_links(html) == set() and text("watch") not in html
        assert client.get(f"/tables/{one.table_ref}/").status_code == 403  # why: it refuses them
    # a player of table 1: their own table, not the other
    client.force_login(player.user)
    assert table_links(client.get(round_page).content.decode()) == {one.table_ref}
    html = client.get(fixture_url(event, one)).content.decode()
    assert table_links(html) == {one.table_ref} and 'id="no-spectators"' not in html
    assert table_links(client.get(fixture_url(event, two)).content.decode()) == set()
    html = client.get(player_page).content.decode()
    assert table_links(html) == {one.table_ref} and text("play it now") in html
    assert client.get(f"/tables/{one.table_ref}/").status_code == 200


def test_a_table_open_to_spectators_is_linked_for_everyone(alice, client):
    event = people_event(alice)
    round_ = published_round(event, alice)
    refs = set(round_.fixtures.values_list("table_ref", flat=True))
    one = round_.fixtures.get(number=1)
    player = one.seats.order_by("number").first().player
    assert (
        table_links(client.get(reverse("league:round", args=[event.slug, 1])).content.decode())
        == refs
    )
    html = client.get(fixture_url(event, one)).content.decode()
    assert table_links(html) == {one.table_ref} and 'id="no-spectators"' not in html
    html = client.get(reverse("league:player", args=[player.pk])).content.decode()
    assert table_links(html) == {one.table_ref} and text("watch") in html


def test_the_tables_own_setting_decides_not_the_events_later_one(alice, client):
    """Spectators allowed once the tables were open: those tables still refuse them."""
    event = people_event(alice, allow_spectators=False)
    round_ = published_round(event, alice)
    Event.objects.filter(pk=event.pk).update(allow_spectators=True)
    round_page = reverse("league:round", args=[event.slug, 1])
    assert table_links(client.get(round_page).content.decode()) == set()
    Table.objects.filter(pk__in=round_.fixtures.values("table_ref")).update(allow_spectators=True)
    refs = set(round_.fixtures.values_list("table_ref", flat=True))
    assert table_links(client.get(round_page).content.decode()) == refs


# --- the pages' queries ------------------------------------------------------------------------


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_asking_who_may_watch_costs_no_query(alice, client, monkeypatch):
    """Whether each table may be watched is asked in the fixtures' own query: the round page,
    the fixture page and the player page read as many queries as without asking, for a
    visitor and a player, at two sizes (the bounds pinned in tests/league/test_pages.py)."""
    counts: dict[tuple, list[int]] = {}
    for players in (6, 15):
        event = people_event(alice, players=players, scoring="duplicate", deals_per_match=2)
        round_ = published_round(event, alice)
        fixture = round_.fixtures.get(number=1)
        player = fixture.seats.order_by("number").first().player
        urls = {
            "round": reverse("league:round", args=[event.slug, 1]),
            "fixture": fixture_url(event, fixture),
            "player": reverse("league:player", args=[player.pk]),
        }
        for who in (None, player.user):
            if who:
                client.force_login(who)
            for page, url in urls.items():
                asked = queries(client, url)
                with monkeypatch.context() as m:  # the pages as they were: nothing asked
                    for module in (events_pages, fixtures_pages):
                        m.setattr(module, "with_watchable", lambda fixtures: fixtures)
                    not_asked = queries(client, url)
                assert asked == not_asked, page
                counts.setdefault((page, who is None), []).append(asked)
        client.logout()
    for key, (small, large) in counts.items():
        assert small == large, key
