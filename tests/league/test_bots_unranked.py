"""An event's bots that filled seats stand after the people without a place, in the standings,
its page, CSV and API; the event's option ranks them as before (Event.rank_bots)."""

from __future__ import annotations

import csv
import io

import pytest

from league.models import Event
from league.services import events as event_services
from league.services.standings import standings_rows
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db


def bot_league(make_event, alice, **fields) -> Event:
    """Four people in threes with bots filling the seats, two rounds played."""
    event = make_event("saichugen", players=4, format="league", rounds=2, leftover="bot", **fields)
    play_round(event, alice, seed=1)
    play_round(event, alice, seed=2)
    return event


def test_bots_that_filled_seats_stand_after_the_people_without_a_place(make_event, alice, client):
    event = bot_league(make_event, alice)
    rows = standings_rows(event)
    people = [r for r in rows if not r["is_bot"]]
    bots = [r for r in rows if r["is_bot"]]
    assert bots and len(people) == 4
    assert rows == people + bots  # the people first
    assert [r["rank"] for r in bots] == [None] * len(bots)
    assert sorted(r["rank"] for r in people)[0] == 1
    assert max(r["rank"] for r in people) <= 4  # places count people only
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert 'id="unranked-note"' in page and 'class=" unranked"' in page
    data = client.get(f"/api/events/{event.slug}/standings/").json()
    listed = data["results"] if isinstance(data, dict) else data
    assert [r["rank"] for r in listed if r["is_bot"]] == [None] * len(bots)
    body = client.get(f"/events/{event.slug}/standings.csv").content
    lines = list(csv.reader(io.StringIO(body.decode())))
    bot_names = {r["player"] for r in bots}
    assert all(line[0] == "" for line in lines[1:] if bot_names & set(line))


def test_the_event_may_rank_its_bots_as_before(make_event, alice):
    event = bot_league(make_event, alice, rank_bots=True)
    rows = standings_rows(event)
    assert all(r["rank"] is not None for r in rows)
    assert sorted(r["rank"] for r in rows)[0] == 1
    event_services.update_event(event, by=alice, rank_bots=False)
    event.refresh_from_db()
    assert [r["rank"] for r in standings_rows(event) if r["is_bot"]] == [None] * sum(
        r["is_bot"] for r in rows
    )


def test_the_help_page_says_bots_take_no_place(make_event, alice, client):
    event = bot_league(make_event, alice)
    help_page = client.get(f"/events/{event.slug}/help/").content.decode()
    assert 'id="bots-unranked"' in help_page
    event_services.update_event(event, by=alice, rank_bots=True)
    assert 'id="bots-unranked"' not in client.get(f"/events/{event.slug}/help/").content.decode()


def test_a_player_who_withdrew_after_playing_stays_ranked_and_marked(make_event, alice, client):
    event = make_event("saichugen", players=6, format="league", rounds=3)
    play_round(event, alice, seed=1)
    entry = event.entries.select_related("player").first()
    event_services.withdraw(entry, by=alice)
    rows = {r["player_id"]: r for r in standings_rows(event)}
    assert rows[entry.player_id]["withdrawn_after"] == 1 and rows[entry.player_id]["rank"]
    assert all(r["withdrawn_after"] is None for p, r in rows.items() if p != entry.player_id)
    page = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert page.count("withdrawn after round 1") == 1
