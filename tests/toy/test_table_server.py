"""The toy game at the real table server: over the table socket with a bot, its record, its
replay and its deals' summaries (tests/gameplay, tests/replay and tests/summary do the same for
the product's games)."""

from __future__ import annotations

from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.contrib.staticfiles import finders

from gameplay.game_site import GameStatic
from gameplay.models import Action, Table
from gameplay.services import matches
from games.core.records import replay_record, score_record
from tests.gameplay.conftest import current, make_table, make_users, some_legal
from tests.gameplay.test_table_socket import act, receive, seated

db = database_sync_to_async


def bots_table(n_deals: int = 2) -> Table:
    """A table of three basic bots, played to its end through the service path."""
    table = make_table(game="toy", bots=["b0", "b1", "b2"], n_deals=n_deals, seed=11)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections", "toy_game", "bots_think_here")
async def test_two_people_and_a_bot_play_a_match_over_the_table_socket():
    ana, ben = await db(make_users)("ana", "ben")
    table = await db(make_table)(game="toy", people=[ana, ben], bots=["b2"], n_deals=2, seed=3)
    comms = [await seated(table, 0), await seated(table, 1)]
    seq = 0
    while True:
        _, match = await db(current)(table)
        if match.finished:
            break
        seat = match.to_act()[0]
        if seat in (0, 1):
            await act(comms[seat], seq, some_legal(match, seat))
        # every state the move (and a bot's answer) sends, to both people, until it is a
        # person's turn again or the match is over
        while True:
            state = await receive(comms[0])
            assert (await receive(comms[1]))["seq"] == state["seq"]
            seq = state["seq"]
            if state["status"] == "finished" or set(state["to_act"]) & {0, 1}:
                break
    assert state["status"] == "finished"
    assert state["result"]["complete"] and len(state["result"]["deals"]) == 2
    assert sum(state["result"]["totals"]["payouts"]) == 0
    kinds = set(await db(list)(Action.objects.filter(table=table).values_list("kind", flat=True)))
    assert kinds == {"player", "bot"}
    for comm in comms:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("toy_game")
def test_the_record_scores_to_the_tables_result_and_replays(client):
    table = bots_table()
    response = client.get(f"/tables/{table.id}/record.json")
    assert response.status_code == 200
    record = response.json()
    assert record["game"] == "toy"
    assert score_record(record) == matches.load_match(table).result()
    assert replay_record(record).export() == record


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("toy_game")
def test_the_replay_page_and_its_steps(client):
    table = bots_table()
    page = client.get(f"/tables/{table.id}/replay/")
    assert page.status_code == 200
    steps = client.get(f"/tables/{table.id}/replay.json")
    assert steps.status_code == 200
    assert steps.json()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("toy_game")
def test_the_deal_summary_over_http_adds_up(client):
    table = bots_table()
    record = matches.table_record(table.id)
    for k in (0, 1):
        response = client.get(f"/tables/{table.id}/summary.json?deal={k}")
        assert response.status_code == 200
        summary = response.json()
        assert summary == replay_record(record).deal_summary(k)
        scored = score_record(record)["deals"][k]
        assert [s["payout"]["total"] for s in summary["seats"]] == scored["payouts"]
        assert {p["code"] for s in summary["seats"] for p in s["payout"]["parts"]} <= (
            {"per_trick", "par"}
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("toy_game")
def test_the_table_page(client):
    table = bots_table(n_deals=1)
    assert client.get(f"/tables/{table.id}/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("toy_game")
def test_the_games_pages_and_client_come_from_its_package(client):
    """Its rules page and its table client live in tests/toygame/site/ (gameplay/game_site.py)."""
    page = client.get("/games/toy/")
    assert page.status_code == 200
    assert "Each seat scores 3 x its tricks, less 4." in page.content.decode()
    table = bots_table(n_deals=1)
    assert "/static/games/toy/table.js" in client.get(f"/tables/{table.id}/").content.decode()
    served = Path(finders.find("games/toy/table.js"))
    assert 'M.registerGame("toy"' in served.read_text()
    assert finders.find("games/toy/rules.html") is None
    assert finders.find("games/toy/../engine.py") is None
    # what collectstatic gathers: the client, never the template
    listed = {f"{storage.prefix}/{path}" for path, storage in GameStatic().list([])}
    assert "games/toy/table.js" in listed
    assert "games/toy/rules.html" not in listed
