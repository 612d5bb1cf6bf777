"""The "final scores only" grid: a second layout of the score grid, each seat's score for each
deal, for the games whose payouts follow from those scores alone (Saichugen's game scores,
Schieberamsch's penalties). It is read, checked and converted by the same core as the full grid,
through the game's own sheet rules, so a match typed either way scores the same; the pages and
the API offer it only where the sheet rules do (pure engines first, then the pages and the API).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import catalogue
from games.core.grid import describe_grid, grid_layouts, grid_to_sheet, read_form
from games.core.registry import games, start_match
from games.core.sheet_rules import FULL, LAYOUTS, SCORES
from games.core.sheets import score_sheet
from games.saichugen.engine import MAX_BANKED, round_banked, round_problem
from league.models import Result, ResultSubmission
from league.services import table_results
from league.services.results import record_result
from tests.engines.helpers import random_variant
from tests.results.conftest import over_the_table
from tests.results.test_entering import grid_post

SHORT = {"saichugen", "schieberamsch"}  # the games whose deal scores alone give the payouts


def problems(game: str, rows: Any, variant: dict | None = None, layout: str = SCORES) -> list:
    return [
        (p.deal, p.field, p.seat, p.reason)
        for p in grid_to_sheet(game, variant or {}, rows, layout)[1]
    ]


# --- which games offer it, from their sheet rules ------------------------------------------


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_a_game_offers_final_scores_only_where_its_payouts_follow_from_the_scores(game):
    for variant in ({}, {"woburn_bidding": True}, {"targets": "6-3-8"}):
        try:
            offered = [c["name"] for c in grid_layouts(game, variant)]
        except catalogue.VariantError:
            continue  # a flag of another game
        assert offered == ([FULL, SCORES] if game in SHORT else [FULL])


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_every_layout_a_game_names_is_known_and_has_its_fields(game):
    for choice in grid_layouts(game, {}):
        assert choice["name"] in LAYOUTS and choice["label"] and choice["help"]
        fields = describe_grid(game, {}, choice["name"])["fields"]
        assert fields
        if choice["name"] == SCORES:  # one whole number per seat, nothing else
            assert [(f["name"], f["kind"], f["per_seat"]) for f in fields] == [
                ("scores", "int", True)
            ]


def test_a_saichugen_seat_banks_at_most_thirteen_in_a_round():
    banked = [
        max(round_banked([a, b, c]))
        for a in range(40)
        for b in range(40)
        for c in range(40)
        if round_problem((a, b, c)) is None
    ]
    assert max(banked) == MAX_BANKED == 13
    assert describe_grid("saichugen", {}, SCORES)["fields"][0]["max"] == 65


# --- the same match, typed either way, scores the same --------------------------------------


def _saichugen_row(summary: dict[str, Any]) -> dict[str, Any]:
    """Each round's scores per seat, from the deal summary's parts (as written on paper)."""
    row: dict[str, Any] = {f"round{r}": [0, 0, 0] for r in range(1, 6)}
    for seat in summary["seats"]:
        for part in seat["score"]["parts"]:
            if "round" in part:
                row[f"round{part['round'] + 1}"][seat["seat"]] = part["points"]
    return row


def _schieberamsch_row(summary: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    """A Ramsch's card points, pushes, Jungfrau and Durchmarsch, or a Grand Hand's fields, from
    the deal summary (its table, notes and parts), as written on paper."""
    table = {t["code"]: t["values"] for t in summary["table"]}
    notes = {n["code"]: n for n in summary["notes"]}
    grand = summary["kind"] == "grand_hand"
    row: dict[str, Any] = {"grand": grand} if variant["grand_hand"] else {}
    if grand:
        declarer = notes["grand_hand"]["declarer"]
        parts = {p["code"]: p for p in summary["seats"][declarer]["score"]["parts"]}
        row.update(
            declarer=declarer,
            matadors=parts["grand_value"]["matadors"],
            declarer_points=notes["declarer_points"]["points"],
            schwarz=parts["grand_value"]["schwarz"],
        )
        if variant["kontra_re"]:
            row.update(kontra="kontra" in parts, re="re" in parts)
        return row
    tricks = table["tricks"]
    if variant["skat_to"] == "last_trick":
        row["points"] = table["card_points"]
    else:
        row.update(points=table["trick_points"], skat=notes["skat_to"]["points"])
    row.update(
        pushes=notes["pushed"]["pushes"],
        durchmarsch=tricks.index(10) if 10 in tricks else None,
        jungfrau=tricks.index(0) if tricks.count(0) == 1 else None,
    )
    return row


def full_row(game: str, summary: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    return _saichugen_row(summary) if game == "saichugen" else _schieberamsch_row(summary, variant)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(SHORT)),
    seed=st.integers(0, 2**32 - 1),
    n_deals=st.integers(1, 3),
)
def test_final_scores_only_score_exactly_as_the_full_grid_of_a_played_match(game, seed, n_deals):
    rng = random.Random(seed)
    variant = random_variant(game, rng)
    match = start_match(game, variant=variant, n_deals=n_deals, seed=str(seed))
    while not match.finished:
        seat = rng.choice(match.to_act())
        match.apply(seat, match.move_to_action(match.random_move(seat, rng)))
    summaries = [match.deal_summary(k) for k in range(n_deals)]
    full = [full_row(game, s, match.variant) for s in summaries]
    short = [{"scores": s["scores"]} for s in summaries]

    full_sheet, found = grid_to_sheet(game, match.variant, full, FULL)
    assert found == []
    short_sheet, found = grid_to_sheet(game, match.variant, short, SCORES)
    assert found == []
    assert short_sheet == full_sheet
    scored = score_sheet(game, match.variant, short_sheet, n_seats=3, n_deals=n_deals)
    assert scored == score_sheet(game, match.variant, full_sheet, n_seats=3, n_deals=n_deals)
    assert [d["payouts"] for d in scored["deals"]] == [r["payouts"] for r in match.results]
    assert all(sum(d["payouts"]) == 0 for d in scored["deals"])


# --- bad cells -------------------------------------------------------------------------------


def test_saichugen_game_scores_no_game_gives_are_refused_on_their_cell():
    assert problems("saichugen", [{"scores": [66, 0, 0]}]) == [(0, "scores", 0, "from 0 to 65")]
    assert problems("saichugen", [{"scores": [20, -1, 35]}]) == [(0, "scores", 1, "from 0 to 65")]
    assert problems("saichugen", [{"scores": [20, None, 35]}]) == [(0, "scores", 1, "fill this in")]
    assert problems("saichugen", [{"scores": [20, 35]}]) == [
        (0, "scores", None, "one value per seat (3)")
    ]
    assert problems("saichugen", [{"scores": [20, 20, 35]}, {}, {"scores": [1, 1, 1]}]) == [
        (1, None, None, "this deal is empty, but a later one is filled in")
    ]
    # the JSON sheet takes the same bound
    with pytest.raises(catalogue.EngineError, match=r"from 0 to 65 \(seat 2 has 100\)"):
        score_sheet("saichugen", {}, {"deals": [{"scores": [0, 0, 100]}]})


def test_schieberamsch_penalties_no_deal_gives_are_refused_on_their_cell():
    assert problems("schieberamsch", [{"scores": [4, 0, 5]}]) == [
        (
            0,
            "scores",
            None,
            "two seats score only when they tie for the most card points, with the same "
            "penalty: not 4 and 5",
        )
    ]
    assert problems("schieberamsch", [{"scores": [500, 0, 0]}]) == [
        (0, "scores", 0, "from -96 to 192")
    ]
    assert problems("schieberamsch", [{"scores": [0, 0, 191]}])[0][:3] == (0, "scores", 2)
    assert problems("schieberamsch", [{"scores": [4, 4, 4]}])[0][:3] == (0, "scores", None)


def test_a_form_reads_the_layout_it_is_given_and_a_word_is_no_number():
    form = {"d0.scores.0": "20", "d0.scores.1": "twenty", "d0.scores.2": "35"}
    rows, found = read_form("saichugen", {}, 2, form.get, SCORES)
    assert rows == [{"scores": [20, None, 35]}]
    assert [(p.deal, p.field, p.seat, p.reason) for p in found] == [
        (0, "scores", 1, "a whole number")
    ]


def test_a_layout_the_game_does_not_offer_is_one_clear_problem():
    assert problems("mediatore", [{"scores": [1, 2, 3, 4]}]) == [
        (
            None,
            None,
            None,
            "Mediatore has no score grid laid out as 'scores'; its layouts: full",
        )
    ]
    assert problems("saichugen", [{"scores": [1, 2, 3]}], layout="sums")[0][3].endswith(
        "its layouts: full, scores"
    )
    assert problems("saichugen", [{"scores": [1, 2, 3]}], layout=["scores"])[0][0] is None
    assert read_form("three_five_eight", {}, 1, {}.get, SCORES)[0] == []


# --- the pages ------------------------------------------------------------------------------


def result_url(table, layout: str | None = None) -> str:
    url = reverse("league:result", args=[table.event.slug, table.fixture.pk])
    return f"{url}?layout={layout}" if layout else url


def short_post(rows: list[dict], version: int = 0, layout: str = SCORES, **more) -> dict:
    return grid_post(rows, version, layout=layout, **more)


GAMES = [
    ("saichugen", [{"scores": [20, 20, 35]}, {"scores": [9, 9, 9]}], [1, 1, -2]),
    ("schieberamsch", [{"scores": [4, 0, 0]}, {"scores": [0, 0, -9]}], [-17, -5, 22]),
]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["saichugen", "three_five_eight", "schieberamsch", "mediatore"])
def test_the_result_page_offers_the_choice_only_where_the_game_has_it(client, alice, game):
    table = over_the_table(alice, game, deals=2)
    client.force_login(alice)
    page = client.get(result_url(table)).content.decode()
    assert ('href="?layout=scores"' in page) == (game in SHORT)
    assert ("Final scores only" in page) == (game in SHORT)
    assert 'name="layout" value="full"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "rows", "payouts"), GAMES)
def test_an_organizer_counts_final_scores_only_and_corrects_them_in_that_layout(
    client, alice, game, rows, payouts
):
    table = over_the_table(alice, game, deals=2)
    client.force_login(alice)
    page = client.get(result_url(table, SCORES)).content.decode()
    assert 'name="d1.scores.2"' in page and 'name="layout" value="scores"' in page
    assert 'href="?layout=full"' in page and "d0.round1" not in page and "d0.points" not in page
    assert client.post(result_url(table), short_post(rows)).status_code == 302
    result = table.fixture.results.get(current=True)
    assert (result.grid, result.grid_layout) == (rows, SCORES)
    assert result.sheet == {"deals": rows}  # the sheet a full grid of these deals gives
    assert result.scored["totals"]["payouts"] == payouts

    again = client.get(result_url(table)).content.decode()  # the correction: filled in
    assert 'name="layout" value="scores"' in again
    assert f'name="d0.scores.0" value="{rows[0]["scores"][0]}"' in again
    other = client.get(result_url(table, FULL)).content.decode()  # the other layout: blank
    assert 'name="layout" value="full"' in other and "typed in the other layout" in other


@pytest.mark.django_db
def test_a_bad_cell_or_layout_on_the_page_counts_nothing(client, alice):
    table = over_the_table(alice, "saichugen", deals=1)
    client.force_login(alice)
    answer = client.post(result_url(table), short_post([{"scores": [20, 70, 35]}]))
    assert answer.status_code == 400
    assert 'data-error-for="d0.scores.1">from 0 to 65<' in answer.content.decode()
    answer = client.post(result_url(table), short_post([{"scores": [1, 2, 3]}], layout="sums"))
    assert answer.status_code == 400
    assert "no score grid laid out as &#x27;sums&#x27;" in answer.content.decode()
    table3 = over_the_table(alice, "mediatore", deals=1, prefix="m-")
    answer = client.post(result_url(table3), short_post([{"scores": [1, 2, 3, 4]}]))
    assert answer.status_code == 400
    assert not Result.objects.exists()


@pytest.mark.django_db
def test_the_live_check_answers_final_scores_only(client, alice):
    table = over_the_table(alice, "saichugen", deals=2)
    url = reverse("league:result_check", args=[table.event.slug, table.fixture.pk])
    client.force_login(alice)
    answer = client.post(url, short_post([{"scores": [20, 20, 35]}, {"scores": [0, 66, 0]}]))
    body = answer.json()
    assert [d["payouts"] for d in body["deals"]] == [[1, 1, -2]]
    assert [(p["key"], p["reason"]) for p in body["problems"]] == [("d1.scores.1", "from 0 to 65")]
    assert not Result.objects.exists()


@pytest.mark.django_db
def test_the_result_page_in_final_scores_only_uses_a_fixed_number_of_queries(
    client, alice, django_assert_max_num_queries
):
    small = over_the_table(alice, "saichugen", deals=1)
    large = over_the_table(alice, "schieberamsch", deals=12, prefix="x-")
    client.force_login(alice)
    record_result(small.fixture, by=alice, grid=[{"scores": [1, 2, 3]}], grid_layout=SCORES)
    record_result(large.fixture, by=alice, grid=[{"scores": [0, 4, 0]}] * 12, grid_layout=SCORES)
    for table in (small, large):
        with django_assert_max_num_queries(9):
            assert client.get(result_url(table)).status_code == 200


@pytest.mark.django_db
def test_grids_from_the_table_in_either_layout_confirm_each_other(client, alice):
    table = over_the_table(alice, "saichugen", deals=1)
    ann, ben, cat = table.users
    url = reverse("league:table_submit", args=[table.event.slug, table.fixture.pk])
    client.force_login(ann)
    assert 'href="?layout=scores"' in client.get(url).content.decode()
    assert client.post(url, short_post([{"scores": [16, 27, 9]}])).status_code == 302
    submission = ResultSubmission.objects.get()
    assert submission.grid_layout == SCORES
    client.force_login(ben)
    assert 'name="layout" value="scores"' in client.get(url).content.decode()
    rounds = {
        "round1": [12, 7, 5],
        "round2": [7, 7, 0],
        "round3": [9, 9, 9],
        "round4": [0, 0, 23],
        "round5": [3, 4, 5],
    }  # the same game scores, round by round
    table_results.submit_grid(table.fixture, by=ben, grid=[rounds])
    table_results.confirm_submission(submission, by=cat)
    result = table.fixture.results.get(current=True)
    assert (result.grid_layout, result.sheet) == (SCORES, {"deals": [{"scores": [16, 27, 9]}]})


# --- the API ----------------------------------------------------------------------------------


def api_url(table) -> str:
    return f"/api/events/{table.event.slug}/fixtures/{table.fixture.pk}/result/"


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "rows", "payouts"), GAMES)
def test_the_api_counts_a_grid_of_final_scores_only(api, alice, game, rows, payouts):
    table = over_the_table(alice, game, deals=2)
    answer = api.post(api_url(table), {"grid": rows, "grid_layout": "scores"}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["payouts"] == payouts
    result = Result.objects.get()
    assert (result.grid, result.grid_layout, result.sheet) == (rows, SCORES, {"deals": rows})


@pytest.mark.django_db
def test_the_api_takes_a_full_grid_without_a_layout(api, alice):
    table = over_the_table(alice, "three_five_eight", deals=2)
    rows = [{"tricks": [10, 2, 4]}, {"tricks": [5, 6, 5]}]
    answer = api.post(api_url(table), {"grid": rows}, format="json")
    assert answer.status_code == 201, answer.content
    assert Result.objects.get().grid_layout == FULL


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "body", "problem"),
    [
        (
            "saichugen",
            {"grid": [{"scores": [20, 66, "x"]}], "grid_layout": "scores"},
            [(0, "scores", 1, "from 0 to 65"), (0, "scores", 2, "a whole number")],
        ),
        ("saichugen", {"grid": {"scores": [1, 2, 3]}, "grid_layout": "scores"}, None),
        ("saichugen", {"grid": [{"scores": [1, 2, 3]}], "grid_layout": "sums"}, None),
        ("mediatore", {"grid": [{"scores": [1, 2, 3, 4]}], "grid_layout": "scores"}, None),
        ("saichugen", {"grid": [{"scores": [1, 2, 3]}], "grid_layout": 7}, None),
        ("saichugen", {"grid": [{"scores": [1, 2, 3]}], "sheet": {"deals": []}}, None),
        ("saichugen", {"grid": [{"scores": [1, 2, 3]}], "grid_layout": "x" * 40}, None),
    ],
)
def test_the_api_refuses_a_bad_grid_with_a_400_naming_each_cell(api, alice, game, body, problem):
    table = over_the_table(alice, game, deals=1)
    answer = api.post(api_url(table), body, format="json")
    assert answer.status_code == 400, answer.content
    data = answer.json()
    assert data.get("detail") or data.get("grid_layout")
    if problem:
        cells = [(p["deal"], p["field"], p["seat"], p["reason"]) for p in data["problems"]]
        assert cells == problem
    assert not Result.objects.exists()
