"""The lobby makes tables of the toy game as of any other (lobby-api.md): through its API, with
bots or people joining, and lists them."""

from __future__ import annotations

import pytest

from gameplay.models import Table
from tests.lobby.conftest import (  # noqa: F401  (ana, ben, cleo: fixtures)
    TABLES,
    ana,
    api,
    ben,
    cleo,
    create,
    join,
    play_out,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("toy_game")]


def test_a_toy_table_with_two_bots_starts_at_once_and_plays_to_its_end(ana):  # noqa: F811
    body = create(ana, game="toy", bots=2, bot_level="basic", deals=2)
    assert body["status"] == "playing"
    table = play_out(body["table"])
    assert table.game == "toy" and table.status == Table.Status.FINISHED


def test_people_join_a_toy_table_and_the_last_one_deals(ana, ben, cleo):  # noqa: F811
    body = create(ana, game="toy", deals=1)
    assert body["status"] == "waiting"
    assert join(ben, body["table"]).status_code == 200
    assert join(cleo, body["table"]).json()["status"] == "playing"
    assert play_out(body["table"]).status == Table.Status.FINISHED


def test_the_lobby_lists_a_waiting_toy_table(ana, ben):  # noqa: F811
    body = create(ana, game="toy", deals=1)
    listed = api(ben).get(TABLES).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert any(row["table"] == body["table"] and row["game"] == "toy" for row in rows)
