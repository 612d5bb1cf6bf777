"""The standings endpoint serves the cached table, which follows every counted result."""

from __future__ import annotations

import pytest

from tests.league_api.builders import enter, record_for, seat_round, table_one

pytestmark = pytest.mark.django_db


def standings(client, event) -> dict[str, dict]:
    response = client.get(f"/api/events/{event.slug}/standings/")
    assert response.status_code == 200
    return {row["player"]: row for row in response.json()["results"]}


def test_a_posted_result_reaches_the_standings_after_commit(
    anonymous, as_alice, cup, django_capture_on_commit_callbacks
):
    assert {row["matches_played"] for row in standings(anonymous, cup).values()} == {0}
    fixture = table_one(cup)
    with django_capture_on_commit_callbacks(execute=True):  # the Celery task, run eagerly
        posted = as_alice.post(
            f"/api/events/{cup.slug}/fixtures/{fixture.pk}/result/",
            {"record": record_for(fixture)},
            format="json",
        )
    payouts = dict(zip(["bob", "dora", "emil"], posted.json()["payouts"]))
    rows = standings(anonymous, cup)
    assert {name: row["total_payouts"] for name, row in rows.items()} == payouts
    assert {row["matches_played"] for row in rows.values()} == {1}


def test_a_new_entrant_appears_in_the_standings(
    anonymous, as_alice, cup, django_capture_on_commit_callbacks
):
    assert "zoe" not in standings(anonymous, cup)  # the snapshot is made here
    with django_capture_on_commit_callbacks(execute=True):
        as_alice.post(f"/api/events/{cup.slug}/entries/", {"player": "zoe"}, format="json")
    assert "zoe" in standings(anonymous, cup)


def test_a_published_bye_counts_in_the_standings(
    anonymous, as_alice, cup, django_capture_on_commit_callbacks
):
    fritz, gus, hal, ida = enter(cup, ["fritz", "gus", "hal", "ida"])
    seat_round(cup, [[fritz, gus, hal]], byes=[ida], publish=False)
    assert standings(anonymous, cup)["ida"]["byes"] == 0  # the snapshot is made here
    with django_capture_on_commit_callbacks(execute=True):
        as_alice.post(f"/api/events/{cup.slug}/rounds/2/publish/")
    assert standings(anonymous, cup)["ida"]["byes"] == 1
