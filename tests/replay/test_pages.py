"""The replay page and its steps over HTTP: whole bots' matches of every game replayed from the
table's record, who may watch (the record's rule), bad input, and the page's query count."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from gameplay.models import Seat, Table
from gameplay.services import matches
from games import catalogue, registry
from tests.gameplay.conftest import make_table, make_users

from .conftest import play_out

GAMES = [g.name for g in registry.games()]


def replay_url(table: Table, **query: str) -> str:
    url = reverse("gameplay:replay", args=[table.id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def json_url(table: Table, **query: str) -> str:
    url = reverse("gameplay:replay_json", args=[table.id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def page_config(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="table-config" type="application/json">')
    body = html[start:].split(">", 1)[1].split("</script>", 1)[0]
    return json.loads(body)


def every_step(client, table: Table) -> tuple[dict, list[dict]]:
    """The summary and every deal's steps, as the page's browser would fetch them."""
    summary = client.get(json_url(table)).json()
    deals = [client.get(json_url(table, deal=str(k))).json() for k in range(len(summary["deals"]))]
    return summary, deals


# ---------------------------------------------------------------------- whole matches
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_a_bots_match_replays_to_the_score_of_its_record(client, game):
    seats = registry.get_game(game).seats
    table = make_table(game=game, bots=[f"bot{i}" for i in range(seats)], n_deals=2, seed=21)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    record = matches.table_record(table.id)

    summary, deals = every_step(client, table)
    steps = [s for d in deals for s in d["steps"]]
    scored = catalogue.score_record(record, n_deals=table.n_deals)
    assert summary["result"] == scored == table.result
    # the last step's score is the record's
    assert steps[-1]["score"] == scored["totals"]
    # one step per action of the record, which is one per action of the table
    actions = [a for d in record["deals"] for a in d["actions"]]
    assert [s["action"] for s in steps] == actions
    assert len(steps) == summary["actions"] == table.seq
    # every hand at the start of each deal is the record's as dealt
    for deal, dealt in zip(deals, record["deals"], strict=True):
        hands = deal["start"]["view"]["hands"]
        assert [sorted(h) for h in hands] == [sorted(h) for h in dealt["hands"]]
    # every step says what it was in words, naming the seat that acted
    for step in steps:
        assert {"seat": step["action"]["seat"]} in step["label"]
        assert any(p.get("text", "").strip() for p in step["label"])

    # the page brings the summary and the first deal, for the browser to draw without rules
    page = client.get(replay_url(table))
    assert page.status_code == 200
    config = page_config(page)
    assert config["replay"] is True and config["seat"] is None
    assert config["summary"] == summary
    assert config["initial"] == deals[0]


# ---------------------------------------------------------------------- who may watch
@pytest.fixture
def private_table():
    """A finished Saichugen table of ana, ben and cleo that allowed no spectators."""
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    table = make_table("saichugen", people=[ana, ben, cleo], allow_spectators=False)
    return play_out(table), ana


@pytest.fixture
def public_table():
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    table = make_table("schieberamsch", people=[ana, ben, cleo], allow_spectators=True)
    return play_out(table), ana


def status_of(client, table: Table, **query: str) -> tuple[int, int, int]:
    """The status codes of the replay page, its steps and the record for this client."""
    record = reverse("gameplay:table_record", args=[table.id])
    if query:
        record += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return (
        client.get(replay_url(table, **query)).status_code,
        client.get(json_url(table, deal="0", **query)).status_code,
        client.get(record).status_code,
    )


@pytest.mark.django_db
def test_players_may_watch_the_replay_of_a_table_without_spectators(client, private_table):
    table, ana = private_table
    client.force_login(ana)
    assert status_of(client, table) == (200, 200, 200)


@pytest.mark.django_db
def test_a_seat_token_opens_the_replay(client, private_table):
    table, _ = private_table
    token = Seat.objects.get(table=table, number=1).token
    assert status_of(client, table, token=token) == (200, 200, 200)
    assert status_of(client, table, token="not-a-token") == (404, 404, 404)


@pytest.mark.django_db
def test_nobody_else_may_watch_a_table_without_spectators(client, private_table):
    table, _ = private_table
    assert status_of(client, table) == (404, 404, 404)  # anonymous
    (olga,) = make_users("olga")
    client.force_login(olga)
    assert status_of(client, table) == (404, 404, 404)
    assert client.get(json_url(table)).json() == {"detail": "no replay of this table"}


@pytest.mark.django_db
def test_everyone_may_watch_a_table_that_allowed_spectators(client, public_table):
    table, _ = public_table
    assert status_of(client, table) == (200, 200, 200)


@pytest.mark.django_db
def test_an_unfinished_table_has_no_replay_even_for_its_players(client):
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    table = make_table("three_five_eight", people=[ana, ben, cleo], allow_spectators=True)
    client.force_login(ana)
    assert status_of(client, table) == (404, 404, 404)
    page = client.get(reverse("gameplay:table", args=[table.id]))
    assert 'id="replay-link"' not in page.content.decode()


@pytest.mark.django_db
def test_an_unknown_table_has_no_replay(client):
    assert client.get("/tables/0123456789abcdef/replay/").status_code == 404
    assert client.get("/tables/0123456789abcdef/replay.json").status_code == 404


@pytest.mark.django_db
def test_the_finished_table_links_to_its_replay(client, public_table):
    table, ana = public_table
    client.force_login(ana)
    page = client.get(reverse("gameplay:table", args=[table.id]))
    html = page.content.decode()
    assert f'id="replay-link" href="{replay_url(table)}"' in html
    config = page_config(page)
    assert config["replayUrl"] == replay_url(table)  # table.js links it beside the record


# ---------------------------------------------------------------------- bad input
@pytest.mark.django_db
def test_a_bad_deal_number_is_a_clear_error(client, public_table):
    table, _ = public_table
    for bad in ("x", "-1", "1.5", "%C2%B2", "9999999"):
        response = client.get(json_url(table, deal=bad))
        assert response.status_code == 400, bad
        assert "deal" in response.json()["detail"]
        assert client.get(replay_url(table, deal=bad)).status_code == 400
    missing = client.get(json_url(table, deal="7"))
    assert missing.status_code == 404
    assert missing.json() == {"detail": "the record has no such deal"}
    assert client.get(replay_url(table, deal="7")).status_code == 404


@pytest.mark.django_db
def test_the_page_opens_the_deal_it_is_asked_for(client):
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    table = play_out(make_table("schieberamsch", people=[ana, ben, cleo], n_deals=2))
    config = page_config(client.get(replay_url(table, deal="1")))
    assert config["initial"]["deal"] == 1
    assert config["initial"] == client.get(json_url(table, deal="1")).json()


# ---------------------------------------------------------------------- cost
@pytest.mark.django_db
def test_the_page_and_its_steps_take_a_constant_number_of_queries(
    client, django_assert_max_num_queries
):
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    short = play_out(make_table("mediatore", people=[*make_users("dora"), ana, ben, cleo]))
    long = play_out(
        make_table("mediatore", people=[*make_users("emil"), ana, ben, cleo], n_deals=4)
    )
    client.force_login(ana)
    for table in (short, long):
        # 9: the game analysis's row and whether this reader may ask for it (tests/analysis).
        with django_assert_max_num_queries(9):
            assert client.get(replay_url(table)).status_code == 200
        with django_assert_max_num_queries(5):
            assert client.get(json_url(table, deal="0")).status_code == 200
