"""The standings endpoint serves the cached table, which follows every counted result."""

from __future__ import annotations

import pytest

from league.services.standings import standings_rows
from league.standings import lot_number
from tests.league_api.builders import (
    enter,
    finish,
    make_event,
    record_for,
    seat_round,
    table_one,
)

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


def test_the_lot_is_hidden_and_every_other_tiebreak_kept_in_its_place(anonymous, alice):
    """The drawing of lots' numbers give the event's secret seed back: the API shows null in
    the lot's place (the ranks it decides stay), every other tie-break as computed, averages as
    JSON numbers, so a client pairing the list with the event's `tiebreaks` still can."""
    order = ["lot", "total_payouts", "opponents_average_payout", "wins", "head_to_head"]
    event = make_event(alice, "Lot Cup", tiebreaks=order)
    players = enter(event, ["ana", "ben", "cleo", "dan", "eva", "finn"])
    for shift in (0, 1):
        seated = players[shift:] + players[:shift]
        round_ = seat_round(event, [seated[:3], seated[3:]])
        for n, fixture in enumerate(round_.fixtures.order_by("number"), start=1):
            finish(fixture, alice, seed=10 * shift + n)
    assert anonymous.get(f"/api/events/{event.slug}/").json()["tiebreaks"] == order

    response = anonymous.get(f"/api/events/{event.slug}/standings/")
    assert response.status_code == 200
    rows = response.json()["results"]
    computed = {row["player_id"]: row for row in standings_rows(event)}
    assert [r["player_id"] for r in rows] == list(computed)  # the ranks the lot decided
    for row in rows:
        values = computed[row["player_id"]]["tiebreaks"]
        assert row["tiebreaks"] == [None, *values[1:]]
        assert row["tiebreaks"][1] == row["total_payouts"]
        assert isinstance(row["tiebreaks"][2], int | float)  # a number, not "1.50"
        assert set(row) == set(EXPECTED_ROW_KEYS)
    lots = {str(lot_number(event.seed, p.pk)) for p in players}
    assert not any(lot in response.content.decode() for lot in lots)


EXPECTED_ROW_KEYS = (
    "rank",
    "player_id",
    "player",
    "is_bot",
    "withdrawn_after",
    "matches_played",
    "match_points",
    "total_payouts",
    "wins",
    "byes",
    "absences",
    "tiebreaks",
    "tied",
)
