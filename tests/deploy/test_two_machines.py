"""Two machines behind one entry, as docs/deployment.md ("Several machines") lays them out, on
one host: each "machine" is a loopback address of its own with its own folders, and they share
only what the docs say they share (PostgreSQL, Redis, the environment's secrets, the static
files on the entry).

- entry (127.0.0.20): nginx, connecting to the table servers from its own address (`--bind`),
  which is the only address in TRUSTED_PROXIES;
- machine A (127.0.0.21): a table server, the bots' worker and beat, its own metrics folder;
- machine B (127.0.0.22): a table server on the same port, the default queue's worker, its own
  metrics folder, and `metrics_server.py` for Prometheus.

Tables are played through the entry to their end, with every table's seats on one machine; a
client's X-Forwarded-For is dropped at the entry, and a peer that is not the entry (a process on
machine A's network talking to B directly) is not believed either; each machine's figures are
its own processes' (bots' moves on A, the clock's on B).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from config.deploy import local
from tests.deploy.cluster import (
    CLIENT,
    LIMIT,
    REDIS_DB,
    TABLES,
    Deployment,
    Proc,
    attempt_addresses,
    check_tables,
    create_tables,
    play_seat,
    request,
    request_to,
    require_nginx,
    scrape,
    seats_for,
    total,
)
from tests.procs import BIN, ROOT, free_port, manage, procfile_commands, run_async, wait_for_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

ENTRY, A, B = "127.0.0.20", "127.0.0.21", "127.0.0.22"
METRICS_PORT = 9108  # metrics_server.py on machine B (a port of B's own address)


def web_command(host: str, port: int) -> list[str]:
    """The Procfile's web line as docs/deployment.md has it changed on another machine: the
    machine's private address in place of 127.0.0.1."""
    args = shlex.split(procfile_commands()["web"])
    args[args.index("--host") + 1] = host
    args[args.index("--port") + 1] = str(port)
    return args


