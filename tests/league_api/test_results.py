"""Posting results, and downloading a record only once the match is over (before that it would
show every hidden card)."""

from __future__ import annotations

import pytest

from league.models import Event, LedgerEntry, Result
from tests.league_api.builders import enter, finish, record_for, seat_round, table_one

pytestmark = pytest.mark.django_db


def result_url(event: Event, fixture_id: int) -> str:
    return f"/api/events/{event.slug}/fixtures/{fixture_id}/result/"


def record_url(event: Event, fixture_id: int) -> str:
    return f"/api/events/{event.slug}/fixtures/{fixture_id}/record/"


# --- posting ----------------------------------------------------------------------------------


def test_alice_posts_a_record_and_it_counts(as_alice, alice, anonymous, cup):
    fixture = table_one(cup)
    record = record_for(fixture)
    response = as_alice.post(result_url(cup, fixture.pk), {"record": record}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["version"], body["source"], body["complete"]) == (1, "record", True)
    assert sum(body["payouts"]) == 0
    assert body["winners"]
    assert LedgerEntry.objects.filter(fixture=fixture).count() == 3  # one deal, three seats
    shown = anonymous.get(f"/api/events/{cup.slug}/fixtures/{fixture.pk}/").json()["result"]
    assert shown["payouts"] == body["payouts"]
    assert Result.objects.get().entered_by == alice


def test_a_result_posted_twice_is_refused(as_alice, cup):
    fixture = table_one(cup)
    url = result_url(cup, fixture.pk)
    assert as_alice.post(url, {"record": record_for(fixture)}, format="json").status_code == 201
    again = as_alice.post(url, {"record": record_for(fixture, seed=2)}, format="json")
    assert again.status_code == 400
    assert again.json() == {
        "detail": "table 1 already has a result; enter a correction with a reason"
    }
    assert Result.objects.count() == 1


def test_a_correction_with_a_reason_makes_a_new_counting_version(as_alice, cup):
    fixture = table_one(cup)
    url = result_url(cup, fixture.pk)
    as_alice.post(url, {"record": record_for(fixture)}, format="json")
    correction = {"record": record_for(fixture, seed=2), "correction": True, "reason": "typo"}
    response = as_alice.post(url, correction, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["version"] == 2
    assert list(Result.objects.order_by("version").values_list("version", "current")) == [
        (1, False),
        (2, True),
    ]
    assert LedgerEntry.objects.filter(fixture=fixture, result__version=2).count() == 3
    assert not LedgerEntry.objects.filter(result__version=1).exists()


def test_a_correction_needs_a_reason(as_alice, alice, cup):
    fixture = table_one(cup)
    finish(fixture, alice)
    response = as_alice.post(
        result_url(cup, fixture.pk),
        {"record": record_for(fixture, seed=2), "correction": True},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "say why the result is corrected"}


def test_a_record_of_another_game_is_refused(as_alice, cup):
    fixture = table_one(cup)
    saichugen = record_for(fixture, game="saichugen")
    response = as_alice.post(result_url(cup, fixture.pk), {"record": saichugen}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "this record is a Saichugen game; the event plays 3-5-8 (Sergeant Major)"
    }
    assert not Result.objects.exists()


def test_a_record_of_other_players_is_refused(as_alice, cup):
    fixture = table_one(cup)
    record = record_for(fixture)
    record["players"] = list(reversed(record["players"]))
    response = as_alice.post(result_url(cup, fixture.pk), {"record": record}, format="json")
    assert response.status_code == 400
    assert "are not this table's seats" in response.json()["detail"]


def test_an_illegal_record_is_refused_with_the_engines_reason(as_alice, cup):
    fixture = table_one(cup)
    record = record_for(fixture)
    record["deals"][0]["hands"][0][0] = record["deals"][0]["hands"][1][0]  # a card twice
    response = as_alice.post(result_url(cup, fixture.pk), {"record": record}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("illegal record: ")


def test_an_unfinished_record_without_a_forfeit_is_refused(as_alice, cup):
    fixture = table_one(cup)
    record = record_for(fixture)
    del record["deals"][0]["actions"][5:]
    response = as_alice.post(result_url(cup, fixture.pk), {"record": record}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "the match is not finished; only a forfeit can end it early"
    }


def test_a_result_needs_a_record_or_a_sheet(as_alice, cup):
    response = as_alice.post(result_url(cup, table_one(cup).pk), {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "give either a game record or a score sheet"}


def test_a_score_sheet_counts_too(as_alice, cup):
    sheet = {"deals": [{"scores": [10, 2, 4]}]}
    response = as_alice.post(result_url(cup, table_one(cup).pk), {"sheet": sheet}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["source"], body["payouts"], body["winners"]) == ("sheet", [2, -3, 1], [0])


def test_a_draft_rounds_table_takes_no_result(as_alice, cup):
    seat_round(cup, [enter(cup, ["fritz", "gus", "hal"])], publish=False)
    fixture = table_one(cup, round_no=2)
    response = as_alice.post(
        result_url(cup, fixture.pk), {"record": record_for(fixture)}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "results can be entered only for a published round"}


def test_no_result_for_a_table_of_another_event(as_alice, alice, cup, draft):
    fixture = table_one(cup)
    response = as_alice.post(
        result_url(draft, fixture.pk), {"record": record_for(fixture)}, format="json"
    )
    assert response.status_code == 404


# --- downloading the record -------------------------------------------------------------------


def test_no_record_before_the_match_is_finished(anonymous, as_alice, cup):
    fixture = table_one(cup)
    for client in (anonymous, as_alice):  # not even for its organizer: it shows hidden cards
        response = client.get(record_url(cup, fixture.pk))
        assert response.status_code == 404
        assert "hidden cards" in response.json()["detail"]


def test_anyone_downloads_the_record_of_a_finished_match(anonymous, alice, cup):
    fixture = table_one(cup)
    result = finish(fixture, alice)
    response = anonymous.get(record_url(cup, fixture.pk))
    assert response.status_code == 200
    assert response.json() == result.record
    assert response["Content-Disposition"] == (
        f'attachment; filename="{cup.slug}-round1-table1.json"'
    )


def test_a_forfeited_match_shows_its_record_as_far_as_it_went(anonymous, as_alice, cup):
    fixture = table_one(cup)
    record = record_for(fixture)
    del record["deals"][0]["actions"][5:]
    posted = as_alice.post(
        result_url(cup, fixture.pk), {"record": record, "forfeited_seats": [1]}, format="json"
    )
    assert posted.status_code == 201, posted.content
    assert posted.json()["complete"] is False
    assert posted.json()["record_url"]
    response = anonymous.get(record_url(cup, fixture.pk))
    assert response.status_code == 200
    assert response.json() == record


def test_a_score_sheet_has_no_record_to_download(anonymous, as_alice, cup):
    fixture = table_one(cup)
    sheet = {"deals": [{"scores": [10, 2, 4]}]}
    posted = as_alice.post(result_url(cup, fixture.pk), {"sheet": sheet}, format="json")
    assert posted.json()["record_url"] is None
    response = anonymous.get(record_url(cup, fixture.pk))
    assert response.status_code == 404
    assert "score sheet" in response.json()["detail"]


def test_the_record_of_a_corrected_result_is_the_counting_one(anonymous, as_alice, alice, cup):
    fixture = table_one(cup)
    finish(fixture, alice)
    second = record_for(fixture, seed=2)
    as_alice.post(
        result_url(cup, fixture.pk),
        {"record": second, "correction": True, "reason": "wrong table's record"},
        format="json",
    )
    assert anonymous.get(record_url(cup, fixture.pk)).json() == second
