"""Benchmark the table server: N tables, every seat a real WebSocket client.

    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python bench/tables.py --tables 300 --rate 1 --duration 30 --servers 1

Starts `--servers` uvicorn processes (Redis Pub/Sub layer, PostgreSQL), creates the tables
through the service layer, connects one `websockets` client per seat (seats spread over the
servers round-robin, so with two servers most fan-out crosses processes) and has every table
make one legal move per 1/rate seconds. Reports applied moves/s, the latency from sending an
action to the last seat of the table receiving its `state` (p50/p99), seq gaps (must be 0),
errors, and server CPU per move (utime+stime of the server processes over the run), plus the
bench client's own CPU, how busy the machine was and when the last socket got its first state.
`--placement table` puts all seats of a table on one server; `--connect` benches servers that are
already running (e.g. under a profiler). Figures: docs/performance.md ("Tables").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gameplay.bots.common import expand_random  # noqa: E402  (pure: no Django needed)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def expand(entry: dict[str, Any]) -> dict[str, Any]:
    """A legal action from a legal-list entry (templates filled the same way each time)."""
    return expand_random(entry, random.Random(0))


class LoopLag:
    """How late the event loop wakes a task that sleeps `interval` (its worst, since reset)."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.worst = 0.0

    def reset(self) -> None:
        self.worst = 0.0

    async def run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.worst = max(self.worst, time.perf_counter() - start - self.interval)


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (table, seq acted on) -> send time
        self.received: dict[tuple[str, int], list[float]] = {}
        self.latencies: list[float] = []
        self.gaps = 0
        self.errors: dict[str, int] = {}
        self.applied = 0
        self.measuring = False
        self.next_move: dict[str, float] = {}
        self.sockets = 0
        self.connected = 0  # sockets that received their first state
        self.all_connected_at: float | None = None


async def seat_client(
    url: str, table: str, seat: int, n_seats: int, stats: Stats, pace: float, stop: asyncio.Event
) -> None:
    import websockets

    last = -1
    first = True
    async with websockets.connect(url, max_size=2**22) as ws:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            now = time.monotonic()
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                continue
            seq = msg["seq"]
            if first:
                first = False
                stats.connected += 1
                if stats.connected == stats.sockets:
                    stats.all_connected_at = now
            if last >= 0 and seq > last + 1:
                stats.gaps += seq - last - 1
            last = max(last, seq)
            key = (table, seq - 1)
            got = stats.received.setdefault(key, [])
            got.append(now)
            if len(got) == n_seats and key in stats.sent:
                if stats.measuring:
                    stats.latencies.append(now - stats.sent.pop(key))
                    stats.applied += 1
                else:
                    stats.sent.pop(key)
                stats.received.pop(key, None)
            if msg["status"] != "playing" or not msg["legal"]:
                continue
            # One move per `pace` per table, whichever seat is to act, each table on its own
            # random phase, drawn once the table is connected (drawn before, every table would
            # be overdue when its sockets came up and they would all move in step).
            slot = stats.next_move.setdefault(table, now + random.random() * pace)
            wait = slot - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            stats.next_move[table] = next_slot(slot, pace, time.monotonic())
            stats.sent[(table, seq)] = time.monotonic()
            action = {"type": "act", "seq": seq, "action": expand(msg["legal"][0])}
            await ws.send(json.dumps(action))


def next_slot(slot: float, pace: float, now: float) -> float:
    """The table's next move time: one pace on, skipping slots already missed, so a table that
    fell behind keeps its phase instead of falling into step with the others."""
    slot += pace
    if slot < now:
        slot += math.ceil((now - slot) / pace) * pace
    return slot


