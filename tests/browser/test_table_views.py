"""The table page and the record view over HTTP (no browser): who the page says you are, who may
look, and that the record is served only once the match is over."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders

from gameplay.services import clocks, matches
from tests.gameplay.conftest import (
    make_table,
    make_users,
    quick_tables,  # noqa: F401  (autouse: bots at once, fresh cache)
    token,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people():
    return make_users("ana", "ben", "olga")


def page_config(response) -> dict:
    html = response.content.decode()
    marker = '<script id="table-config" type="application/json">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])


def test_the_page_tells_a_seated_player_a_token_holder_and_a_spectator_apart(client, people):
    ana, ben, olga = people
    table = make_table("saichugen", [ana, ben], ["bot"])
    client.force_login(ana)
    assert page_config(client.get(f"/tables/{table.id}/"))["seat"] == 0
    client.force_login(olga)
    config = page_config(client.get(f"/tables/{table.id}/"))
    assert config["seat"] is None
    assert config["socketPath"] == f"/ws/tables/{table.id}/"
    assert [p["name"] for p in config["players"]] == ["ana", "ben", "bot"]
    assert [p["bot"] for p in config["players"]] == [False, False, True]
    response = client.get(f"/tables/{table.id}/?token={token(table, 1)}")
    assert page_config(response)["seat"] == 1
    assert b"table.js" in response.content


GAME_SEATS = {"saichugen": 3, "three_five_eight": 3, "mediatore": 4, "schieberamsch": 3}


@pytest.mark.parametrize("game", sorted(GAME_SEATS))
def test_the_page_loads_the_client_core_and_only_its_own_games_module(client, people, game):
    ana = people[0]
    table = make_table(game, [ana], [f"bot{i}" for i in range(1, GAME_SEATS[game])])
    html = client.get(f"/tables/{table.id}/?token={token(table, 0)}").content.decode()
    assert html.index("/static/js/table.js") < html.index(f"/static/games/{game}/table.js")
    for other in GAME_SEATS.keys() - {game}:
        assert f"games/{other}/" not in html
    # served from the game's package by gameplay/game_site.py
    assert finders.find(f"games/{game}/table.js").endswith(f"games/{game}/site/table.js")


def test_a_table_without_spectators_is_closed_to_outsiders_and_wrong_tokens(client, people):
    ana, ben, olga = people
    table = make_table("saichugen", [ana, ben], ["bot"], allow_spectators=False)
    assert client.get(f"/tables/{table.id}/").status_code == 403
    assert client.get(f"/tables/{table.id}/?token=wrong").status_code == 403
    client.force_login(olga)
    assert client.get(f"/tables/{table.id}/").status_code == 403
    client.force_login(ben)
    assert client.get(f"/tables/{table.id}/").status_code == 200
    assert client.get("/tables/nosuchtable/").status_code == 404


def test_the_record_is_served_only_when_the_match_is_over(client, people):
    ana, *_ = people
    playing = make_table("three_five_eight", [ana], ["b1", "b2"])
    assert client.get(f"/tables/{playing.id}/record.json").status_code == 404
    finished = make_table("saichugen", [], ["b1", "b2", "b3"])  # bots play it out at once
    finished.refresh_from_db()
    assert finished.status == "finished"
    response = client.get(f"/tables/{finished.id}/record.json")
    assert response.status_code == 200
    assert response.json() == matches.table_record(finished.id)
    assert response.json()["format"] == "mediana.record/1"


def test_a_private_tables_record_is_for_its_players_only(client, people):
    ana, _, olga = people
    table = make_table("saichugen", [ana], ["b1", "b2"], allow_spectators=False)
    with_token = f"/tables/{table.id}/record.json?token={token(table, 0)}"
    assert client.get(with_token).status_code == 404  # not finished yet
    now = _past_deadline(table)
    assert clocks.forfeit(table.id, 0, table.seq, now=now) == 1
    assert client.get(f"/tables/{table.id}/record.json").status_code == 404
    client.force_login(olga)
    assert client.get(f"/tables/{table.id}/record.json").status_code == 404
    assert client.get(with_token).status_code == 200
    client.force_login(ana)
    assert client.get(f"/tables/{table.id}/record.json").status_code == 200


def _past_deadline(table):
    """Give the table an expired clock so `forfeit` may end it."""
    from datetime import timedelta

    from django.utils import timezone

    from gameplay.models import Table

    now = timezone.now()
    Table.objects.filter(pk=table.id).update(deadline=now - timedelta(seconds=1))
    table.refresh_from_db()
    return now


def test_the_demo_table_is_ready_against_two_bots_and_reused(people):
    from gameplay.demo import demo_table
    from gameplay.models import Seat

    first = demo_table()
    assert demo_table() == first
    seats = Seat.objects.filter(table_id=first).order_by("number")
    assert [s.user_id for s in seats][:1] == [people[0].pk]
    assert [bool(s.bot) for s in seats] == [False, True, True]