@pytest.fixture
def two_machines(tmp_path: Path) -> Iterator[tuple[Deployment, dict[str, str]]]:
    require_nginx()
    import psycopg
    import redis

    admin = urlparse(os.environ["DATABASE_URL"])
    name = f"mediana_two_{uuid.uuid4().hex[:8]}"
    redis_url = urlunparse(urlparse(os.environ["REDIS_URL"])._replace(path=f"/{REDIS_DB + 1}"))
    redis.Redis.from_url(redis_url).flushdb()
    listen = f"127.0.0.1:{free_port()}"
    port = free_port()
    base = {k: v for k, v in os.environ.items() if k not in ("CELERY_EAGER", "DEBUG")}
    base.update(
        DATABASE_URL=urlunparse(admin._replace(path=f"/{name}")),
        REDIS_URL=redis_url,
        STATIC_ROOT=str(tmp_path / "entry" / "static"),
        LOGIN_FAILURE_LIMIT=str(LIMIT),
        GAMEPLAY_BOT_DELAY="0.05",
        GAMEPLAY_DEAL_SUMMARY_SECONDS="0",
    )
    shared = local.environment(tmp_path / "secrets", listen, base)
    shared["TRUSTED_PROXIES"] = ENTRY  # the entry machine only: not 127.0.0.1
    # Prometheus and the health checks reach each table server at its private address.
    shared["ALLOWED_HOSTS"] += f",{A},{B}"
    machines = {}
    for machine in ("entry", "a", "b"):
        env = dict(shared)
        env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path / machine / "metrics")
        env["MEDIANA_VAR_DIR"] = str(tmp_path / machine / "var")
        Path(env["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True)
        machines[machine] = env
    logs = tmp_path / "logs"
    logs.mkdir()
    procs: dict[str, Proc] = {}

    def start(name: str, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        log = logs / f"{name}.log"
        popen = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        procs[name] = Proc(name, popen, log)

    try:
        local.create_database(shared["DATABASE_URL"])
        manage(machines["entry"], "migrate", "--no-input", "-v0")
        manage(machines["entry"], "collectstatic", "--no-input", "-v0")
        render = [str(BIN / "python"), str(ROOT / "config/deploy/render_nginx.py")]
        render += ["--local", str(tmp_path / "entry" / "nginx"), "--listen", listen]
        render += ["--servers", f"{A}:{port},{B}:{port}", "--bind", ENTRY]
        render += ["--static-root", shared["STATIC_ROOT"]]
        subprocess.run(render, check=True, stdout=subprocess.DEVNULL)
        conf = tmp_path / "entry" / "nginx" / "nginx.conf"
        # Each machine runs from its own folder (beat's `--schedule var/…` is the machine's).
        for machine in ("a", "b"):
            (tmp_path / machine / "var").mkdir(exist_ok=True)
        commands = procfile_commands()
        start("web.a", [str(BIN / "uvicorn"), *web_command(A, port)[1:]], machines["a"], ROOT)
        start("web.b", [str(BIN / "uvicorn"), *web_command(B, port)[1:]], machines["b"], ROOT)
        for machine, kind in (("a", "bots"), ("a", "beat"), ("b", "worker")):
            argv = shlex.split(commands[kind].replace(".venv/bin/", f"{BIN}/"))
            if kind == "beat":
                argv[argv.index("--schedule") + 1] = str(tmp_path / "a" / "var" / "beat")
            start(f"{kind}.{machine}", argv, machines[machine], ROOT)
        metrics_server = [str(BIN / "python"), str(ROOT / "config/deploy/metrics_server.py")]
        start(
            "metrics.b",
            [*metrics_server, "--host", B, "--port", str(METRICS_PORT)],
            machines["b"],
            ROOT,
        )
        nginx = [local.NGINX, "-p", str(conf.parent), "-c", str(conf), "-e", "stderr"]
        start("nginx", nginx, machines["entry"], ROOT)
        for host, proc in ((A, "web.a"), (B, "web.b")):
            wait_for_port(port, procs[proc].popen, timeout=60, host=host)
        wait_for_port(METRICS_PORT, procs["metrics.b"].popen, timeout=30, host=B)
        wait_for_port(int(listen.rpartition(":")[2]), procs["nginx"].popen, timeout=30)
        manage(
            machines["entry"],
            "shell",
            "-c",
            "from accounts.models import User; User.objects.create_user('ann')",
        )
        yield (
            Deployment(machines["entry"], listen, procs, logs),
            {
                "a": f"{A}:{port}",
                "b": f"{B}:{port}",
                "b_metrics": f"{B}:{METRICS_PORT}",
            },
        )
    finally:
        for proc in procs.values():
            proc.stop()
        with psycopg.connect(urlunparse(admin._replace(path="/postgres")), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(redis_url).flushdb()


def failed_logins(address: str, source: str) -> list[int]:
    """Wrong passwords for `ann`, each with another forged X-Forwarded-For; the statuses."""
    statuses = []
    for n in range(LIMIT + 2):
        statuses.append(
            request_to(
                address,
                "POST",
                "/api/token/",
                source=source,
                body=json.dumps({"username": "ann", "password": "wrong"}),
                headers={
                    "Content-Type": "application/json",
                    "X-Forwarded-For": f"198.51.100.{n}",
                },
            )[0]
        )
    return statuses


def test_two_machines_share_only_the_database_redis_and_the_secrets(two_machines):
    dep, at = two_machines
    assert request(dep, "GET", "/static/css/site.css")[0] == 200
    tables = create_tables(dep)

    async def play() -> list:
        seats = seats_for(tables)
        deadline = time.monotonic() + 240
        await asyncio.gather(*(play_seat(dep, s, deadline) for s in seats))
        return seats

    seats = run_async(play())
    assert all(s.finished for s in seats), [(s.table, s.seat, s.seq) for s in seats]
    checked = check_tables(dep, tables)
    assert checked["finished"] == TABLES, checked
    assert not checked["replay_mismatch"] and not checked["log_holes"], checked
    assert checked["actions"].get("timeout", 0) >= 1, checked

    # Every table's seats on one machine, and both machines in use or all on one.
    on_a, on_b = set(dep.procs["web.a"].tables()), set(dep.procs["web.b"].tables())
    assert not on_a & on_b and on_a | on_b == {t["id"] for t in tables}, (on_a, on_b)

    # Through the entry: the client's own address, whatever it wrote.
    assert failed_logins(dep.listen, CLIENT)[LIMIT:] == [429, 429]
    assert attempt_addresses(dep) == [CLIENT]
    # A peer that is not the entry (a process on machine A, talking to B's table server
    # directly) is believed about nothing it writes: its attempts count for its own address.
    assert failed_logins(at["b"], A)[LIMIT:] == [429, 429]
    assert attempt_addresses(dep) == sorted([CLIENT, A])

    # Each machine's figures are its own processes': bots move on A (its bots' worker), the
    # clock on B (beat on A queues the sweep; B's worker runs it and applies the timeout).
    token = {"Authorization": f"Bearer {dep.env['METRICS_TOKEN']}"}
    on_machine_a = scrape(dep, source=A, address=at["a"])
    assert total(on_machine_a, 'mediana_moves_total{kind="bot"}') > 0
    assert total(on_machine_a, 'mediana_moves_total{kind="timeout"}') == 0
    status, _, body = request_to(at["b_metrics"], "GET", "/metrics", source=B, headers=token)
    assert status == 200
    on_machine_b = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            on_machine_b[series] = float(value)
    assert (
        total(on_machine_b, 'mediana_moves_total{kind="timeout"}') == checked["actions"]["timeout"]
    )
    assert total(on_machine_b, 'mediana_moves_total{kind="bot"}') == 0
    # Nothing counted twice nor lost: the people's moves of both machines are the logs'.
    players = [total(m, 'mediana_moves_total{kind="player"}') for m in (on_machine_a, on_machine_b)]
    assert sum(players) == checked["actions"]["player"], players
