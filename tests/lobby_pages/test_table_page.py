"""The table page's lobby parts: a waiting table shows its waiting state, invitation and Leave
instead of an empty table; a running lobby table offers its players Resign; a finished one
Rematch, or the rematch already waiting."""

from __future__ import annotations

import pytest

from gameplay.models import Table
from gameplay.services import lobby
from tests.language import text, text_plural

from .conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def page(client, table: Table) -> str:
    response = client.get(f"/tables/{table.id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_waiting_table_shows_its_invitation_and_leave_to_the_seated(client, people):
    ana = people[0]
    table = lobby.create_friendly(ana, game="mediatore", bots=1).table
    client.force_login(ana)
    html = page(client, table)
    waiting = text_plural(
        "Waiting for players: %(n)s seat is open. The game starts when it is taken.",
        "Waiting for players: %(n)s seats are open. The game starts when they are taken.",
        2,
    )
    assert 'id="waiting-table"' in html and waiting in html
    assert f'value="http://testserver/tables/{table.id}/join/"' in html
    assert f'action="/tables/{table.id}/leave/"' in html
    assert f'data-watch-table="{table.id}" data-empty="2"' in html  # reloads when it starts
    assert "js/table.js" not in html and "table-config" not in html
    for seat in table.seats.all():
        assert seat.token not in html


def test_a_waiting_table_sends_others_to_its_invitation(client, people):
    table = lobby.create_friendly(people[0], game="saichugen", spectators=False).table
    for who in (None, people[3]):
        if who:
            client.force_login(who)
        html = page(client, table)
        assert f'href="/tables/{table.id}/join/"' in html
        assert "/leave/" not in html and 'id="invite-url"' not in html


def test_a_running_lobby_table_offers_resign_to_its_player_only(client, people):
    ana, *_, olga = people
    table = lobby.create_friendly(ana, game="saichugen", bots=2).table
    client.force_login(ana)
    html = page(client, table)
    assert 'id="table-app"' in html
    assert f'href="/tables/{table.id}/leave/"' in html
    assert 'id="rematch-form"' in html  # hidden until the match is over
    client.force_login(olga)
    html = page(client, table)
    assert "/leave/" not in html and "/rematch/" not in html


def test_the_other_players_find_the_rematch_that_is_waiting_for_them(client, people):
    ana, ben, cleo, _ = people
    table = lobby.create_friendly(ana, game="saichugen", deals=1, rated=False).table
    lobby.join(ben, table.id)
    lobby.join(cleo, table.id)
    play_out(table)
    new = lobby.rematch(ana, table.id).table
    client.force_login(ben)
    html = page(client, table)
    # The offer: who made it, Accept (join its table) and Decline.
    assert f'action="/tables/{new.id}/join/"' in html and 'id="rematch-form"' not in html
    assert f'action="/tables/{new.id}/decline/"' in html
    assert text("%(by)s offers a rematch.") % {"by": "ana"} in html
    response = client.post(f"/tables/{new.id}/join/")
    assert response["Location"] == f"/tables/{new.id}/"
    new.refresh_from_db()
    assert new.status == "waiting"  # cleo's seat is still kept for her
    client.force_login(cleo)
    client.post(f"/tables/{table.id}/rematch/")  # her own Rematch joins the same new table
    new.refresh_from_db()
    assert new.status == "playing"
    assert Table.objects.count() == 2
