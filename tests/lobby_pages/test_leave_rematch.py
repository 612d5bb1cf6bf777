"""Leave (a waiting table's seat opens again; the last person out cancels it), resign (after a
"Resign?" confirmation; a bot plays the seat out) and rematch, through their pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay.models import Seat, Table
from gameplay.services import lobby
from tests.language import text

from .conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def leave_url(table: Table) -> str:
    return f"/tables/{table.id}/leave/"


def test_leaving_a_waiting_table_opens_the_seat_and_replaces_its_token(client, people):
    ana, ben, *_ = people
    table = lobby.create_friendly(ana, game="saichugen").table
    lobby.join(ben, table.id)
    old = Seat.objects.get(table=table, user=ben).token
    client.force_login(ben)
    response = client.post(leave_url(table))
    assert response.status_code == 302 and response["Location"] == "/play/"
    seat = Seat.objects.get(table=table, number=1)
    assert seat.user_id is None and seat.token != old
    table.refresh_from_db()
    assert table.status == "waiting"
    messages = [str(m) for m in client.get("/play/").context["messages"]]
    assert text("You left the table; your seat is open again.") in messages


def test_the_last_person_to_leave_cancels_the_table(client, people):
    ana = people[0]
    table = lobby.create_friendly(ana, game="saichugen").table
    client.force_login(ana)
    client.post(leave_url(table))
    table.refresh_from_db()
    assert table.status == "cancelled"
    page = client.get(f"/tables/{table.id}/").content.decode()
    cancelled = text("This table was cancelled: everyone left, or it waited too long for players.")
    assert cancelled in page


def test_leaving_a_running_game_asks_resign_first_and_changes_nothing(client, people):
    ana = people[0]
    table = lobby.create_friendly(ana, game="saichugen", bots=2).table
    client.force_login(ana)
    for response in (client.get(leave_url(table)), client.post(leave_url(table))):
        assert response.status_code == 200
        html = response.content.decode()
        assert text("Resign?") in html and 'name="confirm" value="resign"' in html
    seat = Seat.objects.get(table=table, number=0)
    assert seat.user_id == ana.pk and not seat.bot


def test_confirming_resigns_and_a_bot_plays_the_seat_out(client, people):
    ana = people[0]
    table = lobby.create_friendly(ana, game="saichugen", bots=2).table
    client.force_login(ana)
    response = client.post(leave_url(table), {"confirm": "resign"})
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.id}/"
    seat = Seat.objects.get(table=table, number=0)
    assert seat.bot and seat.user_id is None and seat.resigned_user_id == ana.pk
    table.refresh_from_db()
    assert 0 in table.forfeited_seats


def test_someone_not_seated_cannot_leave_and_gets_a_message(client, people):
    ana, ben, *_ = people
    table = lobby.create_friendly(ana, game="saichugen").table
    client.force_login(ben)
    response = client.post(leave_url(table), follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert Seat.objects.get(table=table, number=0).user_id == ana.pk


def test_leave_and_rematch_need_an_account(client, people):
    table = lobby.create_friendly(people[0], game="saichugen").table
    for url in (leave_url(table), f"/tables/{table.id}/rematch/"):
        response = client.post(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
    assert Seat.objects.get(table=table, number=0).user_id == people[0].pk
    assert Table.objects.count() == 1


@pytest.fixture
def finished(people) -> Table:
    ana, ben, cleo, _ = people
    table = lobby.create_friendly(ana, game="saichugen", deals=1, rated=False).table
    lobby.join(ben, table.id)
    lobby.join(cleo, table.id)
    return play_out(table)


def test_the_finished_table_page_offers_a_rematch_to_its_players_only(client, people, finished):
    ana, *_, olga = people
    client.force_login(ana)
    html = client.get(f"/tables/{finished.id}/").content.decode()
    assert f'action="/tables/{finished.id}/rematch/"' in html
    client.force_login(olga)
    html = client.get(f"/tables/{finished.id}/").content.decode()
    assert "/rematch/" not in html


def test_a_rematch_makes_a_new_table_for_the_same_players(client, people, finished):
    ana, ben, cleo, _ = people
    client.force_login(ana)
    response = client.post(f"/tables/{finished.id}/rematch/")
    new = Table.objects.exclude(pk=finished.pk).get()
    assert response.status_code == 302
    assert response["Location"] in (f"/tables/{new.id}/", f"/tables/{new.id}/join/")
    assert "token" not in response["Location"]
    assert new.game == finished.game and new.n_deals == finished.n_deals
    seated = {s.user_id or s.reserved_for_id for s in new.seats.all()}
    assert seated == {ana.pk, ben.pk, cleo.pk}


def test_a_rematch_by_someone_who_did_not_play_is_refused(client, people, finished):
    client.force_login(people[3])
    response = client.post(f"/tables/{finished.id}/rematch/", follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert Table.objects.count() == 1


def test_a_rematch_of_a_running_table_is_refused(client, people):
    table = lobby.create_friendly(people[0], game="saichugen", bots=2).table
    client.force_login(people[0])
    response = client.post(f"/tables/{table.id}/rematch/", follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert Table.objects.count() == 1


def test_there_is_nothing_to_leave_at_a_finished_table(client, people, finished):
    client.force_login(people[0])
    response = client.get(leave_url(finished), follow=True)
    assert response.redirect_chain[-1][0] == f"/tables/{finished.id}/"
    left = text("This table is over; there is nothing to leave.")
    assert left in [str(m) for m in response.context["messages"]]
    response = client.post(leave_url(finished), {"confirm": "resign"}, follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert finished.seats.get(number=0).user_id == people[0].pk


def test_my_games_offers_to_watch_not_resume_a_table_one_resigned(client, people):
    ana, ben, *_ = people
    table = lobby.create_friendly(ana, game="saichugen", bots=1).table
    lobby.join(ben, table.id)
    client.force_login(ana)
    client.post(leave_url(table), {"confirm": "resign"})
    table.refresh_from_db()
    assert table.status == "playing"  # ben still plays
    links = _links_of(client, table)
    assert "Watch" in links and "Resume" not in links
    client.force_login(ben)
    assert "Resume" in _links_of(client, table)


def _links_of(client, table) -> str:
    """The links cell of a table's row in My games."""
    page = client.get(reverse("gameplay:my-games")).content.decode()
    row = page.split(f'data-table="{table.id}"')[-1]
    return row.split('class="links"')[1].split("</td>")[0]
