"""GET /api/tables/ and /api/tables/<id>/: what is listed to whom, the entry's shape, paging, no
token anywhere, and a constant number of queries."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.api import start_table
from gameplay.models import Table
from gameplay.services import lobby
from gameplay.services.create import SeatSpec, create_table

from .conftest import TABLES, api, contains_key, create, join

pytestmark = pytest.mark.django_db


def listed(user, status: str | None = None) -> list[str]:
    query = "" if status is None else f"?status={status}"
    response = api(user).get(f"{TABLES}{query}")
    assert response.status_code == 200, response.content
    return [e["table"] for e in response.json()["results"]]


def test_an_entry_has_exactly_the_specs_fields(ana, olga):
    made = create(ana, game="mediatore", bots=1, deals=2)
    response = api(olga).get(TABLES)
    body = response.json()
    assert set(body) == {"results", "next"} and body["next"] is None
    [entry] = body["results"]
    assert entry == {
        "table": made["table"],
        "game": "mediatore",
        "variant": {
            "slam": "add2",
            "signals": "lead_only",
            "signal_check": "strict",
            "chiamo_threes_only": False,
        },
        "deals": 2,
        # Additions of the paces (docs/lobby.md): the clock, and its pace's name if it has one.
        "seconds_per_move": 30,
        "pace": None,
        "rated": True,
        "status": "waiting",
        "seats": [
            {"seat": 0, "player": "ana", "bot": False, "guest": False},
            {"seat": 1, "player": None, "bot": False, "guest": False},
            {"seat": 2, "player": None, "bot": False, "guest": False},
            {"seat": 3, "player": "Basic bot 1", "bot": True, "guest": False},
        ],
        "open_seats": [1, 2],
        "created_at": entry["created_at"],
    }
    created = datetime.fromisoformat(entry["created_at"])
    assert created.utcoffset() is not None  # ISO 8601 with its offset
    assert created == Table.objects.get(pk=made["table"]).created_at


def test_waiting_lists_public_lobby_tables_with_an_open_seat_newest_first(ana, ben, olga):
    first = create(ana, game="saichugen")["table"]
    second = create(ben, game="saichugen")["table"]
    create(ana, game="saichugen", private=True)  # not listed: joined through its invitation
    create(ana, game="saichugen", bots=2, seconds_per_move=5)  # no open seat: playing
    # The operator's and the events' tables are never the lobby's.
    create_table("saichugen", [SeatSpec("x", bot="x"), SeatSpec(""), SeatSpec("")], rated=False)
    start_table("saichugen", seats=[ana.pk, "b1", "b2"])
    assert listed(olga) == listed(olga, "waiting") == [second, first]
    assert listed(None) == [second, first]  # anyone may read the lobby


def test_playing_and_finished_list_public_watchable_tables_and_your_own(ana, ben, cleo, olga):
    public = create(ana, game="saichugen")["table"]
    hidden = create(ana, game="saichugen", spectators=False)["table"]
    secret = create(ana, game="saichugen", private=True)["table"]
    for table_id in (public, hidden, secret):
        assert join(ben, table_id).status_code == 200
        assert join(cleo, table_id).json()["status"] == "playing"
    start_table("saichugen", seats=[ana.pk, "b1", "b2"])  # an event's table: never listed
    assert listed(None, "playing") == listed(olga, "playing") == [public]
    assert listed(ana, "playing") == listed(ben, "playing") == [secret, hidden, public]
    assert listed(ana, "finished") == [] and listed(olga, "waiting") == []


def test_another_status_is_a_400(olga):
    for status in ("cancelled", "all", ""):
        response = api(olga).get(f"{TABLES}?status={status}")
        assert response.status_code == 400 and "status" in response.json()["detail"]


def test_pages_follow_next_to_the_end(ana, olga, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 2}
    made = [create(ana, game="saichugen")["table"] for _ in range(5)]
    seen, url = [], TABLES
    while url:
        body = api(olga).get(url).json()
        seen += [e["table"] for e in body["results"]]
        url = body["next"]
    assert seen == made[::-1]
    assert api(olga).get(f"{TABLES}?page=0").status_code == 400
    assert api(olga).get(f"{TABLES}?page=x").status_code == 400
    assert api(olga).get(f"{TABLES}?page=99").json() == {"results": [], "next": None}


def test_no_list_or_entry_ever_holds_a_token_or_a_seed(ana, ben):
    made = create(ana, game="saichugen")
    join(ben, made["table"])
    for user in (ana, ben, None):
        for body in (
            api(user).get(TABLES).json(),
            api(user).get(f"{TABLES}{made['table']}/").json(),
        ):
            assert not contains_key(body, "token") and not contains_key(body, "seed")
            assert made["token"] not in str(body)


def test_the_detail_is_the_entry_plus_seq_and_result(ana, olga):
    made = create(ana, game="saichugen")
    detail = api(olga).get(f"{TABLES}{made['table']}/").json()
    [entry] = api(olga).get(TABLES).json()["results"]
    assert detail == {**entry, "seq": 0, "result": None, "rematch": None}


def test_a_table_without_spectators_is_a_404_to_anyone_not_seated(ana, olga):
    made = create(ana, game="saichugen", spectators=False)
    url = f"{TABLES}{made['table']}/"
    assert api(olga).get(url).status_code == 404
    assert api(None).get(url).status_code == 404
    assert api(ana).get(url).status_code == 200
    assert api(olga).get(f"{TABLES}nosuchtable/").status_code == 404
    assert api(olga).get(f"{TABLES}bad.id/").status_code == 404


def test_the_list_takes_a_constant_number_of_queries(ana, ben, olga, django_assert_max_num_queries):
    as_olga, anonymous = api(olga), api()

    def count_for(client) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(TABLES).status_code == 200
        return len(queries)

    create(ana, game="saichugen")
    few = count_for(as_olga)
    for _ in range(8):
        create(ana, game="mediatore", bots=1)
        create(ben, game="schieberamsch")
    assert count_for(as_olga) == few
    # The token's user, the expiry check, the page, its seats.
    with django_assert_max_num_queries(4):
        assert len(as_olga.get(TABLES).json()["results"]) == 17
    with django_assert_max_num_queries(3):
        anonymous.get(TABLES)
    with django_assert_max_num_queries(3):
        anonymous.get(f"{TABLES}?status=playing")
    with django_assert_max_num_queries(3):
        as_olga.get(f"{TABLES}?status=finished")


def test_list_tables_returns_a_queryset_the_pages_can_prefetch(ana):
    create(ana, game="saichugen")
    tables = lobby.list_tables(None, "waiting").prefetch_related("seats")
    assert [lobby.entry(t)["open_seats"] for t in tables] == [[1, 2]]
