"""A friendly table of four for a three-player game (lobby-api.md's `seats`): the dealer sits
out each deal; people and bots as at any table; a bad size refused with a reason."""

from __future__ import annotations

import pytest

from gameplay.models import Seat, Table
from gameplay.services import lobby, matches
from games import catalogue

from .conftest import TABLES, api, create, join, play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.usefixtures("match_cache")
def test_two_people_and_two_bots_play_a_table_of_four_to_its_result(ana, ben):
    body = create(ana, game="schieberamsch", seats=4, bots=2, bot_level="basic")
    table = Table.objects.get(pk=body["table"])
    assert body["status"] == "waiting"
    assert table.n_deals == 4, "the default is everyone deals once: four deals"
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.user_id is not None, bool(s.bot)) for s in seats] == [
        (True, False),
        (False, False),
        (False, True),
        (False, True),
    ]
    assert join(ben, table.id).json()["seat"] == 1
    entry = api(ana).get(f"{TABLES}{table.id}/").json()
    assert entry["status"] == "playing" and len(entry["seats"]) == 4
    match = matches.load_match(Table.objects.get(pk=table.id))
    assert match.SEATS == 4 and match.sitter == 0
    finished = play_out(table.id)
    result = finished.result
    assert result["complete"] and len(result["deals"]) == 4
    assert [d["sitter"] for d in result["deals"]] == [0, 1, 2, 3]
    for deal in result["deals"]:
        assert deal["payouts"][deal["sitter"]] == 0 and sum(deal["payouts"]) == 0
    record = matches.table_record(table.id)
    assert [d["sitter"] for d in record["deals"]] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "saichugen", "seats": 5}, "played at a table of 3 or 4, not 5"),
        ({"game": "mediatore", "seats": 3}, "played at a table of 4, not 3"),
        ({"game": "saichugen", "seats": "4"}, "seats must be a whole number"),
        ({"game": "saichugen", "seats": 4, "deals": 6}, "multiple of 4"),
        ({"game": "saichugen", "seats": 4, "bots": 4}, "bots must be a whole number from 0 to 3"),
        ({"game": "three_five_eight", "seats": 4, "variant": {"woburn_bidding": True}}, "Woburn"),
    ],
)
def test_a_size_of_table_the_game_is_not_played_at_is_a_400(ana, body, says):
    response = api(ana).post(TABLES, body, format="json")
    assert response.status_code == 400
    assert says in response.json()["detail"]
    assert not Table.objects.exists()


def test_play_now_at_a_table_of_four_seats_three_bots(ana):
    joined = lobby.play_now(ana, "three_five_eight", "normal", seats=4)
    table = joined.table
    assert table.status == "playing" and table.n_deals == 4
    assert Seat.objects.filter(table=table).exclude(bot="").count() == 3
    assert matches.load_match(table).SEATS == 4


def test_the_play_now_form_asks_for_a_table_of_four(client, ana):
    client.force_login(ana)
    page = client.get("/play/")
    assert b'name="seats" value="4"' in page.content
    response = client.post(
        "/play/now/", {"game": "saichugen", "pace": "normal", "seats": "4"}, follow=False
    )
    assert response.status_code == 302
    table = Table.objects.get()
    assert Seat.objects.filter(table=table).count() == 4


def test_the_create_form_offers_the_size_only_where_the_game_has_two(client, ana):
    client.force_login(ana)
    form = {
        "game": "schieberamsch",
        "seats": "4",
        "bots": "3",
        "bot_level": "basic",
        "pace": "normal",
        "rated": "1",
        "spectators": "on",
        "deals": "8",
    }
    for flag, value in catalogue.game("schieberamsch").defaults.items():
        if value is not False:
            form[f"schieberamsch__{flag}"] = "on" if value is True else str(value)
    response = client.post("/play/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert (Seat.objects.filter(table=table).count(), table.n_deals) == (4, 8)
    response = client.post("/play/", {**form, "deals": "6"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "multiple of 4" in page
    assert Table.objects.count() == 1
    # The form shown again keeps the other games' rules at their defaults (their groups were
    # hidden, not sent): switching to 3-5-8 now is not refused for an empty field.
    assert 'name="three_five_eight__win_tricks" value="12"' in page
    again = {k: v for k, v in form.items() if not k.startswith("schieberamsch__")}
    chosen = {"win_tricks": "12", "targets": "8-5-3", "exchange_priority": "new_target"}
    chosen["kitty_mode"] = "discard_then_take"
    again.update({f"three_five_eight__{k}": v for k, v in chosen.items()}, game="three_five_eight")
    assert client.post("/play/", again).status_code == 302


def test_the_invitation_and_the_lobby_say_it_is_a_table_of_four(client, ana, ben):
    made = create(ana, game="saichugen", seats=4, bots=1)
    client.force_login(ben)
    invitation = client.get(f"/tables/{made['table']}/join/").content.decode()
    assert "table of four, the dealer sits out" in invitation
    assert "table of four, the dealer sits out" in client.get("/play/").content.decode()
    create(ana, game="mediatore", bots=1)  # four players, its own size: nobody sits out
    listed = client.get("/play/").content.decode()
    assert listed.count("table of four, the dealer sits out") == 1
