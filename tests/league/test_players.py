"""Players are found, made and named in one place: the names existing data already uses."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from league.errors import LeagueError
from league.models import Player
from league.services import players

pytestmark = pytest.mark.django_db


def test_round_bots_are_numbered_and_skip_a_person_with_a_bot_name():
    Player.objects.create(name="Bot 2")  # a person: any organizer may enter one
    bots = players.bot_players(3)
    assert [b.name for b in bots] == ["Bot 1", "Bot 3", "Bot 4"]
    assert all(b.is_bot for b in bots)
    assert players.bot_players(2) == bots[:2]  # made once, then found


def test_a_table_bot_plays_under_its_name_or_beside_a_person_who_has_it():
    assert players.bot_player("Rocco").name == "Rocco"
    Player.objects.create(name="Nina")
    Player.objects.create(name="Nina [bot]")
    assert players.bot_player(" Nina ").name == "Nina [bot 3]"
    assert players.bot_player("").name == "Bot"


def test_an_account_gets_one_player_named_after_it():
    Player.objects.create(name="ann")
    user = get_user_model().objects.create_user("ann", password="pw")
    player = players.player_for_user(user)
    assert (player.name, player.user) == ("ann-2", user)
    assert players.player_for_user(user) == player


def test_a_name_finds_or_makes_a_player_and_a_bad_id_or_blank_name_is_refused():
    made, created = players.player_named("  Dora ")
    assert (made.name, created) == ("Dora", True)
    assert players.player_named("Dora") == (made, False)
    assert players.player_by_id(made.pk) == made
    for bad in (0, -1, 2**63, made.pk + 1000):
        with pytest.raises(LeagueError, match="no player"):
            players.player_by_id(bad)
    with pytest.raises(LeagueError, match="needs a name"):
        players.player_named("  ")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("clash", ["same_account", "same_name"])
def test_an_accounts_player_is_made_once_when_two_finishes_race(monkeypatch, clash):
    """Two tables of a new account finish at once: the one that loses the race to create its
    player (on the account, or on the name) finds the winner's row instead of failing.

    PostgreSQL only: SQLite takes its write lock when a transaction begins, so there the other
    process waits for ours and this race cannot happen (nor be staged)."""
    ana = get_user_model().objects.create_user("ana")
    real_create = Player.objects.create
    raced = []

    other = ana if clash == "same_account" else get_user_model().objects.create_user("ana2")

    def the_other_process() -> None:  # its own connection: it commits outside our savepoint
        try:
            real_create(name="ana", user=other)
        finally:
            connection.close()

    def create_after_the_other_process(**fields):
        if not raced:  # the other process commits first, between our check and our insert
            worker = threading.Thread(target=the_other_process)
            worker.start()
            worker.join()
            raced.append(worker)
        return real_create(**fields)

    monkeypatch.setattr(Player.objects, "create", create_after_the_other_process)
    player = players.player_for_user(ana)
    assert Player.objects.filter(name="ana", user=other).exists(), "the race was staged"
    assert player.user == ana
    assert Player.objects.filter(user=ana).count() == 1
    if clash == "same_name":
        assert player.name == "ana-2"
