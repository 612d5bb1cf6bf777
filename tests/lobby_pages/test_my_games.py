"""`/games/`: a player's running and finished tables with their result and links, nobody
else's, paginated with a constant number of queries; the player page and the header link it."""

from __future__ import annotations

import pytest

from gameplay.models import Table
from gameplay.services import lobby
from games import catalogue

from .conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)

MY_GAMES = "/games/"


def finished_table(owner, others, game="saichugen") -> Table:
    table = lobby.create_friendly(owner, game=game, deals=1, rated=False).table
    for who in others:
        lobby.join(who, table.id)
    return play_out(table)


def test_an_anonymous_visitor_is_asked_to_log_in(client, people):
    response = client.get(MY_GAMES)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=%2Fgames%2F"


def test_my_games_lists_my_running_and_finished_tables_and_not_others(client, people):
    ana, ben, cleo, olga = people
    done = finished_table(ana, [ben, cleo])
    running = lobby.create_friendly(ana, game="mediatore", bots=3).table
    waiting = lobby.create_friendly(ana, game="saichugen").table
    others = lobby.create_friendly(olga, game="saichugen", bots=2).table
    client.force_login(ana)
    response = client.get(MY_GAMES)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-table="{done.id}"' in html and f'data-table="{running.id}"' in html
    assert others.id not in html and waiting.id not in html
    assert f'href="/tables/{done.id}/replay/"' in html
    assert f'href="/tables/{running.id}/replay/"' not in html
    assert f'href="/tables/{running.id}/"' in html  # resume
    assert "Mediatore" in html and "Saichugen" in html
    rows = {r["table"].id: r for r in response.context["rows"]}
    assert [s.name for s in rows[done.id]["opponents"]] == ["ben", "cleo"]
    # ana's result is read from Table.result (score_record's shape)
    payouts = done.result["totals"]["payouts"]
    result = rows[done.id]["result"]
    assert result["payout"] == payouts[0]
    assert result["rank"] == 1 + sum(p > payouts[0] for p in payouts)
    assert result["won"] == (0 in done.result["winners"])
    assert rows[running.id]["result"] is None


def test_the_result_is_shown_from_the_viewers_own_seat(client, people):
    ana, ben, cleo, _ = people
    done = finished_table(ana, [ben, cleo])
    client.force_login(cleo)
    row = client.get(MY_GAMES).context["rows"][0]
    assert row["my_seat"] == 2
    assert row["result"]["payout"] == done.result["totals"]["payouts"][2]
    assert [s.name for s in row["opponents"]] == ["ana", "ben"]


def test_my_games_is_paginated_with_a_constant_number_of_queries(
    client, people, django_assert_max_num_queries, settings
):
    ana = people[0]
    for _ in range(2):
        lobby.create_friendly(ana, game="saichugen", bots=2)
    client.force_login(ana)
    # The header's unread-notices count, the rematch offers and the challenges to you.
    with django_assert_max_num_queries(9) as few:
        assert client.get(MY_GAMES).status_code == 200
    for game in ["mediatore", "schieberamsch", "three_five_eight"] * 9:
        lobby.create_friendly(ana, game=game, bots=catalogue.game(game).seats - 1)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(MY_GAMES)
    assert len(response.context["rows"]) == 25
    assert 'href="?page=2"' in response.content.decode()
    second = client.get(MY_GAMES, {"page": 2})
    assert len(second.context["rows"]) == 29 - 25


def test_the_header_links_play_and_my_games(client, people):
    html = client.get("/").content.decode()
    assert 'href="/play/"' in html and 'href="/games/"' not in html
    client.force_login(people[0])
    html = client.get("/").content.decode()
    assert 'href="/play/"' in html and 'href="/games/"' in html


def test_the_player_page_links_my_games_for_the_viewers_own_player(client, people):
    from league.services.players import player_for_user

    ana, ben, *_ = people
    player = player_for_user(ana)
    client.force_login(ana)
    assert 'href="/games/"' in _main(client.get(f"/players/{player.pk}/"))
    client.force_login(ben)
    assert 'href="/games/"' not in _main(client.get(f"/players/{player.pk}/"))


def _main(response) -> str:
    html = response.content.decode()
    return html[html.index("<main") :]
