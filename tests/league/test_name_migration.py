"""The migration that makes player names unique without regard to case refuses an older
database holding two names that differ only in case, naming them, and changes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("league", "0006_builtin_bots_and_bot_accounts")]
UNIQUE = [("league", "0007_player_names_unique_without_case")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_names_differing_only_in_case_stop_the_migration_with_their_list():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()  # every app: accounts too
    old = migrate(BEFORE)
    try:
        Player = old.get_model("league", "Player")
        ana = Player.objects.create(name="Ana")
        Player.objects.create(name="ANA")
        with pytest.raises(RuntimeError, match=r"differ only in case: .*'Ana'.*'ANA'"):
            migrate(UNIQUE)
        Player.objects.filter(pk=ana.pk).update(name="Ana B.")  # the operator's fix
        migrate(UNIQUE)
        assert Player.objects.filter(name="ANA").exists()
    finally:
        migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_existing_bots_become_basic_builtin_bots_and_bot_accounts_get_the_mark():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()  # every app: accounts too
    old = migrate([("league", "0005_format_registry"), ("accounts", "0002_language_bot_account")])
    try:
        Player = old.get_model("league", "Player")
        User = old.get_model("accounts", "User")
        Player.objects.create(name="Bot 1", is_bot=True)
        robo = User.objects.create(username="robo", is_bot_account=True)
        Player.objects.create(name="robo", user=robo)
        Player.objects.create(name="ana", user=User.objects.create(username="ana"))
        new = migrate(BEFORE).get_model("league", "Player")
        rows = {p.name: (p.is_bot, p.bot_level) for p in new.objects.all()}
        assert rows == {"Bot 1": (True, "basic"), "robo": (True, ""), "ana": (False, "")}
    finally:
        migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_every_existing_player_gets_the_skeleton_of_its_name():
    """Look-alikes made before the check are kept (a person decides which one goes), and the
    check sees them from then on."""
    from accounts.skeleton import name_skeleton

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()  # every app: accounts too
    old = migrate([("league", "0015_rated_match_weight")])
    try:
        Player = old.get_model("league", "Player")
        for name in ("ana", "\u0430na", "Bill", "Strong bot 1"):
            Player.objects.create(name=name)
        new = migrate([("league", "0016_player_name_skeleton")]).get_model("league", "Player")
        rows = dict(new.objects.values_list("name", "name_skeleton"))
        assert rows == {name: name_skeleton(name) for name in rows}
        assert rows["ana"] == rows["\u0430na"] == "ana" and rows["Strong bot 1"] == "strong bot l"
    finally:
        migrate(latest)
