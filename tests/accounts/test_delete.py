"""Deleting an account: personal data gone, results kept under an anonymous name.

zelda_q7 (a distinctive name, so a search of the whole database means something) signs up with
an e-mail address, plays a round of alice's cup and a friendly table, holds an API token, has a
failed log-in on record — then deletes her account from her profile.
"""

from __future__ import annotations

import random
import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import models
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from gameplay import api as gameplay
from gameplay.models import Seat as TableSeat
from gameplay.models import Table
from gameplay.services import clocks, matches, play
from league.errors import LeagueError
from league.models import Entry, Event, LedgerEntry, Player, Rating, RatingHistory
from league.profile import deletion
from league.profile.services import personal_token
from league.services import claims
from league.services import events as event_services
from league.services.standings import standings_rows
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db
User = get_user_model()
NAME, EMAIL, PASSWORD = "zelda_q7", "zelda.q7@example.org", "a long pass phrase"


def sign_up(client: Client, username: str, email: str = "") -> None:
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302


def play_out(table_ref: str) -> None:
    """Every seat plays what its clock would play for it, until the match ends."""
    rng = random.Random(5)
    for _ in range(500):
        table = Table.objects.get(pk=table_ref)
        if table.status == Table.Status.FINISHED:
            return
        match = matches.load_match(table)
        seat = match.to_act()[0]
        play.play_action(table.id, seat, clocks.default_action(match, seat, rng), table.seq)
    raise AssertionError("the match did not end")


def rows_mentioning(*needles: str) -> list[str]:
    """Every (model.field) of every installed model with a text or JSON value containing one
    of the needles, without regard to case."""
    found = []
    for model in apps.get_models():
        if model._meta.proxy or not model._meta.managed:
            continue
        for field in model._meta.concrete_fields:
            if not isinstance(field, models.CharField | models.TextField | models.JSONField):
                continue
            for needle in needles:
                if model._default_manager.filter(**{f"{field.name}__icontains": needle}).exists():
                    found.append(f"{model._meta.label}.{field.name} ~ {needle}")
    return found


@pytest.fixture
def zelda(make_event, alice, django_capture_on_commit_callbacks):
    """Zelda's account, with her history in the league and at a table."""
    client = Client()
    sign_up(client, NAME, EMAIL)
    user = User.objects.get(username=NAME)
    player = Player.objects.get(user=user)
    event = make_event("saichugen", players=5)
    event_services.add_entry(event, player, by=alice, checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):  # rated as it would be
        play_round(event, alice)
    standings_rows(event)  # a snapshot holding her name
    personal_token(user)
    others = [User.objects.create_user(n, password="pw") for n in ("ben", "cid")]
    ref = gameplay.start_table(
        "three_five_eight", seats=[user.pk, *(u.pk for u in others)], n_deals=1, seed=3
    )
    play_out(ref)
    Client().post("/accounts/login/", {"login": NAME, "password": "wrong"})  # axes notes it
    assert rows_mentioning(NAME, EMAIL)  # the search finds her before
    return {"user": user, "player": player, "event": event, "client": client, "table": ref}


def delete(client: Client, password: str = PASSWORD):
    return client.post("/accounts/profile/delete/", {"password": password})


def test_the_profile_links_to_a_confirmation_page_asking_for_the_password(zelda):
    profile = zelda["client"].get("/accounts/profile/").content.decode()
    assert 'href="/accounts/profile/delete/"' in profile
    page = zelda["client"].get("/accounts/profile/delete/")
    assert page.status_code == 200 and 'type="password"' in page.content.decode()
    assert page["Cache-Control"].startswith("max-age=0")


