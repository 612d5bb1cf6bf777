"""The lobby page `/play/`: the create form for every game (variant flags from the registry),
its errors, and the lists of open tables and one's own waiting tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay.models import Seat, Table
from gameplay.services import lobby
from games import catalogue
from tests.language import text

from .conftest import SHARE
from .forms import flipped_variant, form_data

pytestmark = pytest.mark.django_db(transaction=True)

PLAY = "/play/"
GAMES = [g.name for g in catalogue.games()]


def test_the_url_names_of_the_interface_resolve():
    assert reverse("gameplay:play") == PLAY
    assert reverse("gameplay:my-games") == "/games/"
    assert reverse("gameplay:join", args=["abc"]) == "/tables/abc/join/"
    assert reverse("gameplay:leave", args=["abc"]) == "/tables/abc/leave/"
    assert reverse("gameplay:rematch", args=["abc"]) == "/tables/abc/rematch/"


def test_an_anonymous_visitor_sees_the_open_tables_and_a_prompt_instead_of_the_form(client, people):
    ana = people[0]
    open_table = lobby.create_friendly(ana, game="saichugen").table
    response = client.get(PLAY)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="sign-in-prompt"' in html
    assert 'id="create-form"' not in html
    assert f'action="/tables/{open_table.id}/join/"' in html  # its Join button
    assert "ana" in html


def test_an_anonymous_post_creates_nothing_and_asks_to_log_in(client, people):
    response = client.post(PLAY, form_data("saichugen"))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=%2Fplay%2F"
    assert not Table.objects.exists()


def test_the_form_offers_every_game_with_its_own_flags_and_bot_levels(client, people):
    client.force_login(people[0])
    html = client.get(PLAY).content.decode()
    assert 'id="create-form"' in html
    for info in catalogue.games():
        assert f'<option value="{info.name}"' in html
        assert f'data-game="{info.name}" data-seats="{info.seats}"' in html
        for flag in info.variant_schema:
            assert f'name="{info.name}__{flag["name"]}"' in html
    assert '<option value="random"' in html and '<option value="basic"' in html


@pytest.mark.parametrize("game", GAMES)
def test_the_form_creates_a_started_table_with_every_flag_round_tripped(client, people, game):
    ana = people[0]
    info = catalogue.game(game)
    variant = flipped_variant(game)
    client.force_login(ana)
    data = form_data(
        game,
        variant,
        deals=2,
        seconds_per_move=45,
        bots=info.seats - 1,
        bot_level="random",
        rated="0",
        spectators=None,  # unchecked
        private="on",
    )
    response = client.post(PLAY, data)
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{table.id}/"  # no open seat: it started
    assert "token" not in response["Location"]
    assert table.status == "playing"
    assert catalogue.validate_variant(game, table.variant) == variant
    assert all(type(table.variant[k]) is type(v) for k, v in variant.items())
    assert (table.n_deals, table.seconds_per_move) == (2, 45)
    assert (table.rated, table.allow_spectators, table.private) == (False, False, True)
    seats = list(table.seats.order_by("number"))
    assert seats[0].user_id == ana.pk
    assert [s.bot_level for s in seats[1:]] == ["random"] * (info.seats - 1)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_with_open_seats_waits_and_the_creator_lands_on_its_invitation(
    client, people, game
):
    ana = people[0]
    info = catalogue.game(game)
    defaults = {f["name"]: f["default"] for f in info.variant_schema}
    client.force_login(ana)
    response = client.post(PLAY, form_data(game, defaults, bots=1))
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{table.id}/join/"
    assert table.status == "waiting"
    assert catalogue.validate_variant(game, table.variant) == defaults
    assert (table.n_deals, table.rated, table.allow_spectators) == (info.seats, True, True)
    seats = list(table.seats.order_by("number"))
    assert [s.is_open for s in seats] == [False] + [True] * (info.seats - 2) + [False]
    assert seats[-1].bot and seats[-1].bot_level == "basic"
    page = client.get(response["Location"]).content.decode()
    assert text(SHARE) in page
    assert f"http://testserver/tables/{table.id}/join/" in page
    for seat in seats:
        assert seat.token not in page


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"bots": 3}, "bots"),  # a three-seat game has at most two bots
        ({"bots": -1}, "bots"),
        ({"deals": 0}, "deals"),
        ({"deals": "many"}, "deals"),
        ({"seconds_per_move": -5}, "seconds_per_move"),
        ({"bot_level": "grandmaster", "bots": 1}, "bot_level"),
        ({"saichugen__payout": "everything"}, "saichugen__payout"),
        ({"rated": "maybe"}, "rated"),
    ],
)
def test_bad_input_shows_the_error_on_its_field_and_creates_nothing(client, people, change, field):
    client.force_login(people[0])
    data = form_data("saichugen", {"payout": "zero_sum"})
    data.update({k: str(v) for k, v in change.items()})
    response = client.post(PLAY, data)
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert 'class="errorlist' in response.content.decode()
    assert not Table.objects.exists()


def test_a_bad_flag_of_another_game_does_not_block_the_chosen_one(client, people):
    client.force_login(people[0])
    data = form_data("saichugen", {"payout": "raw"}, bots=2)
    data["mediatore__slam"] = "nonsense"  # a hidden group's leftovers
    response = client.post(PLAY, data)
    assert response.status_code == 302
    assert Table.objects.get().variant["payout"] == "raw"


def test_an_error_of_the_service_is_shown_on_the_form_and_creates_nothing(client, people):
    client.force_login(people[0])
    # A rated table needs a clock: lobby-api.md makes that a 400.
    response = client.post(PLAY, form_data("saichugen", {"payout": "raw"}, seconds_per_move=0))
    assert response.status_code == 400
    assert response.context["form"].non_field_errors()
    assert not Table.objects.exists()


def test_the_lobby_lists_open_tables_with_join_and_ones_own_waiting_tables_with_leave(
    client, people
):
    ana, ben, cleo, _ = people
    bens = lobby.create_friendly(ben, game="saichugen").table
    private = lobby.create_friendly(cleo, game="saichugen", private=True).table
    started = lobby.create_friendly(cleo, game="saichugen", bots=2).table
    anas = lobby.create_friendly(ana, game="mediatore", bots=1).table
    client.force_login(ana)
    html = client.get(PLAY).content.decode()
    open_part = html[html.index('id="open-tables"') :]
    mine_part = html[html.index('id="my-waiting"') : html.index('id="open-tables"')]
    assert f'action="/tables/{bens.id}/join/"' in open_part
    assert private.id not in html and started.id not in html
    assert f'action="/tables/{anas.id}/leave/"' in mine_part
    assert f'href="/tables/{anas.id}/join/"' in mine_part  # its invitation
    assert bens.id not in mine_part
    assert anas.id not in open_part  # one's own tables are listed once, with Leave
    for seat in Seat.objects.filter(table__in=[bens, anas]):
        assert seat.token not in html  # no seat token on the page


def _make_open_tables(n: int, owners) -> None:
    for i in range(n):
        lobby.create_friendly(owners[i % len(owners)], game=GAMES[i % len(GAMES)], bots=1)


def test_the_lobby_page_makes_a_constant_number_of_queries(
    client, people, django_assert_max_num_queries
):
    ana, ben, cleo, olga = people
    _make_open_tables(2, [ben, ana])
    client.force_login(ana)
    with django_assert_max_num_queries(12) as few:  # + open seeks, your challenges
        assert client.get(PLAY).status_code == 200
    _make_open_tables(12, [ben, cleo, ana, olga])
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = client.get(PLAY).content.decode()
    assert html.count("table-row") >= 12
    client.logout()
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(PLAY).status_code == 200


def test_the_lobby_leads_back_to_ones_games_in_play(client, people):
    """Someone who left a running table (Back, the lobby link) finds the way back on /play/."""
    ana, ben, *_ = people
    playing = lobby.create_friendly(ana, game="saichugen", bots=2).table
    waiting = lobby.create_friendly(ana, game="mediatore", bots=1).table
    client.force_login(ana)
    html = client.get(PLAY).content.decode()
    back = html[html.index('id="my-playing"') : html.index('id="my-waiting"')]
    assert f'href="/tables/{playing.id}/"' in back and waiting.id not in back
    client.force_login(ben)
    assert 'id="my-playing"' not in client.get(PLAY).content.decode()