def setup_tables(n: int, game: str, spectators: bool = True) -> list[dict[str, Any]]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from gameplay.engines import registry
    from gameplay.models import Seat
    from gameplay.services.create import SeatSpec, create_table

    seats = registry.get_game(game).seats
    User = get_user_model()
    wanted = [f"bench{i}-{s}" for i in range(n) for s in range(seats)]
    have = set(User.objects.filter(username__in=wanted).values_list("username", flat=True))
    User.objects.bulk_create(User(username=u, password="!") for u in wanted if u not in have)
    users = dict(User.objects.filter(username__in=wanted).values_list("username", "pk"))
    out = []
    for i in range(n):
        names = [f"bench{i}-{s}" for s in range(seats)]
        # One account per seat (a seat with neither account nor bot is an open lobby seat);
        # the bench clients play them by seat token, as a bot account would.
        table = create_table(
            game,
            [SeatSpec(nm, user_id=users[nm]) for nm in names],
            n_deals=200,
            seed=i,
            allow_spectators=spectators,
        )
        tokens = dict(Seat.objects.filter(table=table).values_list("number", "token"))
        out.append({"id": table.id, "tokens": [tokens[s] for s in range(seats)]})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--servers", type=int, default=1, help="uvicorn processes to start")
    parser.add_argument("--game", default="three_five_eight")
    parser.add_argument(
        "--placement",
        choices=["seat", "table"],
        default="seat",
        help="spread sockets over the servers seat by seat (default) or table by table",
    )
    parser.add_argument(
        "--no-spectators",
        action="store_true",
        help="tables that do not allow spectators (no spectator state is built or published)",
    )
    parser.add_argument(
        "--connect",
        default="",
        help="comma-separated ports of servers already running (e.g. under a profiler) "
        "instead of starting --servers uvicorn processes",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ.setdefault("SECRET_KEY", "bench-secret-key")
    tables = setup_tables(args.tables, args.game, spectators=not args.no_spectators)
    from tests.procs import service_env, uvicorn_server

    env = service_env()
    from contextlib import ExitStack

    with ExitStack() as stack:
        if args.connect:
            ports = [int(p) for p in args.connect.split(",")]
            args.servers = len(ports)
        else:
            ports = [stack.enter_context(uvicorn_server(env)) for _ in range(args.servers)]
        pids = [server_pid(port) for port in ports]
        result = asyncio.run(run(args, tables, ports, pids))
    print(json.dumps(result))


def server_pid(port: int) -> int:
    """The uvicorn process listening on `port` (started by tests.procs.uvicorn_server)."""
    import subprocess

    out = subprocess.run(
        ["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True
    ).stdout
    return int(out.split("pid=")[1].split(",")[0])


async def run(args: Any, tables: list[dict], ports: list[int], pids: list[int]) -> dict:
    stats = Stats()
    stats.sockets = sum(len(t["tokens"]) for t in tables)
    stop = asyncio.Event()
    pace = 1.0 / args.rate
    clients = []
    k = 0
    for i, t in enumerate(tables):
        n = len(t["tokens"])
        for seat, token in enumerate(t["tokens"]):
            # by seat: a table's seats on different servers (most fan-out crosses processes);
            # by table: all its seats on one server (as a proxy hashing on the table id would).
            port = ports[(k if args.placement == "seat" else i) % len(ports)]
            k += 1
            url = f"ws://127.0.0.1:{port}/ws/tables/{t['id']}/?token={token}"
            clients.append(seat_client(url, t["id"], seat, n, stats, pace, stop))
    # The client is measured too: its own pauses would count as server latency. No cyclic
    # garbage collection while it runs (a full collection of its heap stalled it 50-250 ms, a
    # young one 10-50 ms), and a probe of its event loop's lag is reported with the figures.
    gc.collect()
    gc.freeze()
    gc.disable()
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    started = time.monotonic()
    tasks = [asyncio.create_task(c) for c in clients]
    await asyncio.sleep(args.warmup)
    cpu0 = sum(cpu_seconds(p) for p in pids)
    client0 = time.process_time()
    busy0, total0 = machine_busy()
    t0 = time.monotonic()
    stats.measuring = True
    lag.reset()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    client_lag = lag.worst
    elapsed = time.monotonic() - t0
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    client_cpu = time.process_time() - client0
    busy1, total1 = machine_busy()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lag_task.cancel()
    gc.enable()
    lat = sorted(stats.latencies)
    return {
        "tables": args.tables,
        "servers": args.servers,
        "placement": args.placement,
        "game": args.game,
        "target_moves_per_s": args.tables * args.rate,
        "moves_per_s": round(stats.applied / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
        "p99_ms": round(lat[int(len(lat) * 0.99) - 1] * 1000, 1) if lat else None,
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "seq_gaps": stats.gaps,
        "errors": stats.errors,
        "server_cpu_ms_per_move": round(cpu / max(1, stats.applied) * 1000, 2),
        "server_cpu_percent": round(cpu / elapsed * 100, 1),
        # The bench client is one process too: past ~100% it, not the server, is the limit.
        "client_cpu_percent": round(client_cpu / elapsed * 100, 1),
        # The longest the client's event loop was late while measuring: it bounds how much of
        # a latency could be the client's own doing rather than the server's.
        "client_loop_lag_max_ms": round(client_lag * 1000, 1),
        "machine_busy_percent": round((busy1 - busy0) / max(1, total1 - total0) * 100, 1),
        "sockets": stats.sockets,
        # From starting the clients to the last socket's first state (must be < --warmup).
        "all_connected_s": None
        if stats.all_connected_at is None
        else round(stats.all_connected_at - started, 2),
    }


if __name__ == "__main__":
    main()
