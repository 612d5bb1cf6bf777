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
import json
import os
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
    KILL_AT_SEQ,
    LIMIT,
    REDIS_DB,
    TABLES,
    Deployment,
    Proc,
    attempt_addresses,
    check_tables,
    create_tables,
    free_pair,
    play_seat,
    request,
    require_nginx,
    scrape,
    seats_for,
    total,
)
from tests.procs import ROOT, free_port, manage, run_async, wait_for_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


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


async def play_all(dep: Deployment, tables: list[dict]) -> dict:
    """Every person seat played at once; once every table is at KILL_AT_SEQ, the table server
    holding most tables is killed. What was killed and when."""
    seats = seats_for(tables)
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
