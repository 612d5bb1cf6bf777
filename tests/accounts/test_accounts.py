"""Accounts (lobby-api.md "Accounts (web pages)"): sign-up, log-in, password reset, e-mail
verification, the profile and its API token.

Nina is a newcomer signing up; ana is a player an organizer entered (no account); alice owns an
account; mallory guesses alice's password from another address.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import Player, RatedMatch, RatingHistory

pytestmark = pytest.mark.django_db

MALLORY = "203.0.113.5"
ALICE_ELSEWHERE = "198.51.100.7"
User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's rate limits count in the cache, which outlives a test's database rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(db) -> Any:
    user = User.objects.create_user("alice", email="alice@example.org", password="right-password")
    Player.objects.create(name="alice", user=user)
    return user


def sign_up(client: Client, username: str, email: str = "", **extra: str):
    data = {"username": username, "email": email, "password1": "a long pass phrase"}
    data["password2"] = data["password1"]
    return client.post("/accounts/signup/", {**data, **extra})


def logged_in_as(client: Client) -> Any:
    pk = client.session.get("_auth_user_id")
    return User.objects.get(pk=pk) if pk else None


# --- sign-up ----------------------------------------------------------------------------------


def test_signing_up_makes_the_account_its_player_and_logs_in():
    client = Client()
    response = sign_up(client, "Nina")
    assert response.status_code == 302
    nina = User.objects.get(username="Nina")
    assert logged_in_as(client) == nina
    assert Player.objects.get(user=nina).name == "Nina"
    assert not nina.is_bot_account
    assert nina.email == ""  # optional, and nothing to verify


def test_a_bot_account_is_marked_at_sign_up_and_shown_on_its_player_page():
    sign_up(Client(), "robo", is_bot_account="on")
    robo = User.objects.get(username="robo")
    assert robo.is_bot_account
    assert robo.player.is_bot  # the bot mark...
    assert not robo.player.is_builtin_bot  # ...but a built-in bot is something else
    page = Client().get(robo.player.get_absolute_url())
    assert "bot account" in page.content.decode()


@pytest.mark.parametrize("taken", ["ana", "ANA", "Ana"])
def test_a_name_held_by_a_player_without_an_account_is_refused_whatever_its_case(taken):
    Player.objects.create(name="ana")
    client = Client()
    response = sign_up(client, taken.swapcase() if taken != "Ana" else "aNa")
    assert response.status_code == 200
    assert "claimed only through an invitation" in response.content.decode()
    assert not User.objects.exclude(username="").exists()
    assert Player.objects.count() == 1 and logged_in_as(client) is None


def test_a_name_of_another_account_is_refused_whatever_its_case(alice):
    response = sign_up(Client(), "ALICE")
    assert response.status_code == 200
    assert User.objects.count() == 1 and Player.objects.count() == 1


# --- log-in, log-out, the old addresses --------------------------------------------------------


def test_log_in_and_out_through_allauth(alice):
    client = Client()
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and 'name="login"' in page.content.decode()
    response = client.post("/accounts/login/", {"login": "Alice", "password": "right-password"})
    assert response.status_code == 302 and logged_in_as(client) == alice
    assert client.post("/accounts/logout/").status_code == 302
    assert logged_in_as(client) is None


def test_a_wrong_password_shows_the_form_again(alice):
    client = Client()
    response = client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    assert response.status_code == 200 and logged_in_as(client) is None


def test_the_old_addresses_lead_on_keeping_next(alice):
    client = Client()
    response = client.get("/login/?next=/events/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/events/"
    # An old form posting `username` still logs in, and follows `next`.
    posted = client.post(
        "/login/?next=/events/", {"username": "alice", "password": "right-password"}
    )
    assert posted.status_code == 302 and posted["Location"] == "/events/"
    assert logged_in_as(client) == alice
    assert client.get("/logout/")["Location"] == "/accounts/logout/"
    assert client.post("/logout/").status_code == 302 and logged_in_as(client) is None


def test_a_page_for_accounts_sends_a_stranger_to_log_in():
    response = Client().get("/accounts/profile/", follow=True)
    assert unquote(response.redirect_chain[-1][0]) == "/accounts/login/?next=/accounts/profile/"
    assert response.status_code == 200 and 'name="login"' in response.content.decode()


def test_allauths_form_is_under_the_lockout_for_that_pair_only(alice, settings):
    mallory = Client()
    guesses = [
        mallory.post(
            "/accounts/login/", {"login": "alice", "password": "wrong"}, REMOTE_ADDR=MALLORY
        ).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert guesses[0] == 200 and guesses[-1] == 429
    right = mallory.post(
        "/accounts/login/", {"login": "ALICE", "password": "right-password"}, REMOTE_ADDR=MALLORY
    )
    assert right.status_code == 429 and logged_in_as(mallory) is None
    assert b"Too many failed log-in attempts" in right.content
    elsewhere = Client()
    response = elsewhere.post(
        "/accounts/login/",
        {"login": "alice", "password": "right-password"},
        REMOTE_ADDR=ALICE_ELSEWHERE,
    )
    assert response.status_code == 302 and logged_in_as(elsewhere) == alice


# --- password reset, e-mail verification ---------------------------------------------------------


def test_a_password_reset_mails_a_link_that_sets_a_new_password(alice):
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    assert link
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200 and "password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"password1": "a new pass phrase", "password2": "a new pass phrase"},
    )
    assert done.status_code == 302
    old, new = Client(), Client()
    old.post("/accounts/login/", {"login": "alice", "password": "right-password"})
    new.post("/accounts/login/", {"login": "alice", "password": "a new pass phrase"})
    assert logged_in_as(old) is None and logged_in_as(new) == alice


def test_mandatory_verification_keeps_a_newcomer_out_until_the_address_is_verified(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    settings.ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
    client = Client()
    assert sign_up(client, "nina").status_code == 200  # no address: refused
    response = sign_up(client, "nina", "nina@example.org")
    assert response.status_code == 302 and logged_in_as(client) is None
    assert len(mail.outbox) == 1
    login = {"login": "nina", "password": "a long pass phrase"}
    assert Client().post("/accounts/login/", login).url == "/accounts/confirm-email/"
    link = re.search(r"https?://[^/]+(/accounts/confirm-email/\S+)", mail.outbox[0].body)
    assert client.post(link.group(1)).status_code == 302
    later = Client()
    later.post("/accounts/login/", login)
    assert logged_in_as(later) == User.objects.get(username="nina")


# --- the profile and its token -------------------------------------------------------------------


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_shows_the_accounts_own_token_and_no_cache_keeps_it(alice):
    page = logged_in(alice).get("/accounts/profile/")
    assert page.status_code == 200
    key = Token.objects.get(user=alice).key
    assert key in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    # The same key POST /api/token/ answers.
    answer = APIClient().post(
        "/api/token/", {"username": "alice", "password": "right-password"}, format="json"
    )
    assert answer.json()["token"] == key


def test_replacing_the_token_stops_the_old_key(alice):
    client = logged_in(alice)
    old = Token.objects.get_or_create(user=alice)[0].key
    confirm = client.get("/accounts/profile/token/")
    assert confirm.status_code == 200 and Token.objects.get(user=alice).key == old
    assert client.post("/accounts/profile/token/").status_code == 302
    new = Token.objects.get(user=alice).key
    assert new != old and new in client.get("/accounts/profile/").content.decode()
    assert APIClient(HTTP_AUTHORIZATION=f"Token {old}").get("/api/events/").status_code == 401
    assert APIClient(HTTP_AUTHORIZATION=f"Token {new}").get("/api/events/").status_code == 200


def profile_data(**changes: str) -> dict[str, str]:
    return {"name": "Alice L.", "club": "Circolo", "country": "it", "language": "it", **changes}


def test_the_profile_changes_the_players_name_club_country_and_the_language(alice):
    response = logged_in(alice).post("/accounts/profile/", profile_data())
    assert response.status_code == 302
    player = Player.objects.get(user=alice)
    assert (player.name, player.club, player.country) == ("Alice L.", "Circolo", "IT")
    assert User.objects.get(pk=alice.pk).language == "it"


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"country": "Italy"}, "two-letter"),
        ({"country": "I1"}, "two-letter"),
        ({"name": "BOB"}, "is taken"),
        ({"name": "ana"}, "claimed only through an invitation"),
        ({"name": " "}, "required"),
        ({"language": "xx"}, "valid choice"),
    ],
)
def test_a_refused_profile_change_says_why_and_changes_nothing(alice, changes, error):
    Player.objects.create(name="ana")
    Player.objects.create(name="bob", user=User.objects.create_user("bob"))
    response = logged_in(alice).post("/accounts/profile/", profile_data(**changes))
    assert response.status_code == 400
    assert error in response.content.decode()
    player = Player.objects.get(user=alice)
    assert (player.name, player.club, player.country) == ("alice", "", "")
    assert User.objects.get(pk=alice.pk).language == "en"


def test_the_bot_mark_changes_only_until_the_first_rated_game(alice):
    client = logged_in(alice)
    assert client.post("/accounts/profile/", profile_data(is_bot_account="on")).status_code == 302
    assert User.objects.get(pk=alice.pk).is_bot_account
    player = Player.objects.get(user=alice)
    now = timezone.now()
    match = RatedMatch.objects.create(
        game="saichugen",
        finished_at=now,
        players=[player.pk],
        payouts=[0],
        ranks=[1],
        rated_at=now,
    )
    RatingHistory.objects.create(
        match=match, player=player, game="saichugen", at=now, seat=0, rank=1, payout=0,
        mu=25, sigma=8, ordinal=1, ordinal_before=0, games=1,
    )  # fmt: skip
    # Box unticked; back to English, the language the page is read in below.
    response = client.post("/accounts/profile/", profile_data(name="Alice B.", language="en"))
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.is_bot_account  # the disabled box kept its value
    assert Player.objects.get(user=alice).name == "Alice B."
    assert "cannot change any more" in client.get("/accounts/profile/").content.decode()


@pytest.mark.parametrize(
    ("url", "who"),
    [
        ("/accounts/signup/", None),
        ("/accounts/login/", None),
        ("/accounts/password/reset/", None),
        ("/accounts/logout/", "alice"),
        ("/accounts/password/change/", "alice"),
        ("/accounts/email/", "alice"),
        ("/accounts/profile/", "alice"),
        ("/accounts/profile/token/", "alice"),
    ],
)
def test_every_account_page_is_in_the_sites_frame(alice, url, who):
    client = logged_in(alice) if who else Client()
    page = client.get(url)
    assert page.status_code == 200
    assert 'class="site-header"' in page.content.decode()
    assert "css/accounts.css" in page.content.decode()
