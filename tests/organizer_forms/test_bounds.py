"""Rounds and deals per match are bounded — in the form (beside the field), in the service and
so in the API, by the same checks (league.services.events.size_problems)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay import api as gameplay
from league.errors import LeagueError
from league.models import Event
from league.services import events as event_services
from tests.home.page import parse
from tests.organizer_forms.conftest import forms_of

MOST_DEALS = gameplay.max_deals()

CASES = [
    (1000, 1000, "at most 50 rounds"),
    (51, 1, "at most 50 rounds"),
    (0, 1, "an event needs at least one round"),
    (3, MOST_DEALS + 1, f"at most {MOST_DEALS} deals per match"),
    (3, 0, "a match needs at least one deal"),
    (50, 30, "50 rounds of 30 deals are 1500 deals for each player; at most 1000"),
]


def test_the_bounds_are_sensible():
    assert event_services.MAX_ROUNDS == 50
    assert 30 <= MOST_DEALS <= 100
    assert event_services.size_problems(50, 20) == []  # a long season of long matches fits
    assert event_services.size_problems(1, MOST_DEALS) == []


@pytest.mark.parametrize(("rounds", "deals", "message"), CASES)
def test_the_service_refuses_them(olga, rounds, deals, message):
    with pytest.raises(LeagueError, match=message.split(";")[0]):
        event_services.create_event(
            olga, name="Big", game="saichugen", rounds=rounds, deals_per_match=deals
        )
    assert not Event.objects.exists()


@pytest.mark.parametrize(("rounds", "deals", "message"), CASES)
def test_the_api_refuses_them_with_the_same_reason(olga, rounds, deals, message):
    client = APIClient()
    client.force_login(olga)
    body = {"name": "Big", "game": "saichugen", "rounds": rounds, "deals_per_match": deals}
    response = client.post("/api/events/", body, format="json")
    assert response.status_code == 400, response.content
    assert message.split(";")[0] in response.json()["detail"]
    assert not Event.objects.exists()


@pytest.mark.parametrize(("rounds", "deals", "message"), CASES)
def test_the_form_shows_the_problem_and_creates_nothing(client, olga, rounds, deals, message):
    client.force_login(olga)
    url = reverse("league:event_create") + "?game=saichugen"
    (form,) = [f for f in forms_of(url, client.get(url).content) if "name" in f.fields]
    data = {**form.fields, "name": "Big", "rounds": rounds, "deals_per_match": deals}
    response = client.post(reverse("league:event_create"), data)
    assert response.status_code == 200
    text = response.content.decode()
    assert message.split(";")[0] in text or "Ensure this value is" in text
    assert not Event.objects.exists()


def test_the_form_tells_the_browser_the_bounds(client, olga):
    client.force_login(olga)
    html = parse(client.get(reverse("league:event_create") + "?game=saichugen").content)
    rounds, deals = html.find(name="rounds"), html.find(name="deals_per_match")
    assert (rounds.attrs["min"], rounds.attrs["max"]) == ("1", "50")
    assert (deals.attrs["min"], deals.attrs["max"]) == ("1", str(MOST_DEALS))


def test_an_edit_is_held_to_the_bounds_too(scene):
    with pytest.raises(LeagueError, match="at most 50 rounds"):
        event_services.update_event(scene.event, by=scene.olga, rounds=1000)
    scene.event.refresh_from_db()
    assert scene.event.rounds == 4