def test_after_deletion_no_row_holds_the_name_or_address_and_the_results_stay(zelda):
    player, event = zelda["player"], zelda["event"]
    ledger = set(LedgerEntry.objects.filter(player=player).values_list("pk", "payout"))
    history = RatingHistory.objects.filter(player=player).count()
    assert ledger and history
    response = delete(zelda["client"])
    assert response.status_code == 302 and response["Location"] == "/"
    assert rows_mentioning(NAME, EMAIL) == []
    assert not User.objects.filter(pk=zelda["user"].pk).exists()
    assert not Token.objects.exists() or not Token.objects.filter(user_id=zelda["user"].pk)
    for session in Session.objects.all():
        assert session.get_decoded().get("_auth_user_id") != str(zelda["user"].pk)

    player.refresh_from_db()
    assert re.fullmatch(r"Deleted player [0-9a-f]{4}", player.name)
    assert (player.user, player.club, player.country) == (None, "", "")
    assert player.deleted_at is not None
    assert set(LedgerEntry.objects.filter(player=player).values_list("pk", "payout")) == ledger
    assert RatingHistory.objects.filter(player=player).count() == history
    assert Rating.objects.filter(player=player).exists()
    rows = {r["player_id"]: r["player"] for r in standings_rows(event)}
    assert rows[player.pk] == player.name

    seat = TableSeat.objects.get(table_id=zelda["table"], number=0)
    assert (seat.user_id, seat.name) == (None, player.name)
    assert Table.objects.get(pk=zelda["table"]).record["players"][0] == player.name

    page = Client().get(f"/events/{event.slug}/standings/").content.decode()
    assert player.name in page and NAME not in page
    mine = Client().get(player.get_absolute_url()).content.decode()
    assert player.name in mine and event.name in mine


def test_the_old_credentials_log_in_nowhere_after_deletion(zelda):
    token = Token.objects.get(user=zelda["user"]).key
    delete(zelda["client"])
    assert "_auth_user_id" not in zelda["client"].session
    client = Client()
    response = client.post("/accounts/login/", {"login": NAME, "password": PASSWORD})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/events/").status_code == 401
    assert (
        APIClient()
        .post("/api/token/", {"username": NAME, "password": PASSWORD}, format="json")
        .status_code
        == 400
    )


def test_a_wrong_password_deletes_nothing_and_counts_as_a_failed_log_in(zelda):
    from axes.models import AccessAttempt

    def failures() -> int:
        attempts = AccessAttempt.objects.filter(username__iexact=NAME)
        return sum(attempts.values_list("failures_since_start", flat=True))

    before = failures()
    response = delete(zelda["client"], "not my password")
    assert response.status_code == 400
    assert "not your password" in response.content.decode()
    assert failures() == before + 1  # so the page is no way to guess the password
    assert User.objects.filter(username=NAME).exists()
    assert Player.objects.get(pk=zelda["player"].pk).name == NAME


def test_an_account_at_a_table_that_is_not_over_is_not_deleted(zelda):
    others = [User.objects.create_user(n, password="pw") for n in ("dan", "eve")]
    gameplay.start_table(
        "three_five_eight", seats=[zelda["user"].pk, *(u.pk for u in others)], n_deals=1, seed=4
    )
    page = zelda["client"].get("/accounts/profile/delete/").content.decode()
    assert "not over yet" in page  # said before the password is typed
    response = delete(zelda["client"])
    assert response.status_code == 400 and "not over yet" in response.content.decode()
    assert User.objects.filter(username=NAME).exists()


def test_the_only_organizer_of_an_event_is_not_deleted(zelda, alice):
    event = zelda["event"]
    event.organizers.add(zelda["user"])
    delete(zelda["client"])  # alice organizes it too: fine
    assert not User.objects.filter(username=NAME).exists()
    assert list(Event.objects.get(pk=event.pk).organizers.all()) == [alice]
    sole = User.objects.create_user("sole", password=PASSWORD)
    own = event_services.create_event(alice, name="Sole cup", game="saichugen")
    own.organizers.set([sole])
    client = Client()
    client.force_login(sole)
    response = delete(client)
    assert response.status_code == 400 and "only organizer of Sole cup" in response.content.decode()


def test_a_deleted_accounts_player_can_be_neither_claimed_nor_entered(zelda, alice):
    delete(zelda["client"])
    player = Player.objects.get(pk=zelda["player"].pk)
    with pytest.raises(LeagueError, match="deleted account"):
        claims.invite_to_claim(player, by=alice)
    other = event_services.create_event(alice, name="Next cup", game="saichugen")
    with pytest.raises(LeagueError, match="deleted"):
        event_services.add_entry(other, player, by=alice)
    assert Entry.objects.filter(player=player).count() == 1  # the old entry stays


def test_anonymous_names_are_unique_whatever_the_dice_say(monkeypatch):
    Player.objects.create(name="Deleted player abcd")
    rolls = iter(["abcd", "ABCD", "beef"])
    monkeypatch.setattr(deletion.secrets, "token_hex", lambda n: next(rolls))
    assert deletion.anonymous_name() == "Deleted player beef"
