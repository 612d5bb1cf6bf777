"""The servers run beat's schedule from their start in the embedded mode: Daphne as `make run`
starts it (`manage.py runserver`, with its autoreloader) and uvicorn as the Procfile starts it, with
no request and no table socket. Seen by a lobby table that waited too long: the schedule's
`gameplay.expire_waiting` cancels it; a management command does not."""

from __future__ import annotations

import shutil
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.procs import free_port, manage, procfile_uvicorn, running, service_env

AGED_TABLE = (
    "from datetime import timedelta; from django.utils import timezone; "
    "from accounts.models import User; from gameplay.models import Table; "
    "from gameplay.services import lobby; "
    "lobby.create_friendly(User.objects.create_user('ann'), game='saichugen'); "
    "Table.objects.update(created_at=timezone.now() - timedelta(hours=2))"
)


def status(database: Path) -> str:
    """The lobby table's status, read from the database file (quicker than a command)."""
    with closing(sqlite3.connect(database, timeout=20)) as db:
        return db.execute("SELECT status FROM gameplay_table").fetchone()[0]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    database = tmp_path_factory.mktemp("beat") / "template.sqlite3"
    env = service_env(DATABASE_URL=f"sqlite:///{database}", LOBBY_WAITING_EXPIRY="60")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "shell", "-c", AGED_TABLE)
    assert status(database) == "waiting"  # a command runs no schedule
    return database


@pytest.mark.parametrize("command", ["runserver", "uvicorn"])
def test_a_server_runs_the_schedule_from_its_start(migrated, tmp_path, command):
    database = tmp_path / "db.sqlite3"
    shutil.copy(migrated, database)
    env = service_env(
        DATABASE_URL=f"sqlite:///{database}", LOBBY_WAITING_EXPIRY="60", LOG_LEVEL="WARNING"
    )
    env.pop("REDIS_URL", None)
    env.pop("CELERY_EAGER", None)
    assert status(database) == "waiting"
    port = free_port()
    if command == "uvicorn":
        args = procfile_uvicorn(port)
    else:
        env["DEBUG"] = "1"
        args = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"]
    with running(args, env, port):  # waits for the port: a connection, never a request
        give_up = time.monotonic() + 30
        while status(database) == "waiting" and time.monotonic() < give_up:
            time.sleep(0.1)
    assert status(database) == "cancelled"
