"""What the deployment tests share: processes started from the repository's files, socket
clients that play a seat through nginx, HTTP from a loopback address of the test's own, and
reading the metrics."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.core.bots.common import expand_random
from tests.procs import free_port, manage

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

NGINX = Path(shutil.which("nginx") or "/usr/sbin/nginx")
LIMIT = 3  # LOGIN_FAILURE_LIMIT of this deployment
REDIS_DB = 13  # the deployment's own Redis database: its queues are nobody else's
TABLES = 6
CLOCK = 5  # the first table's turn clock, seconds a move
THINK = 0.2  # seconds a client thinks before each move
KILL_AT_SEQ = 4  # the kill comes once every table has reached this seq (the clock's too)
GAMES = ("saichugen", "three_five_eight", "schieberamsch")
CLIENT = "127.0.0.5"  # the test's client, a loopback address of its own (nginx's is 127.0.0.1)
HANDSHAKE = re.compile(r'"WebSocket /ws/tables/([^/]+)/')


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log: Path

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def tables(self) -> Counter:
        """Tables whose sockets this server accepted (uvicorn logs each handshake's path)."""
        return Counter(HANDSHAKE.findall(self.log.read_text(errors="replace")))


@dataclass
class Deployment:
    env: dict[str, str]
    listen: str
    procs: dict[str, Proc]
    logs: Path
    tokens: list[str] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.listen.rpartition(":")[2])

    def webs(self) -> list[Proc]:
        return [p for name, p in self.procs.items() if name.startswith("web.")]


def require_nginx() -> None:
    if not NGINX.exists():
        if os.environ.get("MEDIANA_REQUIRE_SERVICES") == "1":
            pytest.fail("the deployment test needs Debian's nginx (.ci/run installs it)")
        pytest.skip("no nginx (apt-get install nginx-light)")


def free_pair() -> int:
    """A port p with p and p+1 free: the two table servers' (honcho numbers them so)."""
    for _ in range(50):
        port = free_port()
        try:
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise RuntimeError("no two free ports in a row")


# ------------------------------------------------------------------ the tables
def create_tables(dep: Deployment) -> list[dict]:
    """Two people and a bot at each table, two deals; the first table has a turn clock."""
    tables = []
    for n in range(TABLES):
        game = GAMES[n % len(GAMES)]
        args = ["create_table", f"--game={game}", f"--players=p{n}a,p{n}b,bot{n}", "--bots=1"]
        args += ["--deals=2", "--unrated"]
        if n == 0:
            args.append(f"--seconds-per-move={CLOCK}")
        created = json.loads(manage(dep.env, *args))
        people = [(s["seat"], s["token"]) for s in created["seats"][:2]]
        dep.tokens += [s["token"] for s in created["seats"]]
        tables.append({"id": created["table"], "game": game, "people": people})
    return tables


@dataclass
class Seat:
    table: str
    seat: int
    token: str
    sleeps: float = 0.0  # seconds it ignores its turns from the first one (the clock plays)
    awake_at: float | None = None
    connections: int = 0
    drops: int = 0  # connections that ended or failed before the table finished
    finished: bool = False
    seq: int = -1


def seats_for(tables: list[dict]) -> list[Seat]:
    """Every person's seat; the first seat of the first table (which has a clock) sleeps
    through its first turn, so the clock moves for it."""
    return [
        Seat(t["id"], seat, token, sleeps=CLOCK + 1.5 if (i == 0 and seat == 0) else 0)
        for i, t in enumerate(tables)
        for seat, token in t["people"]
    ]


async def play_seat(dep: Deployment, seat: Seat, deadline: float) -> None:
    """Play one seat through nginx with random legal actions; reconnect whenever the socket
    drops (its server was killed) until the table is finished."""
    import websockets

    rng = random.Random(f"{seat.table}/{seat.seat}")
    url = f"ws://{dep.listen}/ws/tables/{seat.table}/?token={seat.token}"
    while not seat.finished and time.monotonic() < deadline:
        try:
            async with websockets.connect(url, open_timeout=10, max_size=2**22) as ws:
                seat.connections += 1
                await play_on(ws, seat, rng, deadline)
        except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.ConnectionClosed):
            seat.drops += 1  # its server died or refused: reconnect through nginx, as a page does
        if not seat.finished:
            await asyncio.sleep(0.3)


async def latest(ws, msg: dict) -> dict:
    """The newest state already received after `msg` (a client acts on what it shows now)."""
    while True:
        try:
            nxt = json.loads(await asyncio.wait_for(ws.recv(), 0.01))
        except TimeoutError:
            return msg
        if nxt.get("type") == "state":
            msg = nxt


async def play_on(ws, seat: Seat, rng: random.Random, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except TimeoutError:
            await ws.send(json.dumps({"type": "sync"}))
            continue
        if msg.get("type") != "state":
            continue
        if msg["status"] == "playing" and msg["legal"]:
            await asyncio.sleep(THINK)  # a person's pace: the kill comes while tables are in play
            msg = await latest(ws, msg)
        seat.seq = max(seat.seq, msg["seq"])
        if msg["status"] == "finished":
            seat.finished = True
            return
        if not msg["legal"]:
            continue
        if seat.sleeps and seat.awake_at is None:
            seat.awake_at = time.monotonic() + seat.sleeps
        if seat.awake_at is not None and time.monotonic() < seat.awake_at:
            continue  # asleep: the turn clock moves for this seat
        action = expand_random(rng.choice(msg["legal"]), rng)
        await ws.send(
            json.dumps({"type": "act", "seq": msg["seq"], "id": uuid.uuid4().hex, "action": action})
        )


# ------------------------------------------------------------------ HTTP through nginx
def request(dep: Deployment, method: str, path: str, source: str = CLIENT, **kw) -> tuple:
    """One HTTP request to nginx from the loopback address `source`; (status, headers, body)."""
    return request_to(dep.listen, method, path, source, **kw)


def request_to(address: str, method: str, path: str, source: str = CLIENT, **kw) -> tuple:
    """One HTTP request to `host:port` from the loopback address `source`."""
    host, _, port = address.rpartition(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=15, source_address=(source, 0))
    try:
        conn.request(method, path, **kw)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def scrape(dep: Deployment, source: str = "127.0.0.1", address: str = "") -> dict[str, float]:
    """/metrics through nginx (or from `address` directly), summed by series."""
    status, _, body = request_to(
        address or dep.listen,
        "GET",
        "/metrics",
        source=source,
        headers={"Authorization": f"Bearer {dep.env['METRICS_TOKEN']}"},
    )
    assert status == 200, (status, body[:200])
    figures: dict[str, float] = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            figures[name] = figures.get(name, 0.0) + float(value)
    return figures


def total(figures: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in figures.items() if k.startswith(prefix))


def attempt_addresses(dep: Deployment) -> list[str]:
    code = (
        "import json; from axes.models import AccessAttempt; "
        "print(json.dumps(sorted(set(AccessAttempt.objects.values_list('ip_address', "
        "flat=True)))))"
    )
    return json.loads(manage(dep.env, "shell", "--no-imports", "-c", code))


def check_tables(dep: Deployment, tables: list[dict]) -> dict:
    code = (
        "import json, sys; sys.path.insert(0, '.'); from bench.chaos import check_tables; "
        f"print(json.dumps(check_tables({json.dumps([{'id': t['id']} for t in tables])})))"
    )
    return json.loads(manage(dep.env, "shell", "--no-imports", "-c", code).splitlines()[-1])
