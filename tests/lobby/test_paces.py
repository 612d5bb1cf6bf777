"""Paces (gameplay/paces.py, docs/lobby.md "Paces"): a friendly table's clock by name, over the
service, the API and the pages; Play now asks only a pace and remembers it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay import paces
from gameplay.models import Table
from gameplay.services import lobby
from games import catalogue

from .conftest import TABLES, api

pytestmark = pytest.mark.django_db


def test_the_paces_and_their_names():
    assert [(p.name, p.seconds) for p in paces.live_paces()] == [
        ("relaxed", 90),
        ("normal", 45),
        ("fast", 20),
    ]
    # By the day (docs/tables.md, "Turn-based tables"): days a move.
    assert [(p.name, p.seconds // 86400) for p in paces.turn_based_paces()] == [
        ("1-day", 1),
        ("2-days", 2),
        ("3-days", 3),
        ("7-days", 7),
    ]
    assert paces.DEFAULT_PACE == "relaxed"
    assert paces.pace_of_seconds(45) == "normal" and paces.pace_of_seconds(30) == ""
    assert paces.describe("relaxed", 90) == "Relaxed · 90 s a move"
    assert paces.describe("", 30) == "30 s a move"
    assert paces.describe("fast", 0) == "no clock"


@pytest.mark.parametrize(("name", "seconds"), [("relaxed", 90), ("normal", 45), ("fast", 20)])
def test_a_pace_sets_the_clock(ana, name, seconds):
    table = lobby.create_friendly(ana, game="saichugen", bots=2, pace=name).table
    assert (table.pace, table.seconds_per_move) == (name, seconds)


def test_seconds_alone_keep_the_specs_meaning_and_name_a_pace_when_they_are_one(ana):
    default = lobby.create_friendly(ana, game="saichugen", bots=2).table
    assert (default.seconds_per_move, default.pace) == (30, "")  # lobby-api.md's default
    casual = lobby.create_friendly(ana, game="saichugen", bots=2, rated=False).table
    assert (casual.seconds_per_move, casual.pace) == (0, "")
    same = lobby.create_friendly(ana, game="saichugen", bots=2, seconds_per_move=45).table
    assert (same.seconds_per_move, same.pace) == (45, "normal")


def test_a_pace_and_agreeing_seconds_are_fine_disagreeing_ones_are_refused(ana):
    table = lobby.create_friendly(
        ana, game="saichugen", bots=2, pace="fast", seconds_per_move=20
    ).table
    assert table.pace == "fast"
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.create_friendly(ana, game="saichugen", bots=2, pace="fast", seconds_per_move=30)
    assert refused.value.status == 400
    assert "fast is 20 seconds a move, not 30" in refused.value.detail
    assert Table.objects.count() == 1


def test_the_api_takes_a_pace_and_lists_it(ana, olga):
    made = api(ana).post(TABLES, {"game": "mediatore", "pace": "normal"}, format="json")
    assert made.status_code == 201, made.content
    entry = api(olga).get(f"{TABLES}{made.json()['table']}/").json()
    assert (entry["pace"], entry["seconds_per_move"]) == ("normal", 45)
    # null means the default, as for the other settings: the spec's 30 s, no pace.
    made = api(ana).post(TABLES, {"game": "mediatore", "pace": None}, format="json")
    entry = api(olga).get(f"{TABLES}{made.json()['table']}/").json()
    assert (entry["pace"], entry["seconds_per_move"]) == (None, 30)


@pytest.mark.parametrize("bad", ["blitz", "", 90, ["fast"], {"pace": "fast"}])
def test_an_unknown_pace_is_a_400_naming_the_paces(ana, bad):
    response = api(ana).post(TABLES, {"game": "saichugen", "pace": bad}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "pace must be one of: relaxed, normal, fast, 1-day, 2-days, 3-days, 7-days."
    }
    assert not Table.objects.exists()


def test_inconsistent_pace_and_seconds_over_the_api(ana):
    body = {"game": "saichugen", "pace": "relaxed", "seconds_per_move": 45}
    response = api(ana).post(TABLES, body, format="json")
    assert response.status_code == 400 and "relaxed" in response.json()["detail"]
    assert not Table.objects.exists()


def test_play_now_is_relaxed_the_first_time_then_remembers_the_pace(client, ana):
    client.force_login(ana)
    assert lobby.play_now_pace(ana) == "relaxed"
    client.post(reverse("gameplay:play-now"), {"game": "saichugen"})
    assert Table.objects.get().pace == "relaxed"
    client.post(reverse("gameplay:play-now"), {"game": "saichugen", "pace": "fast"})
    ana.refresh_from_db()
    assert ana.play_pace == "fast"
    # Next time the home page offers fast first, and Play now without a pace plays it.
    page = client.get(reverse("home")).content.decode()
    assert 'value="fast" checked' in page and 'value="relaxed" checked' not in page
    client.post(reverse("gameplay:play-now"), {"game": "mediatore"})
    assert Table.objects.get(game="mediatore").seconds_per_move == 20


def test_play_now_refuses_an_unknown_pace_and_makes_nothing(client, ana):
    client.force_login(ana)
    response = client.post(reverse("gameplay:play-now"), {"game": "saichugen", "pace": "x"})
    assert response.status_code == 400 and b"relaxed, normal, fast" in response.content
    assert not Table.objects.exists()
    ana.refresh_from_db()
    assert ana.play_pace == ""


def test_the_lobby_form_offers_the_paces_and_a_custom_clock(client, ana):
    client.force_login(ana)
    page = client.get(reverse("gameplay:play")).content.decode()
    assert 'name="pace"' in page and "Custom clock" in page
    form = {"game": "saichugen", "bots": "2", "bot_level": "basic", "rated": "1"}
    for flag in catalogue.game("saichugen").variant_schema:  # the rules as the page has them
        if flag["type"] != "bool":
            form[f"saichugen__{flag['name']}"] = flag["default"]
    client.post(reverse("gameplay:play"), {**form, "pace": "normal", "seconds_per_move": "30"})
    assert Table.objects.get().pace == "normal"
    Table.objects.all().delete()
    client.post(reverse("gameplay:play"), {**form, "pace": "", "seconds_per_move": "75"})
    table = Table.objects.get()
    assert (table.pace, table.seconds_per_move) == ("", 75)


def test_the_table_page_shows_the_pace(client, ana):
    client.force_login(ana)
    table = lobby.play_now(ana, "saichugen", "normal").table
    page = client.get(reverse("gameplay:table", args=[table.id])).content.decode()
    assert '<span id="pace">Normal · 45 s a move</span>' in page


@pytest.mark.django_db
def test_the_play_pages_play_now_asks_the_pace_and_says_what_a_guest_gets(client):
    page = client.get(reverse("gameplay:play")).content.decode()
    form = page[page.index('id="play-now-form"') :]
    assert 'name="pace" value="relaxed" checked' in form[: form.index("</form>")]
    assert page.count('form="play-now-form" name="game"') == len(catalogue.games())
    assert "unrated as a guest" in page
