"""Two clients racing for the same seq: exactly one action is applied, the other is stale.

Real threads with their own database connections. On PostgreSQL (DATABASE_URL, as in CI) they
race in the test database; on SQLite they race in a file database in a child process, because
the suite's in-memory SQLite answers concurrent writers with "table is locked" at once, which
a deployed (file) database never does.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.db import connection

from gameplay.models import Action
from gameplay.services import play
from gameplay.services.errors import TableError
from tests.procs import ROOT, service_env

from .conftest import current, make_table, make_users, some_legal
from .race import race, seq_race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]


def check(summary: dict) -> None:
    assert all(o == ["applied", "stale"] for o in summary["outcomes"]), summary["outcomes"]
    assert summary["log"] == list(range(1, summary["seq"] + 1))


def sqlite_file_database(tmp_path, match_cache: bool) -> dict[str, str]:
    env = service_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'race.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings",
        RACE_MATCH_CACHE="1" if match_cache else "0",
    )
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    return env


def test_two_seats_racing_for_one_seq_on_sqlite(tmp_path, match_cache):
    """Runs whatever the suite's database: the race happens in a child on its own SQLite file."""
    env = sqlite_file_database(tmp_path, match_cache)
    run = subprocess.run(
        [sys.executable, "-m", "tests.gameplay.race"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    check(json.loads(run.stdout.strip().splitlines()[-1]))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL race")
def test_two_seats_racing_for_one_seq_on_postgresql():
    check(seq_race())


@pytest.mark.skipif(connection.vendor == "sqlite", reason="threads need a shared database")
def test_one_seat_sending_twice_with_one_id_is_applied_once():
    people = make_users("ana", "ben", "cleo")
    table = make_table(people=people)
    table, match = current(table)
    action = some_legal(match, 0)
    results = race([lambda: play.play_action(table.id, 0, action, 0, client_id="x")] * 2)
    kinds = sorted(
        r.code if isinstance(r, TableError) else "applied" if r.applied else "duplicate"
        for r in results
    )
    assert kinds in (["applied", "duplicate"], ["applied", "stale"]), results
    assert Action.objects.filter(table=table).count() == 1
