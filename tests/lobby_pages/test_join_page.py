"""The invitation page `/tables/<id>/join/`: what it shows, joining by POST under the session
(no token in any link), the table starting when its last seat is taken, and the states in which
there is nothing to join."""

from __future__ import annotations

import pytest

from gameplay.models import Seat, Table
from gameplay.services import lobby
from tests.language import text, text_plural

from .conftest import SHARE, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def join_url(table: Table) -> str:
    return f"/tables/{table.id}/join/"


def tokens(table: Table) -> list[str]:
    return list(Seat.objects.filter(table=table).values_list("token", flat=True))


@pytest.fixture
def waiting(people) -> Table:
    """ana's Saichugen table: ana at seat 0, seat 1 open, a bot at seat 2."""
    return lobby.create_friendly(people[0], game="saichugen", bots=1, deals=2).table


def test_anyone_sees_the_game_its_settings_the_seats_and_a_join_button(client, waiting):
    response = client.get(join_url(waiting))
    assert response.status_code == 200
    html = response.content.decode()
    deals = text_plural("%(deals)s deal", "%(deals)s deals", 2, deals=2)
    assert "Saichugen" in html and deals in html and text("%(s)s s a move", s=30) in html
    assert "ana" in html and text("open seat") in html
    assert f'<form method="post" action="{join_url(waiting)}" id="join-form">' in html
    assert text("Join this table") in html
    for token in tokens(waiting):
        assert token not in html


def test_an_anonymous_join_offers_a_guest_seat_or_the_log_in_and_back(client, waiting):
    """docs/accounts.md, "Guests": the choice page; logging in comes back to the invitation."""
    response = client.post(join_url(waiting))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="as_guest"' in html
    assert f"/accounts/login/?next=%2Ftables%2F{waiting.id}%2Fjoin%2F" in html
    assert Seat.objects.filter(table=waiting, user__isnull=True, bot="").count() == 1


def test_the_second_account_joins_by_post_and_the_full_table_starts(client, people, waiting):
    ben = people[1]
    client.force_login(ben)
    response = client.post(join_url(waiting))
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{waiting.id}/"  # the session finds the seat
    waiting.refresh_from_db()
    assert waiting.status == "playing"
    assert Seat.objects.get(table=waiting, number=1).user_id == ben.pk
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["viewer_seat"] == 1


def test_a_table_with_two_open_seats_starts_only_with_the_last_one(client, people):
    ana, ben, cleo, _ = people
    table = lobby.create_friendly(ana, game="saichugen").table
    client.force_login(ben)
    client.post(join_url(table))
    table.refresh_from_db()
    assert table.status == "waiting"
    page = client.get(join_url(table)).content.decode()
    seated = text("You are seated at this table. It starts when every seat is taken.")
    assert seated in page and text(SHARE) in page
    client.force_login(cleo)
    assert client.post(join_url(table))["Location"] == f"/tables/{table.id}/"
    table.refresh_from_db()
    assert table.status == "playing"


def test_joining_a_full_table_is_a_409_with_a_message_and_no_seat(client, people, waiting):
    _, ben, cleo, _ = people
    lobby.join(ben, waiting.id)
    client.force_login(cleo)
    response = client.post(join_url(waiting))
    assert response.status_code == 409
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert not Seat.objects.filter(table=waiting, user=cleo).exists()
    html = response.content.decode()
    assert text("This table has started: its seats are taken.") in html
    assert f'href="/tables/{waiting.id}/"' in html  # spectators allowed: watch it


def test_a_seated_player_joining_again_gets_their_own_seat(client, people, waiting):
    client.force_login(people[0])
    response = client.post(join_url(waiting))
    assert response["Location"] == f"/tables/{waiting.id}/"
    assert Seat.objects.filter(table=waiting, user=people[0]).count() == 1


def test_a_started_table_without_spectators_shows_no_seats_and_no_watch_link(client, people):
    ana, ben, _, olga = people
    table = lobby.create_friendly(ana, game="saichugen", bots=1, spectators=False).table
    lobby.join(ben, table.id)
    client.force_login(olga)
    html = client.get(join_url(table)).content.decode()
    assert text("This table has started: its seats are taken.") in html
    assert "ben" not in html
    assert f'href="/tables/{table.id}/"' not in html


def test_a_cancelled_and_a_finished_table_say_so(client, people):
    ana, ben, cleo, olga = people
    cancelled = lobby.create_friendly(ana, game="saichugen").table
    lobby.leave(ana, cancelled.id)
    html = client.get(join_url(cancelled)).content.decode()
    cancelled_text = text(
        "This table was cancelled: everyone left, or it waited too long for players."
    )
    assert cancelled_text in html and text("Join this table") not in html
    finished = lobby.create_friendly(ana, game="saichugen").table
    lobby.join(ben, finished.id)
    lobby.join(cleo, finished.id)
    play_out(finished)
    html = client.get(join_url(finished)).content.decode()
    assert text("This table has finished.") in html and text("Join this table") not in html
    client.force_login(olga)
    assert client.post(join_url(finished)).status_code == 409


def test_an_unknown_table_is_a_404(client, people):
    assert client.get("/tables/nosuchtable/join/").status_code == 404
    client.force_login(people[0])
    assert client.post("/tables/nosuchtable/join/").status_code == 404
