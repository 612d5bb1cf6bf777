"""Guests on the pages: an anonymous Play now or Join offers "Play as a guest" and goes on to
the table in one click; the header and the lobby mark the guest; logging out warns."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from gameplay.models import Seat, Table
from gameplay.paces import pace
from gameplay.services import lobby
from games import catalogue

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "three_five_eight"


def session_user(client: Client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_an_anonymous_play_now_offers_a_guest_seat_then_goes_to_the_table():
    client = Client()
    offer = client.post("/play/now/", {"game": GAME, "pace": "normal"})
    page = offer.content.decode()
    assert offer.status_code == 200
    # The offer names what one click starts: the game and the pace chosen.
    choice = page[page.index('id="guest-choice"') :].split("</p>")[0]
    assert catalogue.display_name(GAME) in choice and str(pace("normal").label) in choice
    assert 'name="as_guest"' in page and f'value="{GAME}"' in page  # the game is carried over
    assert "/accounts/login/?next=" in page and "/accounts/signup/?next=" in page
    assert not Table.objects.exists()  # nothing made yet
    response = client.post("/play/now/", {"game": GAME, "as_guest": "1"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.id}/"
    guest = session_user(client)
    assert guest.is_guest and Seat.objects.get(table=table, number=0).user == guest
    page = client.get(f"/tables/{table.id}/").content.decode()
    assert '"guest": true' in page  # the table client's seat config carries the mark
    assert 'class="tag guest"' in page
    home = client.get("/").content.decode()
    assert guest.username in home and "Sign up to keep your games" in home


def test_logging_in_from_the_offer_comes_back_to_the_same_choice(ana):
    page = Client().post("/play/now/", {"game": GAME, "pace": "fast"}).content.decode()
    back = urlencode({"next": f"/play/now/?game={GAME}&pace=fast"})
    assert f"/accounts/login/?{back}" in page and f"/accounts/signup/?{back}" in page
    client = Client()
    client.force_login(ana)
    # Back from logging in: the choice, one button away from its table (nothing made yet).
    confirm = client.get(f"/play/now/?game={GAME}&pace=fast")
    form = confirm.content.decode()
    assert confirm.status_code == 200 and 'id="play-now-form"' in form
    assert f'name="game" value="{GAME}"' in form and 'name="pace" value="fast"' in form
    assert catalogue.display_name(GAME) in form and not Table.objects.exists()
    started = client.post("/play/now/", {"game": GAME, "pace": "fast"})
    table = Table.objects.get()
    assert started["Location"] == f"/tables/{table.id}/" and table.pace == "fast"


@pytest.mark.parametrize(
    "query", ["", "?game=chess", f"?game={GAME}&pace=nonsense", f"?game={GAME}&pace=1-day"]
)
def test_play_now_opened_without_a_real_choice_goes_home(ana, query):
    client = Client()
    client.force_login(ana)
    response = client.get(f"/play/now/{query}")
    assert response.status_code == 302 and response["Location"] == "/"
    assert not Table.objects.exists()


def test_a_bad_game_as_a_guest_says_why():
    response = Client().post("/play/now/", {"game": "chess", "as_guest": "1"})
    assert response.status_code == 400 and "Unknown game" in response.content.decode()


def test_joining_an_invitation_as_a_guest_takes_the_seat(ana):
    made = lobby.create_friendly(ana, game=GAME, bots=1, deals=1)
    client = Client()
    page = client.get(f"/tables/{made.table.id}/join/").content.decode()
    assert 'id="join-as-guest"' in page
    offer = client.post(f"/tables/{made.table.id}/join/")  # "Join this table", anonymous
    assert offer.status_code == 200 and 'name="as_guest"' in offer.content.decode()
    response = client.post(f"/tables/{made.table.id}/join/", {"as_guest": "1"})
    assert response.status_code == 302
    guest = session_user(client)
    assert Seat.objects.get(table_id=made.table.id, number=1).user == guest
    # The creator's view of the table: the guest marked, the table unrated because of them.
    creator = Client()
    creator.force_login(ana)
    listed = creator.get(f"/tables/{made.table.id}/join/").content.decode()
    assert 'class="tag guest"' in listed and "unrated: a guest plays" in listed


def test_too_many_guests_from_one_address_get_429(settings):
    settings.GUEST_ACCOUNTS_PER_HOUR = 1
    assert Client().post("/play/now/", {"game": GAME, "as_guest": "1"}).status_code == 302
    refused = Client().post("/play/now/", {"game": GAME, "as_guest": "1"})
    assert refused.status_code == 429 and "Too many guests" in refused.content.decode()
    assert get_user_model().objects.filter(is_guest=True).count() == 1


def test_play_as_a_guest_from_anywhere_goes_on_to_next():
    client = Client()
    response = client.post("/accounts/guest/", {"next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert session_user(client).is_guest
    away = Client().post("/accounts/guest/", {"next": "https://evil.example/"})
    assert away["Location"] == "/"


def test_a_guest_is_warned_before_logging_out_and_has_no_profile(guest):
    client = Client()
    client.force_login(guest)
    page = client.get("/accounts/logout/").content.decode()
    assert 'id="guest-logout-warning"' in page and guest.username in page
    profile = client.get("/accounts/profile/")
    assert profile.status_code == 302 and profile["Location"] == "/accounts/signup/"
    assert client.post("/accounts/profile/token/").status_code == 302  # no token made
    assert not guest.auth_token if hasattr(guest, "auth_token") else True
