"""Two ASGI processes sharing the Redis Pub/Sub layer: players connected to different
processes play one table together, and every receiver sees every seq in order."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import uuid
from contextlib import contextmanager
from urllib.parse import urlparse, urlunparse

import pytest
import websockets

from tests.procs import manage, run_async, service_env, uvicorn_server

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@contextmanager
def shared_database(tmp_path):
    """A database both server processes and this test can reach, migrated, dropped after."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        name = f"mediana_scale_{uuid.uuid4().hex[:8]}"
        admin = urlparse(url)
        with psycopg.connect(urlunparse(admin._replace(path="/postgres")), autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        db_url = urlunparse(admin._replace(path=f"/{name}"))
    else:
        name, db_url = None, f"sqlite:///{tmp_path / 'scale.sqlite3'}"
    env = service_env(
        DATABASE_URL=db_url,
        REDIS_URL=os.environ["REDIS_URL"],
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    try:
        manage(env, "migrate", "--no-input", "-v0")
        yield env
    finally:
        if name is not None:
            with psycopg.connect(
                urlunparse(admin._replace(path="/postgres")), autocommit=True
            ) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def player(url: str, seen: list[int]) -> dict:
    """Play the first legal action whenever it is this seat's turn; record every state seq."""
    async with websockets.connect(url) as ws:
        sent_at = -1
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message["type"] != "state":
                assert message["code"] == "stale", message  # Saichugen seats race for a seq
                continue
            seen.append(message["seq"])
            if message["status"] == "finished":
                return message
            if message["legal"] and message["seq"] > sent_at:
                sent_at = message["seq"]
                await asyncio.sleep(0.05)  # a quick player, well inside the rate limit
                action = message["legal"][0]
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "seq": message["seq"],
                            "action": action,
                            "id": str(uuid.uuid4()),
                        }
                    )
                )


def test_players_on_two_processes_play_one_table_without_gaps(tmp_path):
    with shared_database(tmp_path) as env:
        created = json.loads(
            manage(env, "create_table", "--game=saichugen", "--players=p0,p1,p2", "--seed=5")
        )
        tokens = [s["token"] for s in created["seats"]]
        table = created["table"]
        with uvicorn_server(env) as port_a, uvicorn_server(env) as port_b:

            async def scenario():
                seen = [[] for _ in range(4)]
                base = "ws://127.0.0.1:{}/ws/tables/" + table + "/"
                urls = [
                    base.format(port_a) + f"?token={tokens[0]}",
                    base.format(port_b) + f"?token={tokens[1]}",
                    base.format(port_b) + f"?token={tokens[2]}",
                ]
                results = await asyncio.gather(
                    *(player(u, seen[i]) for i, u in enumerate(urls)),
                    spectator(base.format(port_a), seen[3]),
                )
                return results, seen

            results, seen = run_async(scenario())
    final = results[0]["seq"]
    assert final == 45  # one game: 15 tricks of three commits
    for seqs in seen:
        assert seqs[-1] == final  # the first seq depends on when the socket connected
        steps = {b - a for a, b in itertools.pairwise(seqs)}
        assert steps <= {0, 1}, f"a gap or a step back: {seqs}"
    assert results[0]["result"]["complete"] is True


async def spectator(url: str, seen: list[int]) -> dict:
    async with websockets.connect(url) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            seen.append(message["seq"])
            assert "hand" not in message["view"]
            if message["status"] == "finished":
                return message
