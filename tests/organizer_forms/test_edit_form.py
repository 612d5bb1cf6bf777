"""Once a round exists the edit form offers only what can still change: format, variant, deals
per match and seed are shown disabled with the reason, a post that changes them anyway is
refused, and so is a service call (the API's way in)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.errors import LeagueError
from league.services import events as event_services
from tests.home.page import parse
from tests.organizer_forms.conftest import forms_of

LOCKED = ["format", "deals_per_match", "seed", "variant__targets", "variant__woburn_bidding"]


def edit_page(client, scene):
    url = reverse("league:event_edit", args=[scene.slug])
    return url, client.get(url).content


def test_fields_a_round_has_used_are_shown_disabled_with_the_reason(client, scene):
    client.force_login(scene.olga)
    url, html = edit_page(client, scene)
    page = parse(html)
    for name in LOCKED:
        node = page.find(name=name)
        assert node is not None and "disabled" in node.attrs, name
    assert "fixed: a round has been planned with it" in html.decode()
    assert "2 rounds have been planned" in html.decode()
    rounds = page.find(name="rounds")
    assert "disabled" not in rounds.attrs and rounds.attrs["min"] == "2"
    (form,) = [f for f in forms_of(url, html) if f.action == url]
    assert not set(LOCKED) & set(form.fields)  # a browser does not send disabled fields


def test_a_new_event_and_an_event_without_rounds_offer_every_field(client, olga):
    client.force_login(olga)
    event = event_services.create_event(olga, name="Unplanned", game="three_five_eight")
    html = client.get(reverse("league:event_edit", args=[event.slug])).content
    page = parse(html)
    for name in LOCKED:
        assert "disabled" not in page.find(name=name).attrs, name


def test_what_can_still_change_is_saved(client, scene):
    client.force_login(scene.olga)
    url, html = edit_page(client, scene)
    (form,) = [f for f in forms_of(url, html) if f.action == url]
    response = client.post(url, {**form.fields, "name": "Spring cup (renamed)", "rounds": "6"})
    assert response.status_code == 302
    scene.event.refresh_from_db()
    assert (scene.event.name, scene.event.rounds) == ("Spring cup (renamed)", 6)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("format", "swiss"),
        ("deals_per_match", "4"),
        ("seed", "99"),
        ("variant__targets", "9-5-2"),
        ("variant__woburn_bidding", "on"),  # a box ticked anyway: a change too
    ],
)
def test_a_post_changing_a_fixed_field_is_refused_and_changes_nothing(client, scene, field, value):
    client.force_login(scene.olga)
    url, html = edit_page(client, scene)
    (form,) = [f for f in forms_of(url, html) if f.action == url]
    before = event_services.Event.objects.values().get(pk=scene.event.pk)
    response = client.post(url, {**form.fields, "name": "Changed", field: value})
    assert response.status_code == 200
    assert "this cannot change once rounds exist" in response.content.decode()
    assert event_services.Event.objects.values().get(pk=scene.event.pk) == before


def test_fewer_rounds_than_exist_is_refused(client, scene):
    client.force_login(scene.olga)
    url, html = edit_page(client, scene)
    (form,) = [f for f in forms_of(url, html) if f.action == url]
    response = client.post(url, {**form.fields, "rounds": "1"})
    assert response.status_code == 200
    assert scene.event.__class__.objects.get(pk=scene.event.pk).rounds == 4


@pytest.mark.parametrize(
    "change", [{"format": "swiss"}, {"deals_per_match": 4}, {"variant": {"targets": "9-5-2"}}]
)
def test_the_service_refuses_them_whoever_calls_it(scene, change):
    with pytest.raises(LeagueError, match="cannot change once rounds exist"):
        event_services.update_event(scene.event, by=scene.olga, **change)
