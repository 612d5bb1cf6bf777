"""Joining and leaving: the lowest open seat, your own seat again, 409s, tokens replaced, the
last person cancelling, and resigning a running table (a bot plays the seat out)."""

from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command

from gameplay.api import start_table
from gameplay.models import Action, Seat, Table
from gameplay.services import identity, lobby, matches, play
from games.core.bots.common import expand_random

from .conftest import TABLES, api, create, join, leave, play_out

pytestmark = pytest.mark.django_db


def seat_token(table_id: str, number: int) -> str:
    return Seat.objects.get(table_id=table_id, number=number).token


def test_joining_takes_the_lowest_open_seat_and_the_last_one_deals(ana, ben, cleo):
    made = create(ana, game="mediatore", bots=1)
    table_id = made["table"]
    first = join(ben, table_id)
    assert first.status_code == 200
    assert first.json() == {
        "table": table_id,
        "seat": 1,
        "token": seat_token(table_id, 1),
        "status": "waiting",
    }
    assert first["Cache-Control"] == "no-store"
    table = Table.objects.get(pk=table_id)
    assert (table.status, table.seed, table.state) == ("waiting", "", None)  # nothing dealt
    last = join(cleo, table_id).json()
    assert (last["seat"], last["status"]) == (2, "playing")
    table.refresh_from_db()
    assert table.status == "playing" and len(table.seed) == 32
    match = matches.load_match(table)
    assert match.players == ["ana", "ben", "cleo", "Basic bot 1"]
    # Every seat's token is its owner's on the table socket (table-protocol.md).
    for number, token in enumerate([made["token"], first.json()["token"], last["token"]]):
        assert identity.identify(table_id, token, None).seat == number


def test_a_seated_person_gets_their_own_seat_again_whatever_the_status(ana, ben):
    made = create(ana, game="saichugen", bots=1)
    again = join(ana, made["table"]).json()
    assert (again["seat"], again["token"], again["status"]) == (0, made["token"], "waiting")
    join(ben, made["table"])
    again = join(ana, made["table"]).json()
    assert (again["seat"], again["token"], again["status"]) == (0, made["token"], "playing")


def test_a_full_or_started_table_is_a_409(ana, ben, cleo, olga):
    made = create(ana, game="saichugen")
    join(ben, made["table"])
    join(cleo, made["table"])
    response = join(olga, made["table"])
    assert response.status_code == 409 and "waiting" in response.json()["detail"]
    full = create(ana, game="saichugen", bots=2)  # started at once
    assert join(olga, full["table"]).status_code == 409


def test_a_cancelled_or_unknown_table_cannot_be_joined(ana, olga):
    made = create(ana, game="saichugen")
    leave(ana, made["table"])
    assert join(olga, made["table"]).status_code == 409
    assert join(olga, "nosuchtable").status_code == 404


def test_joining_and_leaving_need_credentials(ana):
    made = create(ana, game="saichugen")
    for path in ("join", "leave"):
        response = api().post(f"{TABLES}{made['table']}/{path}/")
        assert response.status_code == 401 and "detail" in response.json()
    assert Seat.objects.filter(table_id=made["table"], user__isnull=False).count() == 1


def test_someone_not_seated_cannot_leave(ana, olga):
    made = create(ana, game="saichugen")
    response = leave(olga, made["table"])
    assert response.status_code == 403 and "detail" in response.json()
    assert Table.objects.get(pk=made["table"]).status == "waiting"


def test_leaving_a_waiting_table_opens_the_seat_with_a_new_token(ana, ben, cleo):
    made = create(ana, game="saichugen")
    bens = join(ben, made["table"]).json()
    response = leave(ben, made["table"])
    assert response.status_code == 200
    assert response.json()["status"] == "waiting" and response.json()["open_seats"] == [1, 2]
    seat = Seat.objects.get(table_id=made["table"], number=1)
    assert (seat.user_id, seat.name) == (None, "")
    assert seat.token != bens["token"]
    assert identity.identify(made["table"], bens["token"], None) is None  # refused now
    # The seat goes to the next person who joins, with a token of its own.
    cleos = join(cleo, made["table"]).json()
    assert cleos["seat"] == 1 and cleos["token"] not in (bens["token"], seat.token)


