"""Whatever the lobby socket says can be read over HTTP (docs/lobby.md, "Live"): the rematch
offers waiting for a person (`GET /api/tables/offers/`), a finished table's `rematch`, offering
and declining a rematch (`POST /api/tables/<id>/rematch/`, `/decline/`); and the pages: the
offer on My games and on the rematch's invitation, Decline, the invitation's seat count."""

from __future__ import annotations

import pytest

from gameplay.models import Table
from gameplay.services import lobby
from tests.language import text
from tests.lobby.conftest import TABLES, api, contains_key

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_offers_list_shows_the_rematches_waiting_for_you(finished, ana, ben, cleo, olga):
    made = api(ana).post(f"{TABLES}{finished.id}/rematch/")
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    new_id = made.json()["table"]
    assert made.json()["status"] == "waiting" and made.json()["seat"] == 0  # her own seat
    offers = api(ben).get(f"{TABLES}offers/").json()
    [offer] = offers["results"]
    assert (offer["table"], offer["of"], offer["by"], offer["status"]) == (
        new_id,
        finished.id,
        ["ana"],
        "waiting",
    )
    assert offer["seat"] == 1 and offers["next"] is None  # kept for ben
    assert not contains_key(offers, "token")
    assert api(olga).get(f"{TABLES}offers/").json()["results"] == []
    assert api().get(f"{TABLES}offers/").status_code in (401, 403)
    # The finished table names its rematch; once declined, it names none.
    assert api(cleo).get(f"{TABLES}{finished.id}/").json()["rematch"] == new_id
    declined = api(cleo).post(f"{TABLES}{new_id}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "cancelled"
    assert api(cleo).get(f"{TABLES}{finished.id}/").json()["rematch"] is None
    assert api(ben).get(f"{TABLES}offers/").json()["results"] == []


def test_the_rematch_and_decline_endpoints_refuse_with_a_detail(finished, ana, olga):
    assert api(olga).post(f"{TABLES}{finished.id}/rematch/").status_code == 403
    running = lobby.create_friendly(ana, game="saichugen", bots=2).table
    refused = api(ana).post(f"{TABLES}{running.id}/rematch/")
    assert refused.status_code == 409 and "detail" in refused.json()
    refused = api(ana).post(f"{TABLES}{running.id}/decline/")
    assert refused.status_code == 409 and "detail" in refused.json()
    assert api().post(f"{TABLES}{finished.id}/decline/").status_code in (401, 403)
    assert api(ana).post(f"{TABLES}nosuchtable/decline/").status_code == 404
    running.refresh_from_db()
    assert running.status == Table.Status.PLAYING


def test_my_games_and_the_invitation_show_the_offer_and_decline_cancels_it(
    client, finished, ana, ben
):
    new = lobby.rematch(ana, finished.id).table
    client.force_login(ben)
    html = client.get("/games/").content.decode()
    assert 'id="rematch-offers"' in html
    assert f'action="/tables/{new.id}/join/"' in html
    assert f'action="/tables/{new.id}/decline/"' in html
    invitation = client.get(f"/tables/{new.id}/join/").content.decode()
    assert text("%(by)s offers a rematch.") % {"by": "ana"} in invitation
    # Not "0 seats are open" beside a seat shown as open: the kept seats say so.
    assert "0 seats are open" not in invitation
    assert text("kept for a player of the last table") in invitation
    response = client.post(f"/tables/{new.id}/decline/")
    assert response.status_code == 302 and response["Location"] == f"/tables/{finished.id}/"
    new.refresh_from_db()
    assert new.status == Table.Status.CANCELLED
    assert 'id="rematch-offers"' not in client.get("/games/").content.decode()
    # Its page (for ana, who offered it) says the rematch was called off, not "everyone left".
    client.force_login(ana)
    called_off = client.get(f"/tables/{new.id}/join/").content.decode()
    assert text("This rematch was called off: a player declined it, or it waited too long.") in (
        called_off
    )
    assert "everyone left" not in called_off


def test_the_creator_s_invitation_waits_for_the_table(client, ana, ben):
    table = lobby.create_friendly(ana, game="saichugen", bots=1).table
    client.force_login(ana)
    html = client.get(f"/tables/{table.id}/join/").content.decode()
    assert f'data-wait-table="{table.id}"' in html  # live.js and lobby.js go to the table
    client.force_login(ben)
    html = client.get(f"/tables/{table.id}/join/").content.decode()
    assert "data-wait-table" not in html  # not seated: nothing to wait for


def test_every_page_loads_the_live_script_and_its_words(client, ana):
    for user in (None, ana):
        if user:
            client.force_login(user)
        html = client.get("/").content.decode()
        assert 'src="/static/js/live.js"' in html and 'id="live-notices"' in html
        assert 'data-offered="{by} ' in html  # the offer's words, with its placeholder
