"""A new password ends the old API token, whichever way it was set (accounts.models.User.save).

Alice owns an account and a token a program uses; someone who learnt her old password may have
fetched that token too. Root is staff with every permission.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import Player

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW = "a new pass phrase"


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's rate limits count in the cache, which outlives a test's database rollback."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice() -> Any:
    user = User.objects.create_user("alice", email="alice@example.org", password="right-password")
    Player.objects.create(name="alice", user=user)
    return user


@pytest.fixture
def old_key(alice) -> str:
    return Token.objects.create(user=alice).key


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_status(key: str) -> int:
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/events/").status_code


def assert_replaced(alice: Any, old_key: str) -> None:
    """The old key is refused, and the profile shows the new one, which works."""
    assert api_status(old_key) == 401
    alice.refresh_from_db()  # a session of the old password would be logged out
    new_key = Token.objects.get(user=alice).key
    assert new_key != old_key
    page = logged_in(alice).get("/accounts/profile/").content.decode()
    assert new_key in page and old_key not in page
    assert api_status(new_key) == 200


def test_changing_the_password_replaces_the_token(alice, old_key):
    assert api_status(old_key) == 200
    answer = logged_in(alice).post(
        "/accounts/password/change/",
        {"oldpassword": "right-password", "password1": NEW, "password2": NEW},
    )
    assert answer.status_code == 302
    assert_replaced(alice, old_key)


def test_resetting_the_password_replaces_the_token(alice, old_key):
    client = Client()
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    form = client.get(link.group(1), follow=True)
    done = client.post(form.redirect_chain[-1][0], {"password1": NEW, "password2": NEW})
    assert done.status_code == 302
    assert_replaced(alice, old_key)


def test_setting_a_password_on_an_account_without_one_replaces_the_token(alice, old_key):
    User.objects.filter(pk=alice.pk).update(password=make_password(None))  # unusable
    alice.refresh_from_db()
    answer = logged_in(alice).post("/accounts/password/set/", {"password1": NEW, "password2": NEW})
    assert answer.status_code == 302
    assert_replaced(alice, old_key)


@pytest.mark.parametrize("usable", ["true", "false"])
def test_staff_setting_or_disabling_the_password_in_the_admin_replaces_the_token(
    alice, old_key, usable
):
    root = User.objects.create_superuser("root", password="root-password")
    form = {"usable_password": usable, "password1": NEW, "password2": NEW}
    if usable == "false":
        form = {"usable_password": "false", "unset-password": "Disable"}  # the admin's button
    answer = logged_in(root).post(f"/admin/accounts/user/{alice.pk}/password/", form)
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.has_usable_password() == (usable == "true")
    assert_replaced(alice, old_key)


def test_manage_py_changepassword_replaces_the_token(alice, old_key, monkeypatch):
    monkeypatch.setattr("getpass.getpass", lambda prompt="": NEW)
    call_command("changepassword", "alice", stdout=None)
    assert_replaced(alice, old_key)


def test_a_refused_change_keeps_the_token(alice, old_key):
    answer = logged_in(alice).post(
        "/accounts/password/change/",
        {"oldpassword": "wrong", "password1": NEW, "password2": NEW},
    )
    assert answer.status_code == 200  # the form again, with its error
    assert Token.objects.get(user=alice).key == old_key and api_status(old_key) == 200


def test_logging_in_or_a_hash_upgraded_at_log_in_keeps_the_token(alice, old_key):
    # A short salt makes Django hash the same password anew at the next log-in.
    weak = make_password("right-password", salt="ab")
    User.objects.filter(pk=alice.pk).update(password=weak)
    client = Client()
    client.post("/accounts/login/", {"login": "alice", "password": "right-password"})
    assert "_auth_user_id" in client.session
    alice.refresh_from_db()
    assert alice.password != weak  # upgraded
    assert Token.objects.get(user=alice).key == old_key and api_status(old_key) == 200
