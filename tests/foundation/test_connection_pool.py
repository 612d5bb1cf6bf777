"""A real uvicorn on PostgreSQL holds no more database connections than its pool allows.

Under ASGI every HTTP request runs in a thread of its own. With persistent connections
(CONN_MAX_AGE > 0) each finished thread left its connection open until the garbage collector
found it, so a few hundred anonymous GETs used up the server's max_connections. The pool
(DB_POOL_SIZE) bounds them per process whatever the load.
"""

from __future__ import annotations

import asyncio
import json
import threading
from urllib.parse import urlparse, urlunparse

import psycopg
import pytest
import websockets

from league.management.commands.load_demo import DEMO_EVENT
from tests.gameplay.test_scale import shared_database
from tests.procs import manage, run_async, uvicorn_server

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

POOL_SIZE = 4
TAG = "mediana-pool-test"  # application_name of the server's connections
REQUESTS = 400
IN_FLIGHT = 32  # requests open at once: 8 times the pool
SOCKETS = 40  # spectators of a table: the consumer's service calls use the pool too


class ConnectionWatch:
    """Count the server's connections in pg_stat_activity until stopped; remember the most.

    `over` is set as soon as the count passes the limit, so the burst stops at once: a server
    that leaks connections must not use up a database server other tests share.
    """

    def __init__(self, admin_url: str, database: str, limit: int) -> None:
        self.admin_url, self.database, self.limit = admin_url, database, limit
        self.most = 0
        self.samples = 0
        self.over = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def count(self, conn: psycopg.Connection) -> int:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [self.database, TAG],
        ).fetchone()
        return row[0]

    def _run(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while not self._stop.is_set():
                seen = self.count(conn)
                self.most = max(self.most, seen)
                self.samples += 1
                if seen > self.limit:
                    self.over.set()
                self._stop.wait(0.01)

    def __enter__(self) -> ConnectionWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)


async def get(port: int, path: str) -> int:
    """One HTTP/1.1 GET on a connection of its own; the status code."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    response = await asyncio.wait_for(reader.read(), 60)
    writer.close()
    return int(response.split(b" ", 2)[1])


async def spectate(port: int, table: str) -> int:
    """Watch a table until its first state arrives; that state's seq."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table}/") as ws:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
    assert message["type"] == "state", message
    return message["seq"]


async def burst(port: int, paths: list[str], table: str, over: threading.Event) -> dict:
    """REQUESTS GETs over `paths` and SOCKETS spectators, IN_FLIGHT at a time; stops when the
    watch sees too many connections."""
    gate = asyncio.Semaphore(IN_FLIGHT)
    statuses: dict[str, list[int]] = {path: [] for path in paths}
    seqs: list[int] = []

    async def one(i: int) -> None:
        async with gate:
            if over.is_set():
                return
            if i % (REQUESTS // SOCKETS) == 0:
                seqs.append(await spectate(port, table))
            else:
                path = paths[i % len(paths)]
                statuses[path].append(await get(port, path))

    await asyncio.gather(*(one(i) for i in range(REQUESTS)))
    return {"statuses": statuses, "seqs": seqs}


def test_a_burst_of_requests_stays_within_the_pool(tmp_path):
    with shared_database(tmp_path) as env:
        # The data, made by commands before the server starts (eager Celery: bots play inline).
        commands = {k: v for k, v in env.items() if k != "REDIS_URL"}
        manage(commands, "load_demo", "--password=pool-test-password")
        created = json.loads(
            manage(commands, "create_table", "--game=saichugen", "--players=b0,b1,b2", "--bots=3")
        )
        table = created["table"]
        paths = [
            "/",
            "/events/",
            f"/events/{DEMO_EVENT}/",
            "/api/events/",
            f"/tables/{table}/",
            f"/tables/{table}/record.json",
        ]
        url = urlparse(env["DATABASE_URL"])
        database = url.path.lstrip("/")
        server_env = {
            **env,
            "DATABASE_URL": urlunparse(url._replace(query=f"application_name={TAG}")),
            "DB_POOL_SIZE": str(POOL_SIZE),
        }
        admin_url = urlunparse(url._replace(path="/postgres"))
        with (
            uvicorn_server(server_env) as port,
            ConnectionWatch(admin_url, database, POOL_SIZE) as watch,
        ):
            done = run_async(burst(port, paths, table, watch.over))
            # Idle after the burst: still within the pool (no finished thread keeps one open).
            watch.over.wait(2)

    assert watch.samples > 0 and watch.most >= 1, "the watch never saw the server's connections"
    assert watch.most <= POOL_SIZE, (
        f"the server held {watch.most} connections with a pool of {POOL_SIZE}"
    )
    statuses = done["statuses"]
    assert sum(len(s) for s in statuses.values()) == REQUESTS - SOCKETS
    assert {path: set(s) for path, s in statuses.items()} == {path: {200} for path in paths}
    assert len(done["seqs"]) == SOCKETS and len(set(done["seqs"])) == 1  # a finished table
