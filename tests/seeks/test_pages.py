"""The lobby page's blocks for meeting people, without a browser: seek, wait, cancel, meet;
challenge, answer from the lobby or My games; refusals are 4xx pages that change nothing."""

from __future__ import annotations

import pytest

from gameplay.models import Challenge, Seek, Table

pytestmark = pytest.mark.django_db

PLAY = "/play/"


def login(client, user):
    client.force_login(user)
    return client


def test_a_visitor_seeks_as_a_guest_and_a_guest_seeks_casual_tables(client, ana, ben):
    login(client, ana).post("/play/seek/", {"game": "saichugen", "pace": "fast", "rated": "1"})
    login(client, ben).post("/play/seek/", {"game": "saichugen", "pace": "fast", "rated": "0"})
    client.logout()
    html = client.get(PLAY).content.decode()
    assert 'id="open-seeks"' in html and "ana" in html and 'id="seek-form"' in html
    assert 'id="seek-as-guest"' in html
    # A visitor's Join is offered on the casual seek only: a guest plays casual tables.
    assert html.count(">Join</button>") == 1
    # Seeking first offers the choice; nothing is made until they choose.
    form = {"game": "saichugen", "pace": "fast", "rated": "1", "bots_after": ""}
    offer = client.post("/play/seek/", form)
    assert offer.status_code == 200 and 'id="guest-offer"' in offer.content.decode()
    assert Seek.objects.count() == 2
    # As a guest: seated at once with ben (casual), never put in ana's rated pool.
    seeking = client.post("/play/seek/", {**form, "as_guest": "1"})
    assert seeking.status_code == 302
    mine = Seek.objects.exclude(user__in=[ana, ben]).get()
    assert mine.user.is_guest and mine.rated is False
    assert 'id="seek-waiting"' in client.get(PLAY).content.decode()
    client.post(f"/play/seek/{mine.id}/cancel/")
    page = client.get(PLAY).content.decode()
    seek_form = page[page.index('id="seek-form"') :]
    seek_form = seek_form[: seek_form.index("</form>")]
    # A guest is offered no rated choice: the form says casual itself.
    assert 'name="game"' in seek_form and 'name="rated" value="0"' in seek_form
    assert seek_form.count('name="rated"') == 1


def test_seek_wait_cancel_and_meet_from_the_page(client, ana, ben, cleo):
    page = login(client, ana).get(PLAY).content.decode()
    assert 'id="seek-form"' in page and "Play with people now" in page
    sent = client.post(
        "/play/seek/", {"game": "saichugen", "pace": "normal", "rated": "1", "bots_after": "60"}
    )
    assert sent.status_code == 302 and sent.url == "/play/#people"
    waiting = client.get(PLAY)
    page = waiting.content.decode()
    assert 'id="seek-waiting"' in page and 'id="seek-cancel"' in page
    assert 'data-seats="3"' in page and 'data-bots-in="' in page
    # Never kept by the browser: Back from the table met must not show this wait again.
    assert "no-store" in waiting["Cache-Control"]
    mine = Seek.objects.get(user=ana)
    assert client.post(f"/play/seek/{mine.id}/cancel/").status_code == 302
    assert Seek.objects.get(pk=mine.pk).status == "cancelled"
    for person in (ana, ben):
        login(client, person).post(
            "/play/seek/", {"game": "saichugen", "pace": "normal", "rated": "1"}
        )
    last = login(client, cleo).post(
        "/play/seek/", {"game": "saichugen", "pace": "normal", "rated": "1"}
    )
    table = Table.objects.get()
    assert last.status_code == 302 and last.url == f"/tables/{table.id}/"


def test_a_bad_seek_is_a_400_page_that_makes_nothing(client, ana):
    response = login(client, ana).post("/play/seek/", {"game": "chess", "pace": "normal"})
    assert response.status_code == 400 and 'id="seek-form"' in response.content.decode()
    assert not Seek.objects.exists()


def test_challenge_and_accept_from_the_pages(client, ana, ben):
    wrong = login(client, ana).post(
        "/play/challenge/",
        {"player": "nobody", "game": "saichugen", "pace": "fast", "rated": "1", "bots": "1"},
    )
    assert wrong.status_code == 404 and "Nobody here is called nobody" in wrong.content.decode()
    sent = client.post(
        "/play/challenge/",
        {"player": "BEN", "game": "saichugen", "pace": "fast", "rated": "1", "bots": "1"},
    )
    assert sent.status_code == 302
    ch = Challenge.objects.get()
    assert "You challenged ben" in client.get(PLAY).content.decode()
    login(client, ben)
    for page in (PLAY, "/games/"):
        html = client.get(page).content.decode()
        assert "ana challenges you" in html and f"/play/challenges/{ch.id}/accept/" in html
    accepted = client.post(f"/play/challenges/{ch.id}/accept/")
    ch.refresh_from_db()
    assert accepted.status_code == 302 and accepted.url == f"/tables/{ch.table_id}/"
    again = client.post(f"/play/challenges/{ch.id}/decline/")
    assert again.status_code == 409
    assert client.post(f"/play/challenges/{ch.id}/explode/").status_code == 404


def test_declining_from_my_games_comes_back_there(client, ana, ben):
    login(client, ana).post(
        "/play/challenge/",
        {"player": "ben", "game": "mediatore", "pace": "relaxed", "rated": "0", "bots": "0"},
    )
    ch = Challenge.objects.get()
    done = login(client, ben).post(f"/play/challenges/{ch.id}/decline/", {"next": "/games/"})
    assert done.status_code == 302 and done.url == "/games/"
    assert Challenge.objects.get().status == "declined" and not Table.objects.exists()
