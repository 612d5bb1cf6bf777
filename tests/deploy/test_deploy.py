"""The deployment as the repository ships it, run as a whole (issue "Run it for real").

Everything is started exactly from the repository's files, as `make deploy-local` starts it
(config/deploy/local.py): the Procfile's processes (two uvicorn table servers, a worker for
each queue, one beat) as honcho's own parser expands them, and Debian's nginx with the config
rendered from config/deploy/nginx.conf, on PostgreSQL and Redis. Then, all through nginx:

- tables are played by socket clients, two people and a bot at each, one person sleeping
  through a turn so the turn clock (beat, then the worker) moves for them;
- every seat of a table reaches one table server (the servers' own handshake lines say which);
- the server with most tables is killed with SIGKILL: its clients reconnect through nginx to
  the other, and every table plays on to its end, its log replaying to its result;
- X-Forwarded-For written by a client is dropped: rotating it does not get past the log-in
  lockout, and the attempts are counted for the client's own address;
- /metrics adds up every process's figures (the killed one's sockets forgotten), and they moved;
- nginx's and the servers' logs hold no seat token.
"""

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from config.deploy import local
from games.core.bots.common import expand_random
from tests.procs import ROOT, free_port, manage, run_async, wait_for_port

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


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    require_nginx()
    import psycopg
    import redis

    admin = urlparse(os.environ["DATABASE_URL"])
    name = f"mediana_deploy_{uuid.uuid4().hex[:8]}"
    redis_url = urlunparse(urlparse(os.environ["REDIS_URL"])._replace(path=f"/{REDIS_DB}"))
    redis.Redis.from_url(redis_url).flushdb()
    listen = f"127.0.0.1:{free_port()}"
    base = {k: v for k, v in os.environ.items() if k not in ("CELERY_EAGER", "DEBUG")}
    base["DATABASE_URL"] = urlunparse(admin._replace(path=f"/{name}"))
    base["REDIS_URL"] = redis_url
    base["STATIC_ROOT"] = str(tmp_path / "static")
    base["LOGIN_FAILURE_LIMIT"] = str(LIMIT)
    base["GAMEPLAY_BOT_DELAY"] = "0.05"
    base["GAMEPLAY_DEAL_SUMMARY_SECONDS"] = "0"
    base["GAMEPLAY_BOT_REQUEUE_AFTER"] = "3"  # a bot due on the killed server moves soon
    env = local.environment(tmp_path / "var", listen, base)
    first = free_pair()
    logs = tmp_path / "logs"
    logs.mkdir()
    procs: dict[str, Proc] = {}
    try:
        conf = local.prepare(env, tmp_path / "var", 2, listen, demo=False, first_port=first)
        for proc_name, argv, proc_env in local.processes(env, 2, conf, first_port=first):
            log = logs / f"{proc_name}.log"
            popen = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=proc_env,
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            procs[proc_name] = Proc(proc_name, popen, log)
        for i, web in enumerate(p for n, p in procs.items() if n.startswith("web.")):
            wait_for_port(first + i, web.popen, timeout=60)
        wait_for_port(int(listen.rpartition(":")[2]), procs["nginx"].popen, timeout=30)
        manage(
            env, "shell", "-c", "from accounts.models import User; User.objects.create_user('ann')"
        )
        yield Deployment(env, listen, procs, logs)
    finally:
        for proc in procs.values():
            proc.stop()
        with psycopg.connect(urlunparse(admin._replace(path="/postgres")), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(redis_url).flushdb()


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
    finished: bool = False
    seq: int = -1


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
            pass
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


async def play_all(dep: Deployment, tables: list[dict]) -> dict:
    """Every person seat played at once; once every table is at KILL_AT_SEQ, the table server
    holding most tables is killed. What was killed and when."""
    seats = [
        Seat(t["id"], seat, token, sleeps=CLOCK + 1.5 if (i == 0 and seat == 0) else 0)
        for i, t in enumerate(tables)
        for seat, token in t["people"]
    ]
    deadline = time.monotonic() + 240
    tasks = [asyncio.create_task(play_seat(dep, s, deadline)) for s in seats]
    while min(s.seq for s in seats) < KILL_AT_SEQ and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not any(s.finished for s in seats), "a table finished before the kill"
    before = {web.name: web.tables() for web in dep.webs()}
    victim = max(dep.webs(), key=lambda w: len(before[w.name]))
    victim.kill()
    killed = {"name": victim.name, "tables": set(before[victim.name]), "before": before}
    await asyncio.gather(*tasks)
    killed["seats"] = seats
    return killed


# ------------------------------------------------------------------ HTTP through nginx
def request(dep: Deployment, method: str, path: str, source: str = CLIENT, **kw) -> tuple:
    """One HTTP request to nginx from the loopback address `source`; (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", dep.port, timeout=15, source_address=(source, 0))
    try:
        conn.request(method, path, **kw)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def scrape(dep: Deployment, source: str = "127.0.0.1") -> dict[str, float]:
    status, _, body = request(
        dep,
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


# ------------------------------------------------------------------ the test
def test_the_shipped_deployment_plays_through_nginx_and_survives_a_dead_server(deployment):
    dep = deployment
    # Static files come from nginx (collectstatic's folder), pages from a table server.
    assert request(dep, "GET", "/static/css/site.css")[0] == 200
    status, _, body = request(dep, "GET", "/healthz")
    assert status == 200 and json.loads(body)["status"] == "up"
    # /metrics: refused without the token, and by nginx from an address it does not allow.
    assert request(dep, "GET", "/metrics", source="127.0.0.1")[0] == 401
    assert request(dep, "GET", "/metrics", source=CLIENT)[0] == 403
    before = scrape(dep)

    tables = create_tables(dep)
    killed = run_async(play_all(dep, tables))

    # Every table finished, through the other server for the killed one's tables.
    seats = killed["seats"]
    assert all(s.finished for s in seats), [(s.table, s.seat, s.seq) for s in seats]
    moved = {s.table for s in seats if s.connections > 1}
    assert killed["tables"] and killed["tables"] <= {t["id"] for t in tables}
    assert {s.table for s in seats if s.table in killed["tables"]} <= moved
    checked = check_tables(dep, tables)
    assert checked["finished"] == TABLES, checked
    assert not checked["replay_mismatch"] and not checked["log_holes"], checked
    assert checked["actions"].get("timeout", 0) >= 1, checked  # the clock moved for a sleeper

    # Before the kill, every seat of a table reached one server: no table on both.
    first, second = (set(c) for c in killed["before"].values())
    assert not first & second and first | second == {t["id"] for t in tables}, killed["before"]
    # After it, the survivor served the killed server's tables.
    survivor = next(w for w in dep.webs() if w.name != killed["name"])
    assert killed["tables"] <= set(survivor.tables())

    # A client's X-Forwarded-For is dropped by nginx: rotating it does not escape the lockout,
    # and every attempt counts for the client's own address.
    statuses = []
    for n in range(LIMIT + 2):
        statuses.append(
            request(
                dep,
                "POST",
                "/api/token/",
                body=json.dumps({"username": "ann", "password": "wrong"}),
                headers={"Content-Type": "application/json", "X-Forwarded-For": f"203.0.113.{n}"},
            )[0]
        )
    assert statuses == [400] * (LIMIT - 1) + [429] * 3, statuses
    assert attempt_addresses(dep) == [CLIENT]

    # The metrics add up every process's figures, and they moved.
    after = scrape(dep)
    grew = lambda prefix: total(after, prefix) > total(before, prefix)  # noqa: E731
    assert grew('mediana_moves_total{kind="player"}')
    assert grew('mediana_moves_total{kind="bot"}')  # played by the bots' worker
    assert grew('mediana_moves_total{kind="timeout"}')  # the clock, from beat and the worker
    assert grew('mediana_move_seconds_count{outcome="applied"}')
    assert grew("mediana_states_published_total")
    assert grew('mediana_bot_lag_seconds_count{level="basic"}')
    assert grew("mediana_http_request_seconds_count")
    assert grew("mediana_db_pool_requests_total")  # sampled in every table server
    assert 'mediana_queue_depth{queue="bots"}' in after
    assert after["mediana_clock_sweep_age_seconds"] < 10  # beat sweeps every second
    # Every client has gone: no socket counted, the killed server's included.
    assert total(after, "mediana_sockets{") == 0, {
        k: v for k, v in after.items() if k.startswith("mediana_sockets")
    }

    # No seat token in any log: nginx's (which writes no URL) and every process's.
    nginx_logs = (Path(dep.env["PROMETHEUS_MULTIPROC_DIR"]).parent / "nginx").glob("*.log")
    for path in [*dep.logs.iterdir(), *nginx_logs]:
        text = path.read_text(errors="replace")
        leaked = [t for t in dep.tokens if t in text]
        assert not leaked, path.name
