"""A past deal's summary over HTTP (`/tables/<id>/summary.json?deal=K`), the Match legend in the
table page's config, and the replay's last step of each deal."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from gameplay.models import Table
from gameplay.services import matches, play
from games import registry
from games.core.records import replay_record
from games.core.replay import deal_steps
from tests.gameplay.conftest import make_table, make_users, token
from tests.summary.test_views import play_to_deal_end

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [g.name for g in registry.games()]


def config_of(html: str) -> dict:
    start = html.index('<script id="table-config" type="application/json">')
    return json.loads(html[start:].split(">", 1)[1].split("</script>", 1)[0])


def url(table: Table, **query: str) -> str:
    base = reverse("gameplay:deal_summary", args=[table.id])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def half_played():
    """A 3-5-8 table of ana (seat 0) and two bots, 3 deals: ana plays until deal 0 is over."""
    (ana,) = make_users("ana")
    table = make_table(people=[ana], bots=["b1", "b2"], n_deals=3, seed=7, allow_spectators=False)
    seat, action = play_to_deal_end(table, random.Random(1))
    table.refresh_from_db()
    play.play_action(table.id, seat, action, table.seq)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return ana, table


def test_a_seat_reads_a_finished_deal_of_a_running_table(client, half_played):
    ana, table = half_played
    client.force_login(ana)
    response = client.get(url(table, deal="0"))
    assert response.status_code == 200
    summary = response.json()
    assert summary == matches.load_match(table).deal_summary(0)
    # The token works the same way, without a session.
    client.logout()
    by_token = client.get(url(table, deal="0", token=token(table, 0)))
    assert by_token.status_code == 200 and by_token.json() == summary


def test_a_deal_not_over_and_bad_input_change_nothing(client, half_played):
    ana, table = half_played
    client.force_login(ana)
    seq = table.seq
    assert client.get(url(table, deal="1")).status_code == 404  # being played
    assert client.get(url(table, deal="9")).status_code == 404
    for bad in ("", "-1", "x", "1.5", "\uff11", "9999999"):
        response = client.get(url(table, deal=bad))
        assert response.status_code == 400, bad
        assert "detail" in response.json()
    assert client.get(url(table)).status_code == 400
    assert client.post(url(table, deal="0")).status_code == 405
    table.refresh_from_db()
    assert table.seq == seq


def test_who_may_not_watch_gets_a_404(client, half_played):
    _, table = half_played
    assert client.get(url(table, deal="0")).status_code == 404  # no spectators at this table
    assert client.get(url(table, deal="0", token="wrong")).status_code == 404
    (olga,) = make_users("olga")
    client.force_login(olga)
    assert client.get(url(table, deal="0")).status_code == 404
    assert client.get("/tables/nosuchtable/summary.json?deal=0").status_code == 404


def test_a_spectator_reads_it_where_spectators_may_watch(client, django_assert_max_num_queries):
    table = make_table(bots=["b0", "b1", "b2"], n_deals=2, seed=3)
    with django_assert_max_num_queries(6):
        response = client.get(url(table, deal="1"))
    assert response.status_code == 200
    record = matches.table_record(table.id)
    assert response.json() == replay_record(record).deal_summary(1)


@pytest.mark.parametrize("game", GAMES)
def test_the_table_page_carries_the_legend_and_the_summary_settings(client, settings, game):
    settings.GAMEPLAY_DEAL_SUMMARY_SECONDS = 12
    seats = registry.get_game(game).seats
    table = make_table(game=game, bots=[f"b{i}" for i in range(seats)], n_deals=1, seed=3)
    cfg = config_of(client.get(f"/tables/{table.id}/").content.decode())
    assert cfg["summarySeconds"] == 12
    assert cfg["summaryUrl"] == url(table)
    assert set(cfg["legend"]) == {"unit", "score", "payout", "winner"}
    assert all(cfg["legend"].values())
    page = client.get(f"/tables/{table.id}/").content.decode()
    assert "js/summary.js" in page and "css/summary.css" in page


def test_schieberamsch_says_its_scores_are_penalties(client):
    legend = registry.get_game("schieberamsch").engine.LEGEND
    assert "penalt" in legend["unit"] and "lower is better" in legend["score"]
    assert "lowest" in legend["winner"]


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_shows_each_deals_summary_at_its_last_step(game):
    seats = registry.get_game(game).seats
    table = make_table(game=game, bots=[f"b{i}" for i in range(seats)], n_deals=2, seed=9)
    record = matches.table_record(table.id)
    whole = replay_record(record)
    for k in range(len(record["deals"])):
        steps = deal_steps(record, k)["steps"]
        assert steps[-1]["deal_over"] and steps[-1]["summary"] == whole.deal_summary(k)
        assert all("summary" not in step for step in steps[:-1])
