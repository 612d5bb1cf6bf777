"""Guests as services: made with a readable unique name, throttled per address, never rated,
kept from events and tokens, turned into a real account by signing up (their games kept), and
deleted when idle (docs/accounts.md, "Guests")."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts import guests
from gameplay.models import Seat, Table
from gameplay.services import lobby
from league.errors import LeagueError
from league.models import Event, RatedMatch, Rating
from league.profile import services as profile
from league.services import entering, permissions
from league.services import guests as league_guests
from league.services.players import player_for_user
from tests.lobby.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "three_five_eight"
User = get_user_model()
PASSWORD = "a guest's new pass phrase"


# --- making guests -------------------------------------------------------------------------------


def test_a_guest_is_a_logged_in_account_with_a_readable_guest_name(guest):
    assert re.fullmatch(r"Guest-[2-9A-HJKMNP-Z]{4}", guest.username)
    assert guest.is_guest and guests.is_guest(guest)
    assert not guest.has_usable_password()  # nobody logs in as a guest with a password
    assert not guests.is_guest(User.objects.create_user("ana", password="pw"))


def test_guest_names_are_unique_without_regard_to_case(monkeypatch):
    User.objects.create_user("guest-aaaa", password="pw")  # made before the prefix was kept
    draws = iter("AAAA" + "BBBB")
    monkeypatch.setattr(guests.secrets, "choice", lambda alphabet: next(draws))
    assert guests.new_guest_name() == "Guest-BBBB"


def test_after_collisions_a_longer_name_is_drawn(monkeypatch):
    User.objects.create_user("Guest-AAAA", password="pw")
    draws = iter("A" * 16 + "C" * 6)
    monkeypatch.setattr(guests.secrets, "choice", lambda alphabet: next(draws))
    assert guests.new_guest_name() == "Guest-CCCCCC"


def test_guests_are_throttled_per_client_address(settings):
    settings.GUEST_ACCOUNTS_PER_HOUR = 2
    guests.create_guest("203.0.113.5")
    guests.create_guest("203.0.113.5")
    before = User.objects.count()
    with pytest.raises(guests.GuestRefused) as refused:
        guests.create_guest("203.0.113.5")
    assert refused.value.status == 429
    assert User.objects.count() == before  # nothing made
    assert guests.create_guest("203.0.113.6").is_guest  # another address is counted apart


def test_real_people_cannot_take_a_guest_name():
    assert profile.name_problem("Guest-7K3Q") is not None
    assert profile.name_problem("gUeSt-ana") is not None
    assert profile.name_problem("Guestana") is None
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "Guest-7K3Q",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 200 and not User.objects.filter(username="Guest-7K3Q").exists()
    assert "kept for guests" in response.content.decode()


# --- what a guest may not do ---------------------------------------------------------------------


def test_a_guest_cannot_organize_enter_events_or_have_an_api_token(guest, settings):
    settings.LEAGUE_OPEN_ORGANIZING = True  # every account may organize: not a guest
    assert not permissions.can_organize(guest)
    with pytest.raises(LeagueError, match="Guests have no API token"):
        profile.personal_token(guest)
    with pytest.raises(LeagueError, match="Guests have no API token"):
        profile.replace_token(guest)
    event = Event(name="Club night", game=GAME)
    with pytest.raises(LeagueError, match="guests cannot enter events"):
        entering.check_may_play_in(event, player_for_user(guest))


# --- never rated ---------------------------------------------------------------------------------


def verified(user: Any) -> Any:
    EmailAddress.objects.create(user=user, email=f"{user}@example.org", verified=True)
    return user


def test_a_guests_play_now_table_is_marked_and_never_rated(guest):
    joined = lobby.play_now(guest, GAME)
    entry = lobby.entry(Table.objects.prefetch_related("seats").get(pk=joined.table.id))
    assert entry["rated"] is False
    assert [s["guest"] for s in entry["seats"]] == [True, False, False]
    finished = play_out(joined.table.id)
    assert finished.status == "finished"
    assert not RatedMatch.objects.filter(table_ref=finished.id).exists()
    assert not Rating.objects.filter(game=GAME).exists()


def test_a_guest_joining_a_rated_table_keeps_it_out_of_the_ratings(ana, guest):
    verified(ana)
    made = lobby.create_friendly(ana, game=GAME, bots=1, deals=1)  # rated, with a clock
    assert lobby.entry(Table.objects.prefetch_related("seats").get(pk=made.table.id))["rated"]
    lobby.join(guest, made.table.id)
    table = Table.objects.prefetch_related("seats").get(pk=made.table.id)
    assert lobby.entry(table)["rated"] is False  # "unrated: a guest plays"
    finished = play_out(made.table.id)
    assert finished.status == "finished" and finished.rated  # the creator asked for rated
    assert not RatedMatch.objects.filter(table_ref=finished.id).exists()
    assert not Rating.objects.filter(game=GAME).exists()


def test_the_api_marks_a_guests_seat(ana, guest):
    made = lobby.create_friendly(ana, game=GAME, bots=0, deals=1)
    lobby.join(guest, made.table.id)
    body = Client().get(f"/api/tables/{made.table.id}/").json()
    assert body["rated"] is False
    assert [(s["player"], s["guest"]) for s in body["seats"] if s["player"]] == [
        ("ana", False),
        (guest.username, True),
    ]


# --- signing up keeps the games ------------------------------------------------------------------


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_up(client: Client, name: str, **extra: str) -> Any:
    return client.post(
        "/accounts/signup/",
        {"username": name, "password1": PASSWORD, "password2": PASSWORD, **extra},
    )


def test_signing_up_turns_the_guest_into_a_real_account_that_keeps_its_games(guest):
    guest_name = guest.username
    finished = play_out(lobby.play_now(guest, GAME).table.id)
    playing = lobby.play_now(guest, "saichugen").table
    player = player_for_user(guest)  # a player made on first use, under the guest name
    client = logged_in(guest)
    page = client.get("/accounts/signup/")
    assert page.status_code == 200  # not sent away although logged in
    assert guest_name in page.content.decode()
    response = sign_up(client, "Vera", email="vera@example.org")
    assert response.status_code == 302, response.content.decode()[:2000]
    vera = User.objects.get(pk=guest.pk)  # the same row
    assert (vera.username, vera.is_guest, vera.email) == ("Vera", False, "vera@example.org")
    assert vera.check_password(PASSWORD)
    assert User.objects.filter(username=guest_name).count() == 0
    # Every seat is still theirs, renamed; so are the record and the player.
    seats = Seat.objects.filter(user=vera).order_by("table_id")
    assert {s.table_id for s in seats} == {finished.id, playing.id}
    assert {s.name for s in seats} == {"Vera"}
    record = Table.objects.get(pk=finished.id).record
    assert record["players"][0] == "Vera" and guest_name not in str(record)
    # A guest played there: the tables stay unrated, though the name no longer says "Guest-".
    assert not Table.objects.filter(pk__in=[finished.id, playing.id], rated=True).exists()
    assert '<span class="tag">rated</span>' not in client.get("/games/").content.decode()
    player.refresh_from_db()
    assert (player.name, player.user_id) == ("Vera", vera.pk)
    # Logged in as Vera now, with the games in My games.
    games = client.get("/games/").content.decode()
    assert f"/tables/{finished.id}/" in games and f"/tables/{playing.id}/" in games
    assert "Sign up to keep your games" not in client.get("/").content.decode()


def test_a_guest_signing_up_as_a_taken_name_changes_nothing(guest):
    User.objects.create_user("ana", password="pw")
    client = logged_in(guest)
    response = sign_up(client, "ANA")
    assert response.status_code == 200
    guest.refresh_from_db()
    assert guest.is_guest and guest.username.startswith("Guest-")


def test_a_real_account_is_still_sent_away_from_the_sign_up_page():
    ana = User.objects.create_user("ana", password="pw")
    assert logged_in(ana).get("/accounts/signup/").status_code == 302


# --- idle guests go ------------------------------------------------------------------------------


def age(user: Any, days: int) -> None:
    then = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(last_login=then, date_joined=then)


def test_idle_guests_are_deleted_and_their_finished_tables_keep_their_names(settings):
    settings.GUEST_IDLE_DAYS = 30
    idle, recent, seated, real = (guests.create_guest(f"198.51.100.{n}") for n in range(4))
    real.is_guest = False
    real.save()
    finished = play_out(lobby.play_now(idle, GAME).table.id)
    playing = lobby.play_now(seated, GAME).table
    for user in (idle, seated, real):
        age(user, 31)
    age(recent, 29)
    Table.objects.filter(pk__in=[finished.id, playing.id]).update(
        updated_at=timezone.now() - timedelta(days=31)
    )
    player = player_for_user(idle)
    assert league_guests.delete_idle_guests() == 1
    assert not User.objects.filter(pk=idle.pk).exists()
    assert User.objects.filter(pk__in=[recent.pk, seated.pk, real.pk]).count() == 3
    seat = Seat.objects.get(table_id=finished.id, number=0)
    assert (seat.user_id, seat.name) == (None, idle.username)  # the name stays as it was
    assert Table.objects.get(pk=finished.id).record["players"][0] == idle.username
    player.refresh_from_db()
    assert (player.name, player.user_id) == (idle.username, None)
    assert league_guests.delete_idle_guests() == 0  # idempotent


def test_a_guest_whose_table_moved_recently_is_kept(settings, guest):
    finished = play_out(lobby.play_now(guest, GAME).table.id)
    age(guest, 40)
    assert Table.objects.get(pk=finished.id).updated_at > timezone.now() - timedelta(days=1)
    assert league_guests.delete_idle_guests() == 0


def test_the_server_runs_the_clean_up_by_itself():
    """Beat's schedule (run by the server itself in the embedded mode) names the task, and the
    task is registered under that name."""
    from celery import current_app

    entry = settings.CELERY_BEAT_SCHEDULE["league-delete-idle-guests"]
    assert entry["task"] in current_app.tasks
    assert current_app.tasks[entry["task"]]() == 0
