"""`POST /api/events/<slug>/fixtures/<id>/absent/` marks seats absent and answers the table's
result; `DELETE` takes a no-show's absence back. Bad input is a 400 with the reason, a table
with a result a 409, anyone but the event's organizers 401/403 — and nothing changes then.
Standings carry the mark (`absences`) in a fixed number of queries."""

from __future__ import annotations

import csv
import io

import pytest

from league.models import LedgerEntry, Result
from league.services.standings import compute_rows, standings_rows
from tests.league_api.builders import (
    client_of,
    enter,
    finish,
    league_with,
    make_event,
    seat_round,
    table_one,
)

pytestmark = pytest.mark.django_db

DEAL = {"scores": [10, 2, 4]}  # 3-5-8 tricks: pays [2, -3, 1] (seat 0 deals)


@pytest.fixture
def night(alice):
    """A published round of one over-the-table 3-5-8 table, three deals a match."""
    event = make_event(alice, "Club night", deals_per_match=3, play_online=False)
    seat_round(event, [enter(event, ["ann", "ben", "cid"])])
    return event


def absent_url(event, fixture) -> str:
    return f"/api/events/{event.slug}/fixtures/{fixture.pk}/absent/"


def state() -> list:
    """The results and the ledger, to compare before and after a refused request."""
    results = Result.objects.values_list("fixture_id", "version", "current", "source")
    return [*results, LedgerEntry.objects.count()]


def test_a_no_show_answers_the_result_and_the_standings_mark_it(as_alice, night):
    fixture = table_one(night)
    response = as_alice.post(absent_url(night, fixture), {"seats": [2]}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["source"] == "absence" and body["after_deal"] == 0
    assert (body["absent_seats"], body["forfeited_seats"], body["winners"]) == ([2], [2], [0, 1])
    assert body["payouts"] == [0, 0, 0]
    rows = {
        r["player"]: r
        for r in as_alice.get(f"/api/events/{night.slug}/standings/").json()["results"]
    }
    assert (rows["cid"]["absences"], rows["ann"]["absences"]) == (1, 0)
    fixture_body = as_alice.get(f"/api/events/{night.slug}/fixtures/{fixture.pk}/").json()
    assert fixture_body["result"]["absent_seats"] == [2]
    sheet = list(
        csv.DictReader(
            io.StringIO(as_alice.get(f"/events/{night.slug}/standings.csv").content.decode())
        )
    )
    assert {r["player"]: r["absences"] for r in sheet} == {"ann": "0", "ben": "0", "cid": "1"}


def test_after_a_deal_the_typed_deal_counts(as_alice, night):
    fixture = table_one(night)
    body = {"seats": [0], "after_deal": 1, "sheet": {"deals": [DEAL]}}
    response = as_alice.post(absent_url(night, fixture), body, format="json")
    assert response.status_code == 201, response.content
    result = response.json()
    assert (result["after_deal"], result["payouts"], result["winners"]) == (1, [2, -3, 1], [1, 2])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"seats": [5]}, "seat 5 is not a seat of this table"),
        ({"seats": [0, 1, 2]}, "not every seat can be absent"),
        ({"seats": []}, "say which seats are absent"),
        ({"seats": [0], "after_deal": 1}, "give the score grid of the deals played"),
        ({"seats": [0], "after_deal": 2, "sheet": {"deals": [DEAL]}}, "only 1 deal was played"),
        ({"seats": [0], "after_deal": 9}, "matches here last 3 deals"),
        ({"seats": [0], "after_deal": -1}, "number of deals played before the absence"),
        ({"seats": [0], "sheet": {"deals": []}, "grid": []}, "not both"),
        ({"seats": [0], "after_deal": 1, "sheet": {"deals": [{"scores": [20, 0, 0]}]}}, "sheet"),
        ({"seats": "0"}, "list"),
        ({}, "required"),
    ],
)
def test_bad_input_is_a_400_with_the_reason_and_changes_nothing(as_alice, night, body, message):
    before = state()
    response = as_alice.post(absent_url(night, table_one(night)), body, format="json")
    assert response.status_code == 400, response.content
    assert message in response.content.decode()
    assert state() == before


def test_a_table_with_a_result_is_a_409_and_a_draft_round_a_400(alice, as_alice, night):
    fixture = table_one(night)
    finish(fixture, alice)
    before = state()
    response = as_alice.post(absent_url(night, fixture), {"seats": [0]}, format="json")
    assert response.status_code == 409 and "already has a result" in response.json()["detail"]
    draft = seat_round(night, [enter(night, ["dan", "eve", "fay"])], publish=False)
    response = as_alice.post(absent_url(night, draft.fixtures.get()), {"seats": [0]}, format="json")
    assert response.status_code == 400 and "published round" in response.json()["detail"]
    assert state() == before


def test_only_the_events_organizers_mark_or_undo(anonymous, as_bob, as_charlie, night):
    url = absent_url(night, table_one(night))
    before = state()
    assert anonymous.post(url, {"seats": [0]}, format="json").status_code == 401
    for client in (as_bob, as_charlie):
        assert client.post(url, {"seats": [0]}, format="json").status_code == 403
        assert client.delete(url).status_code == 403
    assert state() == before


def test_delete_takes_a_no_show_back_once(as_alice, as_charlie, night):
    fixture = table_one(night)
    url = absent_url(night, fixture)
    as_alice.post(url, {"seats": [1]}, format="json")
    assert as_charlie.delete(url).status_code == 403
    response = as_alice.delete(url)
    assert response.status_code == 200, response.content
    assert response.json()["id"] == fixture.pk and response.json()["result"] is None
    again = as_alice.delete(url)
    assert again.status_code == 400 and "no absence to take back" in again.json()["detail"]
    assert Result.objects.get(fixture=fixture).current is False  # kept in the history


@pytest.fixture(params=[1, 3], ids=lambda n: f"size{n}")
def absent_world(request, alice):
    """`size` rounds of `size` tables, each with a no-show at seat 0."""
    size = request.param
    event = league_with(alice, rounds=size, tables=size, finished=False)
    for round_ in event.round_set.all():
        for fixture in round_.fixtures.all():
            client_of(alice).post(absent_url(event, fixture), {"seats": [0]}, format="json")
    assert Result.objects.filter(fixture__round__event=event, source="absence").count() == (
        size * size
    )
    standings_rows(event)  # the snapshot, as the task leaves it
    return event


def test_standings_with_absences_read_a_fixed_number_of_queries(
    anonymous, absent_world, django_assert_max_num_queries
):
    with django_assert_max_num_queries(2):  # event, snapshot
        rows = anonymous.get(f"/api/events/{absent_world.slug}/standings/").json()["results"]
    assert sum(r["absences"] for r in rows) == absent_world.round_set.count() ** 2
    with django_assert_max_num_queries(2):  # event, snapshot
        page = anonymous.get(f"/events/{absent_world.slug}/standings/")
    assert "absent-mark" in page.content.decode()
    with django_assert_max_num_queries(2):
        assert anonymous.get(f"/events/{absent_world.slug}/standings.csv").status_code == 200


def test_recomputing_the_standings_reads_as_many_queries_at_any_size(
    absent_world, django_assert_max_num_queries
):
    with django_assert_max_num_queries(6):
        rows = compute_rows(absent_world)
    assert any(r["absences"] for r in rows)
