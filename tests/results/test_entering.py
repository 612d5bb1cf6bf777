"""The organizer's result page: the game's grid, problems beside the field that is wrong, a
correction that opens filled in, an identical correction refused, deals numbered from 1 on the
page and in ledger.csv (the API and records keep counting from 0)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import catalogue
from league.errors import LeagueError
from league.models import LedgerEntry, Result
from league.services.results import record_result
from tests.results.conftest import over_the_table

pytestmark = pytest.mark.django_db

HAND_1, HAND_2 = [10, 2, 4], [5, 6, 5]


def grid_post(rows: list[dict], version: int = 0, **more) -> dict:
    """A grid as its form posts it: `d<deal>.<field>[.<seat>]` inputs."""
    data = {"mode": "grid", "result-version": str(version), **more}
    for d, row in enumerate(rows):
        for name, value in row.items():
            if isinstance(value, list):
                for s, v in enumerate(value):
                    data[f"d{d}.{name}.{s}"] = "" if v is None else str(v)
            elif value is True:
                data[f"d{d}.{name}"] = "1"
            elif value not in (None, False):
                data[f"d{d}.{name}"] = str(value)
    return data


def seat_name(table, number: int) -> str:
    return table.fixture.seats.get(number=number).player.name


def result_url(table):
    return reverse("league:result", args=[table.event.slug, table.fixture.pk])


def test_the_organizer_counts_a_grid_from_the_page(client, alice, table):
    client.force_login(alice)
    page = client.get(result_url(table)).content.decode()
    assert 'name="d0.tricks.0"' in page and 'name="d1.tricks.2"' in page
    assert "Deal 1" in page and "Deal 2" in page and "Deal 0" not in page
    answer = client.post(result_url(table), grid_post([{"tricks": HAND_1}, {"tricks": HAND_2}]))
    assert answer.status_code == 302
    result = table.fixture.results.get(current=True)
    assert result.grid == [{"tricks": HAND_1}, {"tricks": HAND_2}]
    assert result.sheet == {"deals": [{"scores": HAND_1}, {"scores": HAND_2}]}
    # dealer 0 (targets 8, 5, 3): +2 -3 +1; dealer 1 (targets 3, 8, 5): +2 -2 0
    assert result.scored["totals"]["payouts"] == [4, -5, 1]
    assert result.entered_by == alice


def test_a_result_counted_meanwhile_is_said_and_what_was_typed_is_kept(client, alice, table):
    """Two organizers enter the same table: the second is told that another result counted
    while they typed, nothing of theirs counts, and their grid stays as a correction."""
    client.force_login(alice)
    assert 'name="result-version" value="0"' in client.get(result_url(table)).content.decode()
    record_result(
        table.fixture, by=alice, sheet={"deals": [{"scores": HAND_2}, {"scores": HAND_1}]}
    )
    mine = client.post(result_url(table), grid_post([{"tricks": HAND_1}, {"tricks": HAND_2}]))
    assert mine.status_code == 409
    page = mine.content.decode()
    assert 'id="changed-meanwhile"' in page
    assert "Another result of table 1 was counted while you were entering yours" in page
    assert "correct the result" in page  # the form is now a correction of version 1
    assert 'name="result-version" value="1"' in page
    assert 'name="d0.tricks.0" value="10"' in page  # what they typed, kept
    assert table.fixture.results.count() == 1
    # saved again with a reason, it corrects the result that counts
    again = grid_post(
        [{"tricks": HAND_1}, {"tricks": HAND_2}], version=1, **{"result-reason": "mine"}
    )
    assert client.post(result_url(table), again).status_code == 302
    assert table.fixture.results.get(current=True).grid == [{"tricks": HAND_1}, {"tricks": HAND_2}]


def test_a_wrong_field_is_shown_beside_its_input_and_nothing_counts(client, alice, table):
    client.force_login(alice)
    answer = client.post(
        result_url(table), grid_post([{"tricks": [-1, 13, 4]}, {"tricks": HAND_2}])
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert re.search(r'data-error-for="d0\.tricks\.0">from 0 to 16<', page)
    assert 'name="d0.tricks.0" value="-1"' in page  # what was typed stays
    assert f"Deal 1 · Tricks taken · {seat_name(table, 0)}: from 0 to 16" in page
    assert "add up" not in page
    assert not Result.objects.exists()


def test_a_json_sheet_refused_on_the_page_counts_its_deals_from_one(client, alice, table):
    client.force_login(alice)
    sheet = '{"deals": [{"scores": [10, 2, 4]}, {"scores": [-1, 13, 4]}]}'
    page = client.post(result_url(table), {"sheet_text": sheet, "version": 0}).content.decode()
    assert "Score sheet, deal 2: tricks taken are from 0 to 16 (seat 0 has -1)" in page
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/events/{table.event.slug}/fixtures/{table.fixture.pk}/result/"
    answer = api.post(
        url, {"sheet": {"deals": [{"scores": [10, 2, 4]}, {"scores": [-1, 13, 4]}]}}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "score sheet: deal 1: tricks taken are from 0 to 16 (seat 0 has -1)"
    )  # the API counts from 0, as records do
    assert not Result.objects.exists()


def test_a_correction_opens_with_the_counting_grid_filled_in(client, alice, table):
    client.force_login(alice)
    client.post(result_url(table), grid_post([{"tricks": HAND_1}, {"tricks": HAND_2}]))
    page = client.get(result_url(table)).content.decode()
    for d, hand in enumerate((HAND_1, HAND_2)):
        for s, tricks in enumerate(hand):
            assert f'name="d{d}.tricks.{s}" value="{tricks}"' in page
    assert 'name="result-version" value="1"' in page
    assert "Save correction" in page


def test_an_identical_correction_is_refused_and_makes_no_version(client, alice, table):
    client.force_login(alice)
    rows = [{"tricks": HAND_1}, {"tricks": HAND_2}]
    client.post(result_url(table), grid_post(rows))
    same = client.post(result_url(table), grid_post(rows, version=1, **{"result-reason": "again"}))
    assert same.status_code == 400
    assert "this correction is the result that counts already (version 1)" in same.content.decode()
    assert table.fixture.results.count() == 1
    changed = [{"tricks": HAND_1}, {"tricks": [6, 5, 5]}]
    fixed = client.post(
        result_url(table), grid_post(changed, version=1, **{"result-reason": "typo"})
    )
    assert fixed.status_code == 302
    assert table.fixture.results.get(current=True).version == 2


def test_an_identical_sheet_or_record_correction_is_refused_by_the_service(alice, table):
    sheet = {"deals": [{"scores": HAND_1}, {"scores": HAND_2}]}
    record_result(table.fixture, by=alice, sheet=sheet)
    with pytest.raises(LeagueError, match="counts already"):
        record_result(table.fixture, by=alice, sheet=sheet, correction=True, reason="again")
    # a grid of the same outcome adds what was typed on paper: that is a change
    grid = [{"tricks": HAND_1}, {"tricks": HAND_2}]
    record_result(table.fixture, by=alice, grid=grid, correction=True, reason="the paper")
    with pytest.raises(LeagueError, match="counts already"):
        record_result(table.fixture, by=alice, grid=grid, correction=True, reason="again")
    assert table.fixture.results.count() == 2


def test_forfeits_and_a_reason_go_with_the_grid(client, alice, table):
    client.force_login(alice)
    short = grid_post([{"tricks": HAND_1}], **{"result-forfeited": ["2"]})
    assert client.post(result_url(table), short).status_code == 302
    result = table.fixture.results.get(current=True)
    assert result.forfeited_seats == [2] and not result.scored["complete"]
    unfinished = client.post(
        result_url(table), grid_post([{"tricks": HAND_1}], version=1, **{"result-reason": "x"})
    )
    assert "only a forfeit can end it early" in unfinished.content.decode()


def test_ledger_csv_numbers_deals_from_one(client, alice, table):
    record_result(table.fixture, by=alice, grid=[{"tricks": HAND_1}, {"tricks": HAND_2}])
    body = client.get(reverse("league:ledger_csv", args=[table.event.slug])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert sorted({r["deal"] for r in rows}) == ["1", "2"]
    assert set(LedgerEntry.objects.values_list("deal", flat=True)) == {0, 1}  # stored from 0


def test_the_live_check_answers_totals_and_problems_and_writes_nothing(client, alice, dan, table):
    url = reverse("league:result_check", args=[table.event.slug, table.fixture.pk])
    client.force_login(alice)
    answer = client.post(url, grid_post([{"tricks": HAND_1}, {"tricks": [-1, 13, 4]}])).json()
    assert [d["running_payouts"] for d in answer["deals"]] == [[2, -3, 1]]
    assert answer["problems"] == [
        {
            "key": "d1.tricks.0",
            "reason": "from 0 to 16",
            "text": f"Deal 2 · Tricks taken · {seat_name(table, 0)}: from 0 to 16",
        }
    ]
    assert answer["ready"] is False
    good = client.post(url, grid_post([{"tricks": HAND_1}, {"tricks": HAND_2}])).json()
    assert good["ready"] is True and good["totals"]["payouts"] == [4, -5, 1]
    assert not Result.objects.exists()
    client.force_login(dan)
    assert client.post(url, grid_post([{"tricks": HAND_1}])).status_code == 403


@pytest.mark.parametrize("game", ["saichugen", "three_five_eight", "schieberamsch", "mediatore"])
def test_the_result_page_of_every_game_shows_its_grid(client, alice, game):
    table = over_the_table(alice, game, deals=3)
    client.force_login(alice)
    page = client.get(result_url(table)).content.decode()
    assert 'id="score-grid"' in page and "Deal 3" in page and "Deal 4" not in page
    for field in catalogue.sheet_grid(game, table.event.variant)["fields"]:
        assert f'name="d2.{field["name"]}' in page


def test_the_result_page_uses_a_fixed_number_of_queries(
    client, alice, django_assert_max_num_queries
):
    small = over_the_table(alice, deals=1)
    large = over_the_table(alice, "schieberamsch", deals=12, prefix="x-")
    client.force_login(alice)
    for table in (small, large):
        record_result(
            table.fixture,
            by=alice,
            sheet={"deals": [{"scores": [10, 2, 4]}]}
            if table is small
            else {"deals": [{"scores": [0, 4, 0]}] * 12},
        )
        with django_assert_max_num_queries(9):
            assert client.get(result_url(table)).status_code == 200


def test_the_api_schema_documents_each_games_score_sheet():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    post = schema["paths"]["/api/events/{slug}/fixtures/{fixture_id}/result/"]["post"]
    examples = post["requestBody"]["content"]["application/json"]["examples"]
    sheets = {e["summary"]: e["value"]["sheet"] for e in examples.values()}
    for game in catalogue.games():
        sheet = sheets[f"{game.display_name} score sheet"]
        n = game.seats
        assert catalogue.score_sheet(game.name, {}, sheet, n_seats=n)["deals"]  # a valid example
    described = schema["components"]["schemas"]["ResultPost"]["properties"]["sheet"]["description"]
    assert "**Schieberamsch** (`schieberamsch`)" in described and "penalt" in described


def test_the_event_setting_is_in_the_api(alice):
    api = APIClient()
    api.force_authenticate(alice)
    answer = api.post(
        "/api/events/",
        {
            "name": "Club night",
            "game": "schieberamsch",
            "play_online": False,
            "table_results": True,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert api.get(answer.json()["url"]).json()["table_results"] is True
