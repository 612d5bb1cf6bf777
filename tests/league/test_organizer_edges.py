"""Edges an organizer met on a club evening (the walk-through of "Organizers III"): a result typed
for a table still played online, an online result that differs from the one typed, undoing an
absence once later rounds exist, absent players named on the round page, the API's bounds."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay.models import Table
from league.models import Event, Result
from league.services import absences
from league.services.results import record_result
from tests.league.conftest import play_round, record_for
from tests.league.test_absences_online import online_table, play_deals

pytestmark = pytest.mark.django_db(transaction=True)


def result_page(client, fixture) -> str:
    event = fixture.round.event
    return client.get(reverse("league:result", args=[event.slug, fixture.pk])).content.decode()


def test_the_result_page_warns_of_a_table_still_played_and_of_a_differing_online_result(
    alice, client
):
    fixture = online_table(alice, deals=1)
    client.force_login(alice)
    assert 'id="online-playing"' in result_page(client, fixture)
    record_result(fixture, by=alice, record=record_for(fixture, seed=5))  # typed meanwhile
    play_deals(fixture.table_ref, 1)  # the table plays on to its end
    table = Table.objects.get(pk=fixture.table_ref)
    assert table.status == Table.Status.FINISHED
    online = table.result["totals"]["payouts"]
    seed = 6
    while fixture.results.get(current=True).scored["totals"]["payouts"] == online:
        record = record_for(fixture, seed=seed)  # make the typed result differ, for certain
        record_result(fixture, by=alice, record=record, correction=True, reason="retyped")
        seed += 1
    page = result_page(client, fixture)
    assert 'id="online-differs"' in page
    assert 'id="online-playing"' not in page


def test_undoing_an_absence_once_later_rounds_exist_says_so(make_event, alice, client):
    event = make_event("saichugen", players=6, format="league", rounds=3)
    first = play_round(event, alice, seed=1).fixtures.order_by("number").first()
    # the first table's result becomes a no-show's absence (the correction path is the page's)
    Result.objects.filter(fixture=first).delete()
    absences.mark_absent(first, by=alice, seats=[0], after_deal=None)
    client.force_login(alice)
    url = reverse("league:fixture_absent_undo", args=[event.slug, first.pk])
    assert "later round" not in client.get(url).content.decode()
    play_round(event, alice, seed=2)
    page = client.get(url).content.decode()
    assert "Careful: 1 later round exists already. Round 1 is open again" in page
    name = first.seats.get(number=0).player.name
    round_page = client.get(reverse("league:round", args=[event.slug, 1])).content.decode()
    assert f"absent: {name}" in round_page


@pytest.mark.parametrize(
    ("field", "value"), [("bye_match_points", -1), ("bye_match_points", 2**31), ("rounds", -5)]
)
def test_the_api_refuses_numbers_out_of_bounds_and_changes_nothing(alice, field, value):
    event = Event.objects.create(name="Bounds", game="saichugen", slug="bounds")
    event.organizers.add(alice)
    client = APIClient()
    client.force_authenticate(alice)
    answer = client.patch(f"/api/events/{event.slug}/", {field: value}, format="json")
    assert answer.status_code == 400
    event.refresh_from_db()
    assert getattr(event, field) != value


def test_the_api_changes_rank_bots(alice):
    event = Event.objects.create(name="Bots", game="saichugen", slug="bots")
    event.organizers.add(alice)
    client = APIClient()
    client.force_authenticate(alice)
    answer = client.patch(f"/api/events/{event.slug}/", {"rank_bots": True}, format="json")
    assert answer.status_code == 200, answer.content
    event.refresh_from_db()
    assert event.rank_bots
