"""The upgrade path: a database of the previous release migrates, and every table it had in play
plays on to its end with the current code.

DUMP is what that release's own code wrote (tests/deploy/make_release_dump.py says how it was
made and how to make the next one): tables of each game in play mid-deal, people and bots
seated, a table of four of a three-player game, clocks, a finished table, a league round whose
fixtures' tables are in play. This test restores it into a fresh database next to
DATABASE_URL's, runs the current `manage.py migrate`, and in a child process on the current
code (tests/deploy/play_out.py) plays every table in play to its end and checks each one.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from tests.procs import ROOT, manage, service_env

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DUMP = Path(__file__).resolve().parent / "data" / "release-df6859d.sql.gz"
GAMES = {"saichugen", "mediatore", "three_five_eight", "schieberamsch"}


@pytest.fixture
def release_database() -> Iterator[dict[str, str]]:
    """A new database next to DATABASE_URL's holding DUMP, dropped after; a child's environment
    for it. Without REDIS_URL: the child's Celery is eager, so a bot due moves in the child
    itself and nothing is queued for a worker of another run."""
    import psycopg

    admin = urlparse(os.environ["DATABASE_URL"])
    admin_url = urlunparse(admin._replace(path="/postgres"))
    name = f"mediana_upgrade_{uuid.uuid4().hex[:8]}"
    url = urlunparse(admin._replace(path=f"/{name}"))
    assert shutil.which("psql"), "psql (PostgreSQL's client) restores the dump"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        restore = subprocess.run(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "--dbname", url],
            input=gzip.decompress(DUMP.read_bytes()),
            capture_output=True,
            timeout=60,
        )
        assert restore.returncode == 0, restore.stderr.decode()
        env = service_env(DATABASE_URL=url)
        for unset in ("REDIS_URL", "CELERY_EAGER"):
            env.pop(unset, None)
        yield env
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_previous_release_migrates_and_its_tables_play_to_the_end(release_database, tmp_path):
    env = release_database
    manage(env, "migrate", "--no-input", "-v0")
    plan = manage(env, "showmigrations", "--plan").splitlines()
    assert plan
    assert [line for line in plan if not line.startswith("[X]")] == []  # nothing unapplied

    report_path = tmp_path / "played.json"
    child = subprocess.run(
        [sys.executable, "-m", "tests.deploy.play_out", str(report_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    report = json.loads(report_path.read_text())
    tables = report["tables"]

    in_play = [t for t in tables if t["status_before"] == "playing"]
    # What the dump holds, so that a dump made for the next release keeps it all in play.
    assert {t["game"] for t in in_play} >= GAMES
    assert any(t["seats"] == 4 and t["game"] != "mediatore" for t in in_play)  # a table of four
    assert any(t["clock"] for t in in_play)
    assert any(t["seq_before"] == t["seq"] for t in tables if t["status_before"] == "finished")
    assert set(report["fixture_results"]) <= {t["id"] for t in in_play}
    assert report["fixture_results"], "no league fixture's table in the dump"

    for table in in_play:
        assert table["status"] == "finished", table
        assert table["seq"] > table["seq_before"], table
        assert table["moves"].get("player", 0) > 0, table  # people played on
        assert table["moves"].get("bot", 0) > 0, table  # and so did the bots
    assert report["finished"] == len(tables)
    assert report["replay_mismatch"] == []
    assert report["log_holes"] == []
    assert [t["id"] for t in tables if not t["exported"]] == []
    # Each fixture's table, finished after the upgrade, is its fixture's online result.
    assert set(report["fixture_results"].values()) == {"online"}
