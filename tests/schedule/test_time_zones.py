"""An event's times: entered and shown on its clocks, labelled with its zone, in the reader's
language's format."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.urls import reverse

from league.errors import LeagueError
from league.models import Event, Round
from league.services import events as event_services

WINTER = datetime(2026, 1, 5, 17, 0, tzinfo=UTC)  # 18:00 in Rome (CET)
SUMMER = datetime(2026, 7, 6, 16, 0, tzinfo=UTC)  # 18:00 in Rome (CEST)


@pytest.fixture
def rome(make_event, publish):
    with time_machine.travel(datetime(2026, 1, 1, tzinfo=UTC), tick=False):
        event = make_event(time_zone="Europe/Rome", rounds=2)
        publish(event, starts_at=WINTER, deadline=SUMMER)
    return event


def test_a_new_event_takes_the_sites_time_zone(make_event, settings):
    assert make_event().time_zone == settings.TIME_ZONE


def test_round_and_event_pages_show_times_on_the_events_clocks_labelled(client, rome):
    for name, args in (("league:round", [rome.slug, 1]), ("league:event", [rome.slug])):
        page = client.get(reverse(name, args=args)).content.decode()
        assert "Jan. 5, 2026, 6 p.m. CET" in page
        assert "July 6, 2026, 6 p.m. CEST" in page
        assert "Europe/Rome" in page


def test_times_follow_the_readers_language(client, rome, players):
    bob = players[0]
    bob.language = "de"
    bob.save()
    client.force_login(bob)
    page = client.get(reverse("league:round", args=[rome.slug, 1])).content.decode()
    assert "5. Januar 2026 18:00 CET" in page
    client.logout()
    italian = client.get(
        reverse("league:round", args=[rome.slug, 1]), HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "05 Gennaio 2026 18:00 CET" in italian


def test_the_fixture_page_shows_the_window_in_the_events_zone(client, rome):
    fixture = Round.objects.get(event=rome, number=1).fixtures.get()
    page = client.get(reverse("league:fixture", args=[rome.slug, fixture.pk])).content.decode()
    assert "Jan. 5, 2026, 6 p.m. CET" in page and "July 6, 2026, 6 p.m. CEST" in page


def test_the_organizer_types_times_on_the_events_clocks(client, alice, rome):
    client.force_login(alice)
    url = reverse("league:round_schedule", args=[rome.slug, 2])
    with time_machine.travel(datetime(2026, 1, 1, tzinfo=UTC), tick=False):
        Round.objects.create(event=rome, number=2)
        response = client.post(url, {"starts_at": "2026-02-01T09:30", "deadline": ""})
    assert response.status_code == 302
    round_ = Round.objects.get(event=rome, number=2)
    assert round_.starts_at == datetime(2026, 2, 1, 8, 30, tzinfo=UTC)
    assert round_.deadline is None
    form = client.get(reverse("league:round", args=[rome.slug, 2])).content.decode()
    assert 'value="2026-02-01T09:30"' in form  # shown back on Rome's clocks


def test_a_player_may_not_set_a_rounds_times(client, rome, players):
    client.force_login(players[0])
    url = reverse("league:round_schedule", args=[rome.slug, 1])
    assert client.post(url, {"starts_at": "2026-02-01T09:30"}).status_code == 403
    assert Round.objects.get(event=rome, number=1).starts_at == WINTER


def test_the_deadline_comes_after_the_start(client, alice, rome):
    client.force_login(alice)
    url = reverse("league:round_schedule", args=[rome.slug, 1])
    with time_machine.travel(datetime(2026, 1, 1, tzinfo=UTC), tick=False):
        client.post(url, {"starts_at": "2026-03-01T09:30", "deadline": "2026-02-01T09:30"})
    assert Round.objects.get(event=rome, number=1).deadline == SUMMER


def test_the_event_form_sets_the_time_zone_and_refuses_an_unknown_one(client, alice, rome):
    client.force_login(alice)
    edit = client.get(reverse("league:event_edit", args=[rome.slug])).content.decode()
    assert '<option value="Europe/Rome" selected>' in edit
    with pytest.raises(LeagueError):
        event_services.create_event(alice, name="x", game="saichugen", time_zone="Mars/Olympus")
    with pytest.raises(LeagueError):
        event_services.create_event(
            alice, name="y", game="saichugen", asynchronous=True, play_online=False
        )
    assert not Event.objects.filter(name__in=["x", "y"]).exists()


def test_the_api_reads_and_writes_the_time_zone(client, alice, rome):
    client.force_login(alice)
    data = client.get(f"/api/events/{rome.slug}/").json()
    assert data["time_zone"] == "Europe/Rome" and data["asynchronous"] is False
    made = client.post(
        "/api/events/",
        {"name": "Tokyo cup", "game": "saichugen", "time_zone": "Asia/Tokyo"},
        content_type="application/json",
    )
    assert made.status_code == 201 and made.json()["time_zone"] == "Asia/Tokyo"
    bad = client.post(
        "/api/events/",
        {"name": "Nowhere", "game": "saichugen", "time_zone": "Nowhere/Else"},
        content_type="application/json",
    )
    assert bad.status_code == 400