def test_when_the_last_person_leaves_the_table_is_cancelled(ana, ben, olga):
    made = create(ana, game="mediatore", bots=1)
    join(ben, made["table"])
    assert leave(ben, made["table"]).json()["status"] == "waiting"  # ana is still there
    assert leave(ana, made["table"]).json()["status"] == "cancelled"
    assert Table.objects.get(pk=made["table"]).status == "cancelled"
    assert api(olga).get(TABLES).json()["results"] == []
    assert leave(ana, made["table"]).status_code == 403  # nobody sits there any more


def test_leaving_a_finished_table_is_a_409(ana):
    made = create(ana, game="saichugen", bots=2, rated=False)
    Table.objects.filter(pk=made["table"]).update(status="finished")
    assert leave(ana, made["table"]).status_code == 409


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("match_cache")
def test_a_whole_life_two_people_one_resigns_and_a_bot_plays_the_seat_out(ana, ben):
    made = create(ana, game="three_five_eight", bots=1, deals=1, rated=False)
    joined = join(ben, made["table"]).json()
    assert joined["status"] == "playing"
    table_id = made["table"]
    # Both seats' tokens work at the table, and each is its own.
    assert identity.identify(table_id, made["token"], None).seat == 0
    assert identity.identify(table_id, joined["token"], None).seat == 1
    # A few moves by the people, then ben resigns.
    table = Table.objects.get(pk=table_id)
    for _ in range(3):
        table.refresh_from_db()
        match = matches.load_match(table)
        seat = next(s for s in match.to_act() if s in (0, 1))
        action = expand_random(match.legal(seat)[0], random.Random(0))
        play.play_action(table_id, seat, action, table.seq)
    response = leave(ben, table_id)
    assert response.status_code == 200 and response.json()["status"] == "playing"
    seat = Seat.objects.get(table_id=table_id, number=1)
    assert (seat.user_id, seat.resigned_user_id, seat.bot_level) == (None, ben.pk, "basic")
    assert seat.token != joined["token"]
    assert identity.identify(table_id, joined["token"], None) is None
    assert Table.objects.get(pk=table_id).forfeited_seats == [1]
    # His seat is now played by the bot; nobody may act for it as a person.
    assert join(ben, table_id).status_code == 409
    finished = play_out(table_id)
    assert finished.status == "finished"
    assert finished.result["forfeited"] == [1]
    assert finished.result["complete"] is True
    assert Action.objects.filter(table_id=table_id, seat=1, kind="bot").exists()
    # ben still finds it among his tables, and the detail shows its result.
    assert table_id in [t.id for t in lobby.my_tables(ben)]
    detail = api(ben).get(f"{TABLES}{table_id}/").json()
    assert detail["result"] == finished.result and detail["status"] == "finished"


@pytest.mark.django_db(transaction=True)
def test_resigning_when_it_is_your_turn_lets_the_bot_move_at_once(ana):
    made = create(ana, game="saichugen", bots=2, deals=1, rated=False)
    table = Table.objects.get(pk=made["table"])
    assert 0 in matches.load_match(table).to_act()
    leave(ana, made["table"])
    table.refresh_from_db()
    # Everyone is a bot now: they play the match to its end, inline in the tests.
    assert table.status == "finished" and table.result["forfeited"] == [0]


def test_an_events_table_cannot_be_left_or_joined_from_the_lobby(ana, olga):
    table_id = start_table("saichugen", seats=[ana.pk, "b1", "b2"])
    assert leave(ana, table_id).status_code == 409
    assert Table.objects.get(pk=table_id).forfeited_seats == []
    assert join(olga, table_id).status_code == 409
    assert join(ana, table_id).json()["seat"] == 0  # her own seat, as anywhere


def test_a_waiting_table_has_no_record_to_export(ana):
    made = create(ana, game="saichugen")
    with pytest.raises(CommandError, match="not been dealt"):
        call_command("export_record", "--table", made["table"])
