"""Roles: open organizing (`LEAGUE_OPEN_ORGANIZING`) and whose events the ratings trust (the
owner's role, `rated_events`), and co-organizers — added by name, shown on the event, same
rights, removable, the owner stays."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from league.errors import LeagueError
from league.models import Entry, Event
from league.ratings.services import rated_events
from league.services import events as event_services
from league.services import organizers
from league.services.permissions import can_manage, can_organize
from tests.organizers.conftest import account, api, enter, make_event

pytestmark = pytest.mark.django_db


def test_open_organizing_lets_every_account_run_events_that_are_never_rated(settings, olga, pat):
    assert not can_organize(pat)
    settings.LEAGUE_OPEN_ORGANIZING = True
    assert can_organize(pat)
    created = api(pat).post(
        "/api/events/", {"name": "Pat's night", "game": "saichugen"}, format="json"
    )
    assert created.status_code == 201
    event = Event.objects.get(slug=created.json()["slug"])
    assert event.owner == pat
    event_services.publish_event(event, by=pat)
    trusted = make_event(olga, "Olga's open")
    assert set(rated_events()) == {trusted}
    page = Client()
    page.force_login(pat)
    assert page.get(reverse("league:event_create") + "?game=saichugen").status_code == 200


def test_a_co_organizer_with_the_role_does_not_make_an_events_results_count(settings, olga, pat):
    settings.LEAGUE_OPEN_ORGANIZING = True
    event = make_event(pat, "Pat's night")
    organizers.add_co_organizer(event, "olga", by=pat)
    assert event not in rated_events()
    assert can_manage(olga, event)


def test_co_organizers_are_added_by_name_shown_and_taken_off_but_the_owner_stays(
    client, olga, cora, pat
):
    event = make_event(olga, "Spring cup")
    client.force_login(olga)
    url = reverse("league:organizers", args=[event.slug])
    assert client.post(url, {"name": "CORA"}).status_code == 302  # any case
    assert can_manage(cora, event)
    assert "Organized by olga, cora" in Client().get(event.get_absolute_url()).content.decode()
    again = client.post(url, {"name": "cora"})
    assert again.status_code == 400 and "organizes this event already" in again.content.decode()
    missing = client.post(url, {"name": "nobody"})
    assert missing.status_code == 400 and "no account is called nobody" in missing.content.decode()

    # same rights: cora adds an entry and another co-organizer
    enter(event, ["newcomer"], cora)
    organizers.add_co_organizer(event, "pat", by=cora)
    with pytest.raises(LeagueError, match="owner stays"):
        organizers.remove_co_organizer(event, olga.pk, by=cora)
    response = api(cora).delete(f"/api/events/{event.slug}/organizers/{olga.pk}/")
    assert response.status_code == 400
    organizers.remove_co_organizer(event, pat.pk, by=cora)
    assert not can_manage(pat, event)
    listed = api().get(f"/api/events/{event.slug}/organizers/").json()
    assert [(o["name"], o["owner"]) for o in listed] == [("olga", True), ("cora", False)]
    assert Entry.objects.filter(event=event, player__name="newcomer").exists()


def test_a_co_organizer_found_by_player_name(olga):
    event = make_event(olga, "Spring cup")
    user = account("login-name")
    user.player.name = "Shown Name"
    user.player.save()
    assert organizers.add_co_organizer(event, "shown name", by=olga) == user


def test_the_owner_of_an_event_made_before_owners_existed_is_its_first_organizer(olga, cora):
    """The migration's rule, as a query: events without an owner get their first organizer."""
    from importlib import import_module

    from django.apps import apps

    event = make_event(olga, "Old cup")
    organizers.add_co_organizer(event, "cora", by=olga)
    Event.objects.filter(pk=event.pk).update(owner=None)
    migration = import_module("league.migrations.0011_event_people_registration_waiting_list")
    migration.first_organizer_owns(apps, None)
    assert Event.objects.get(pk=event.pk).owner == olga
