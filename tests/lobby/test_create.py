"""POST /api/tables/: the defaults of lobby-api.md; every bad input refused, nothing made."""

from __future__ import annotations

import pytest

from gameplay.models import Seat, Table

from .conftest import TABLES, api, create

pytestmark = pytest.mark.django_db


def test_only_game_is_required_and_the_defaults_are_the_specs(ana):
    body = create(ana, game="schieberamsch")
    assert set(body) == {"table", "url", "seat", "token", "status", "invite"}
    table = Table.objects.get(pk=body["table"])
    assert body["url"] == f"/tables/{table.id}/"
    assert body["invite"] == f"/tables/{table.id}/join/"
    assert (body["seat"], body["status"]) == (0, "waiting")
    assert body["token"] == Seat.objects.get(table=table, number=0).token
    # deals = seats, no bots, rated with the 30 s clock, spectators on, public, the variant's
    # defaults; a lobby table, waiting, not dealt (no seed, no state).
    assert (table.n_deals, table.rated, table.seconds_per_move) == (3, True, 30)
    assert (table.allow_spectators, table.private, table.origin) == (True, False, "lobby")
    assert table.variant == {
        "score_divisor": 10,
        "grand_hand": True,
        "kontra_re": True,
        "grand_loss_factor": 1,
        "jacks_in_skat": False,
        "skat_to": "last_trick",
        "durchmarsch_pushes": True,
    }
    assert (table.status, table.seed, table.state, table.seq) == ("waiting", "", None, 0)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.user_id, s.bot) for s in seats] == [(ana.pk, ""), (None, ""), (None, "")]


def test_bots_fill_the_last_seats_and_the_seats_between_are_open(ana):
    body = create(ana, game="mediatore", bots=2, bot_level="random", deals=1)
    table = Table.objects.get(pk=body["table"])
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.user_id is not None, bool(s.bot), s.bot_level) for s in seats] == [
        (True, False, ""),
        (False, False, ""),
        (False, True, "random"),
        (False, True, "random"),
    ]
    assert len({s.bot for s in seats if s.bot}) == 2  # distinct bot players for the ratings
    # Random bots make the table casual, and a casual table has no clock by default.
    assert (table.rated, table.seconds_per_move, table.n_deals) == (False, 0, 1)


@pytest.mark.django_db(transaction=True)
def test_with_no_open_seat_the_table_starts_at_once(ana):
    body = create(ana, game="saichugen", bots=2, seconds_per_move=5, variant={"payout": "raw"})
    assert body["status"] == "playing"
    table = Table.objects.get(pk=body["table"])
    assert table.status == "playing" and len(table.seed) == 32 and table.state is not None
    assert table.variant["payout"] == "raw"


def test_casual_tables_default_to_no_clock_and_may_have_one(ana):
    casual = Table.objects.get(pk=create(ana, game="saichugen", rated=False)["table"])
    assert (casual.rated, casual.seconds_per_move) == (False, 0)
    timed = Table.objects.get(
        pk=create(ana, game="saichugen", rated=False, seconds_per_move=12)["table"]
    )
    assert timed.seconds_per_move == 12


def test_a_private_table_without_spectators(ana):
    table = Table.objects.get(
        pk=create(ana, game="saichugen", private=True, spectators=False)["table"]
    )
    assert (table.private, table.allow_spectators) == (True, False)


def test_nulls_take_the_defaults_where_the_default_is_none(ana):
    body = create(ana, game="saichugen", variant=None, deals=None, seconds_per_move=None)
    table = Table.objects.get(pk=body["table"])
    assert (table.n_deals, table.seconds_per_move) == (3, 30)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "skat"}, "Unknown game"),
        ({"game": 7}, "game"),
        ({}, "game is required"),
        ({"game": "saichugen", "variant": {"payout": "double"}}, "variant"),
        ({"game": "saichugen", "variant": {"no_such_flag": True}}, "no_such_flag"),
        ({"game": "saichugen", "variant": [1]}, "variant"),
        ({"game": "saichugen", "rated": True, "seconds_per_move": 0}, "clock"),
        ({"game": "saichugen", "seconds_per_move": 0}, "clock"),
        ({"game": "saichugen", "seconds_per_move": -1}, "seconds_per_move"),
        ({"game": "saichugen", "seconds_per_move": 10**6}, "seconds_per_move"),
        ({"game": "saichugen", "seconds_per_move": "30"}, "seconds_per_move"),
        ({"game": "saichugen", "bots": 3}, "bots"),
        ({"game": "mediatore", "bots": 4}, "bots"),
        ({"game": "saichugen", "bots": -1}, "bots"),
        ({"game": "saichugen", "bots": True}, "bots"),
        ({"game": "saichugen", "bots": 1, "bot_level": "genius"}, "bot_level"),
        ({"game": "saichugen", "bot_level": "genius"}, "bot_level"),
        ({"game": "saichugen", "bots": 1, "bot_level": None}, "bot_level"),
        ({"game": "saichugen", "deals": 0}, "deals"),
        ({"game": "saichugen", "deals": 1000}, "deals"),
        ({"game": "saichugen", "deals": 2.5}, "deals"),
        ({"game": "saichugen", "rated": "yes"}, "rated"),
        ({"game": "saichugen", "spectators": 1}, "spectators"),
        ({"game": "saichugen", "private": None}, "private"),
    ],
)
def test_bad_input_is_a_400_that_says_why_and_makes_nothing(ana, body, says):
    response = api(ana).post(TABLES, body, format="json")
    assert response.status_code == 400, response.content
    assert says in response.json()["detail"]
    assert not Table.objects.exists() and not Seat.objects.exists()


@pytest.mark.parametrize(
    "raw", [b"[1, 2]", b'"schieberamsch"', b"{not json", b"[" * 5000 + b"]" * 5000]
)
def test_a_body_that_is_not_an_object_is_a_400(ana, raw):
    response = api(ana).post(TABLES, raw, content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()
    assert not Table.objects.exists()


def test_creating_needs_credentials(ana):
    response = api().post(TABLES, {"game": "saichugen"}, format="json")
    assert response.status_code == 401 and "detail" in response.json()
    wrong = api()
    wrong.credentials(HTTP_AUTHORIZATION="Token not-a-key")
    assert wrong.post(TABLES, {"game": "saichugen"}, format="json").status_code == 401
    assert not Table.objects.exists()


def test_the_session_works_as_well(client, ana):
    client.force_login(ana)
    response = client.post(TABLES, {"game": "saichugen"}, content_type="application/json")
    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"  # it carries the seat token
