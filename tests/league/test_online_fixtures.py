"""Published rounds open online tables; a finished table becomes the fixture's counted result."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from gameplay.models import Table
from gameplay.services import clocks, matches, play
from league.models import LedgerEntry, Result
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import player_for_user
from league.services.standings import standings_rows

pytestmark = pytest.mark.django_db(transaction=True)


def league_of_people(alice, names, **fields):
    event = event_services.create_event(
        alice, name="Online cup", game="saichugen", rounds=1, deals_per_match=1, **fields
    )
    event_services.publish_event(event, by=alice)
    event.refresh_from_db()
    for name in names:
        user = get_user_model().objects.create_user(name, password="pw")
        player = player_for_user(user)
        event_services.add_entry(event, player, by=alice, checked_in=True)
    return event


def play_people_out(table_ref: str) -> None:
    """Every person at the table plays what the clock would play for them, until the end."""
    rng = random.Random(5)
    for _ in range(500):
        table = Table.objects.get(pk=table_ref)
        if table.status == Table.Status.FINISHED:
            return
        match = matches.load_match(table)
        seat = match.to_act()[0]
        play.play_action(table.id, seat, clocks.default_action(match, seat, rng), table.seq)
    raise AssertionError("the match did not end")


def test_a_finished_online_table_counts_as_the_fixture_result(alice):
    event = league_of_people(alice, ["ana", "ben", "cleo", "dario"], leftover="bot")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixtures = list(round_.fixtures.all())
    assert len(fixtures) == 2  # four people and two bots
    for fixture in fixtures:
        assert fixture.table_ref
        table = Table.objects.get(pk=fixture.table_ref)
        seated = list(table.seats.order_by("number").values_list("name", flat=True))
        assert seated == [s.player.name for s in fixture.seats.order_by("number")]
        play_people_out(fixture.table_ref)

        result = fixture.results.get(current=True)
        assert result.source == Result.Source.ONLINE
        assert result.scored == Table.objects.get(pk=fixture.table_ref).result
        assert LedgerEntry.objects.filter(fixture=fixture).count() == 3
    rows = standings_rows(event)
    assert sum(r["total_payouts"] for r in rows) == 0
    assert sum(r["matches_played"] for r in rows) == 6


def test_a_person_without_an_account_keeps_the_fixture_over_the_table(alice):
    event = league_of_people(alice, ["ana", "ben"], leftover="bot")
    event_services.enter_player(event, by=alice, name="zeno", checked_in=True)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    assert round_.fixtures.get().table_ref == ""


def test_an_event_played_over_the_table_opens_no_tables(alice):
    event = league_of_people(alice, ["ana", "ben", "cleo"], play_online=False)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    assert round_.fixtures.get().table_ref == ""
    assert not Table.objects.exists()


def test_a_player_page_shows_the_next_match_with_its_table(alice, client):
    event = league_of_people(alice, ["ana", "ben", "cleo"])
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.get()
    ana = get_user_model().objects.get(username="ana")
    url = f"/players/{ana.player.pk}/"
    client.force_login(ana)
    page = client.get(url).content.decode()
    assert "Your next match" in page
    assert f"/tables/{fixture.table_ref}/" in page
    client.logout()
    assert "Next match" in client.get(url).content.decode()
    play_people_out(fixture.table_ref)
    assert "Next match" not in client.get(url).content.decode()
