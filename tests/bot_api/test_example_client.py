"""The bot API example of docs/bots.md, run as a third party would: a separate process that
knows only the HTTP API and the table protocol, against a real server, for every game."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from games import registry as engines
from tests.procs import ROOT, free_port, manage, procfile_uvicorn, running, service_env

CLIENT = ROOT / "docs" / "examples" / "bot_client.py"
GAMES = engines.game_names()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """uvicorn on its own SQLite file in the embedded mode (bots move on the server's loop)."""
    database = tmp_path_factory.mktemp("bot_api") / "db.sqlite3"
    env = service_env(
        DATABASE_URL=f"sqlite:///{database}", GAMEPLAY_BOT_DELAY="0", LOG_LEVEL="WARNING"
    )
    env.pop("REDIS_URL", None)
    env.pop("CELERY_EAGER", None)
    manage(env, "migrate", "--no-input", "-v0")
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; get_user_model().objects"
        ".create_user('robo', password='robo-pass-42', is_bot_account=True)",
    )
    port = free_port()
    with running([*procfile_uvicorn(port), "--log-level", "warning"], env, port):
        yield f"http://127.0.0.1:{port}"


def test_the_example_client_is_short():
    assert len(CLIENT.read_text().splitlines()) < 60


@pytest.mark.parametrize("game", GAMES)
def test_the_example_client_plays_a_whole_match(server, game):
    run = subprocess.run(
        [sys.executable, str(CLIENT), server, "robo", "robo-pass-42", game],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr
    totals = json.loads(run.stdout)
    assert len(totals["payouts"]) == engines.get_game(game).seats


def test_wrong_credentials_fail_cleanly(server):
    run = subprocess.run(
        [sys.executable, str(CLIENT), server, "robo", "wrong", "saichugen"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "400" in run.stderr
