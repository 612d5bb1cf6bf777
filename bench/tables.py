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

`--baseline` also runs the floor (`bench/floor_server.py`: one frame in, one PostgreSQL append,
one Redis publish read back, the frames out, with states recorded from the real engine before
the run) right after each Mediana run, on the same machine, with the same clients and the same
games (the same seeds), and reports Mediana's server CPU per move as a multiple of the floor's.
`--tables 100,200,300` sweeps (fresh tables at each count: a 3-5-8 match of the bench's clients
ends after ~50 moves) and reports the highest rate each server keeps at p99 < 100 ms.
`--repeat R` runs each count R times (alternating which server goes first); `--watchers K` adds
K spectator sockets per table. With several runs every run's figures are printed as one JSON line
each, then a summary line (JSON) and a table on stderr.

`--strong-bots` makes the last seat of every table a built-in `strong` bot, the clients playing
the others. The servers run bots in the embedded mode (`CELERY_EAGER=1`, the channel layer stays
Redis): each thinks in its pool of `--bot-processes` processes beside it, `--bot-seconds` CPU
seconds a move, with no bot delay. The figures then split: the clients' moves (`moves_per_s`,
`p50_ms`, `p99_ms`: send to the last *client* socket's state), the bots' lag from due (the first
client socket's state with the bot to act) to moved (the last client socket's next state),
`bot_moves_per_s`, strong moves per second per pool process and the pool's CPU per bot move
(`bot_processes_started` should be 0: one started while measuring counts its start as thinking);
`server_cpu_ms_per_move` is the servers' own CPU over both kinds of move (it cannot tell them
apart). The bot's thinking bounds a table's pace, so `--rate` only paces the client moves, and a
run keeps up when its client moves keep p99 < 100 ms, whatever their rate. Always prints the
summary (and the table), even for one run. Not with `--baseline` (the floor has no bots); with
`--connect`, start the servers with the environment `bot_env` sets.

`--via-proxy` plays the same load twice at every count and repeat, on fresh tables each time and
fresh servers started the same way: once with the clients connected to the servers directly and
once through nginx (config/deploy/nginx.conf, rendered by config/deploy/render_nginx.py
`--local` into a temporary prefix and run as a child process, `--nginx` its binary), the servers
then with TRUSTED_PROXIES=127.0.0.1 as behind it in production; the order alternates between
repeats. nginx routes a table's sockets by a consistent hash of the table id, so all seats of a
table reach one process; the direct runs therefore default to `--placement table` in this mode
(spread evenly, table i on server i mod N; nginx's hash spreads them unevenly, and
`sockets_per_server` reports both). Each run reports `via` (direct / nginx); the nginx runs add
nginx's own CPU (its master's and workers' time on a CPU over the window, from
/proc/<pid>/task/*/schedstat: utime+stime's 10 ms ticks are too coarse for it), the sockets
each server held (its established connections from nginx, counted with `ss`), the
status codes and upstream tries of nginx's access log (a retried upstream shows as two
addresses) and any line of its error logs. The summary (always printed) gives through-nginx
against direct as ratios: moves/s, p50, p99, the servers' CPU per move and the servers' plus
nginx's CPU per move. Not with `--baseline`, `--connect` or `--profile`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import shutil
import signal
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.core.bots.common import expand_random  # noqa: E402  (pure: no Django needed)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def run_seconds(pid: int) -> float:
    """CPU time of a process's threads in ns precision (/proc/<pid>/task/*/schedstat: time on
    a CPU), for a process as light as nginx, where utime+stime's 10 ms ticks are too coarse;
    utime+stime where schedstat is missing."""
    tasks = list(Path(f"/proc/{pid}/task").glob("*/schedstat"))
    if not tasks:
        return cpu_seconds(pid)
    return sum(int(t.read_text().split()[0]) for t in tasks) / 1e9


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
        self.watched = 0  # states the spectator sockets received while measuring
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
        # --strong-bots: (table, seq) -> when the first client socket saw the bot to act at seq
        self.bot_due: dict[tuple[str, int], float] = {}
        self.bot_lags: list[float] = []


async def seat_client(
    url: str,
    table: str,
    seat: int,
    n_seats: int,
    stats: Stats,
    pace: float,
    stop: asyncio.Event,
    bots: frozenset[int] = frozenset(),
) -> None:
    """One seat's socket; `n_seats` is the table's client sockets (its seats but the `bots`)."""
    import websockets

    last = -1
    first = True
    # A generous handshake timeout: 1,000+ sockets connect at once at the start.
    async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
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
            elif len(got) == n_seats and key in stats.bot_due:  # the bot's move reached all
                due = stats.bot_due.pop(key)
                if stats.measuring:
                    stats.bot_lags.append(now - due)
                stats.received.pop(key, None)
            if bots and msg["status"] == "playing" and bots.intersection(msg["to_act"]):
                stats.bot_due.setdefault((table, seq), now)
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


async def watcher_client(url: str, stats: Stats, stop: asyncio.Event) -> None:
    """A spectator socket: it only receives, and counts its states and seq gaps."""
    import websockets

    last = -1
    first = True
    # A generous handshake timeout: 1,000+ sockets connect at once at the start.
    async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                continue
            if first:
                first = False
                stats.connected += 1
                if stats.connected == stats.sockets:
                    stats.all_connected_at = time.monotonic()
            seq = msg["seq"]
            if last >= 0 and seq > last + 1:
                stats.gaps += seq - last - 1
            last = max(last, seq)
            if stats.measuring:
                stats.watched += 1


def next_slot(slot: float, pace: float, now: float) -> float:
    """The table's next move time: one pace on, skipping slots already missed, so a table that
    fell behind keeps its phase instead of falling into step with the others."""
    slot += pace
    if slot < now:
        slot += math.ceil((now - slot) / pace) * pace
    return slot


def setup_tables(
    n: int, game: str, spectators: bool = True, strong_bots: bool = False
) -> list[dict[str, Any]]:
    """`n` fresh tables (`strong_bots`: the last seat a built-in strong bot) and their tokens."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from gameplay.models import Seat
    from gameplay.services.create import SeatSpec, create_table
    from games import registry

    seats = registry.get_game(game).seats
    bots = [seats - 1] if strong_bots else []
    User = get_user_model()
    wanted = [f"bench{i}-{s}" for i in range(n) for s in range(seats) if s not in bots]
    have = set(User.objects.filter(username__in=wanted).values_list("username", flat=True))
    User.objects.bulk_create(User(username=u, password="!") for u in wanted if u not in have)
    users = dict(User.objects.filter(username__in=wanted).values_list("username", "pk"))
    out = []
    for i in range(n):
        names = [f"bench{i}-{s}" for s in range(seats)]
        # One account per seat (a seat with neither account nor bot is an open lobby seat);
        # the bench clients play them by seat token, as a bot account would.
        specs = [
            SeatSpec(nm, bot=nm, bot_level="strong")
            if s in bots
            else SeatSpec(nm, user_id=users[nm])
            for s, nm in enumerate(names)
        ]
        table = create_table(
            game,
            specs,
            n_deals=200,
            seed=i,
            allow_spectators=spectators,
        )
        tokens = dict(Seat.objects.filter(table=table).values_list("number", "token"))
        out.append({"id": table.id, "tokens": [tokens[s] for s in range(seats)], "bots": bots})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables",
        default="100",
        help="tables (one move per 1/rate s each); a comma list sweeps, e.g. 100,200,300",
    )
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per table")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--servers", type=int, default=1, help="uvicorn processes to start")
    parser.add_argument("--game", default="three_five_eight")
    parser.add_argument(
        "--placement",
        choices=["seat", "table"],
        default=None,
        help="spread sockets over the servers seat by seat (default) or table by table "
        "(the default with --via-proxy, as nginx's hash on the table id places them)",
    )
    parser.add_argument(
        "--no-spectators",
        action="store_true",
        help="tables that do not allow spectators (no spectator state is built or published)",
    )
    parser.add_argument(
        "--watchers", type=int, default=0, help="spectator sockets per table (default none)"
    )
    parser.add_argument(
        "--connect",
        default="",
        help="comma-separated ports of servers already running (e.g. under a profiler) "
        "instead of starting --servers uvicorn processes",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="also run the floor server (bench/floor_server.py) after each run, same clients",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per table count (alternating the order)"
    )
    parser.add_argument(
        "--floor-no-deflate",
        action="store_true",
        help="the floor without permessage-deflate (Mediana's uvicorn keeps it)",
    )
    parser.add_argument(
        "--floor-transport",
        choices=["uvicorn", "websockets"],
        default="uvicorn",
        help="the floor on uvicorn with a raw ASGI app (default, as Mediana is served) or on "
        "websockets' own asyncio server",
    )
    parser.add_argument(
        "--profile",
        default="",
        help="a directory: run the servers under bench/profile_server.py and write the profile "
        "of the measured window there (<server>-<port>.pstats, with the run's figures as .json)",
    )
    parser.add_argument("--profile-mode", choices=["cprofile", "timers"], default="cprofile")
    parser.add_argument(
        "--strong-bots",
        action="store_true",
        help="the last seat of every table a built-in strong bot (thinking beside each server)",
    )
    parser.add_argument(
        "--bot-processes", type=int, default=1, help="--strong-bots: pool processes per server"
    )
    parser.add_argument(
        "--bot-seconds", type=float, default=0.3, help="--strong-bots: CPU seconds per bot move"
    )
    parser.add_argument(
        "--via-proxy",
        action="store_true",
        help="play every run twice, fresh tables each: clients connected to the servers "
        "directly, and through nginx (config/deploy/nginx.conf) in front of them; report "
        "through-nginx against direct as ratios",
    )
    parser.add_argument(
        "--nginx",
        default=shutil.which("nginx") or "/usr/sbin/nginx",
        help="--via-proxy: the nginx binary",
    )
    args = parser.parse_args()
    if args.placement is None:
        args.placement = "table" if args.via_proxy else "seat"
    counts = [int(n) for n in str(args.tables).split(",") if n.strip()]
    if not counts or min(counts) < 1 or args.repeat < 1 or args.watchers < 0:
        sys.exit("--tables needs one or more positive counts, --repeat >= 1, --watchers >= 0")
    if args.watchers and args.no_spectators:
        sys.exit("--watchers needs tables that allow spectators (drop --no-spectators)")
    if args.strong_bots and args.baseline:
        sys.exit("--strong-bots cannot run with --baseline: the floor server has no bots")
    if args.strong_bots and (args.bot_processes < 1 or not args.bot_seconds > 0):
        sys.exit("--strong-bots needs --bot-processes >= 1 and --bot-seconds > 0")
    if args.via_proxy and (args.baseline or args.connect or args.profile):
        sys.exit("--via-proxy cannot run with --baseline, --connect or --profile")
    if args.via_proxy and not os.access(args.nginx, os.X_OK):
        sys.exit(f"--via-proxy: no nginx at {args.nginx} (--nginx PATH)")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ.setdefault("SECRET_KEY", "bench-secret-key")
    if args.strong_bots:
        # Before Django's settings are read: the servers inherit them (tests.procs.service_env),
        # and this process, eager too, queues nothing on a broker no worker reads.
        os.environ.update(bot_env(args))
    from tempfile import TemporaryDirectory

    spectators = not args.no_spectators
    runs: list[dict[str, Any]] = []
    with TemporaryDirectory(prefix="mediana-floor-") as tmp:
        floor_tables: list[dict[str, Any]] = []
        lines_file = Path(tmp) / "lines.pickle"
        if args.baseline:
            floor_tables = setup_floor(max(counts), args, lines_file, spectators)
        for n in counts:
            for r in range(args.repeat):
                if args.via_proxy:
                    # Fresh tables for each run: two runs on the same tables would play their
                    # matches (~50 moves with these clients) to the end.
                    for via in ["direct", "nginx"] if r % 2 == 0 else ["nginx", "direct"]:
                        tables = setup_tables(
                            n, args.game, spectators=spectators, strong_bots=args.strong_bots
                        )
                        result = bench_mediana(args, tables, via=via)
                        runs.append(result)
                        print(json.dumps(result), flush=True)
                    continue
                # Fresh tables for Mediana at every count: the bench clients' 3-5-8 matches end
                # after ~50 moves. The floor's replay its recorded line in a cycle.
                tables = setup_tables(
                    n, args.game, spectators=spectators, strong_bots=args.strong_bots
                )
                order = ["mediana", "floor"] if args.baseline else ["mediana"]
                if r % 2:
                    order.reverse()
                for server in order:
                    if server == "mediana":
                        result = bench_mediana(args, tables)
                    else:
                        result = bench_floor(args, floor_tables[:n], lines_file)
                    runs.append(result)
                    print(json.dumps(result), flush=True)
    if args.via_proxy:
        summary = summarize_proxy(runs)
        print_proxy_table(summary, sys.stderr)
        print(json.dumps(summary), flush=True)
    elif len(runs) > 1 or args.strong_bots:
        summary = summarize(runs)
        print_table(summary, sys.stderr)
        print(json.dumps(summary), flush=True)


def bot_env(args: Any) -> dict[str, str]:
    """--strong-bots: bots in the embedded mode (eager Celery, the Redis channel layer kept),
    thinking beside each server in its pool, moving as soon as they have thought."""
    return {
        "CELERY_EAGER": "1",
        "GAMEPLAY_BOT_DELAY": "0",
        "GAMEPLAY_BOT_PROCESSES": str(args.bot_processes),
        "GAMEPLAY_BOT_SECONDS": f"strong={args.bot_seconds}",
    }


def setup_floor(n: int, args: Any, lines_file: Path, spectators: bool) -> list[dict[str, Any]]:
    """The floor's own tables (the same games as Mediana's: the same seeds), played once with
    the real engine to record every state the floor will send (outside any timed path)."""
    from bench.floor_server import record_lines, write_lines

    tables = setup_tables(n, args.game, spectators=spectators)
    # Enough positions that the cycle is rarely closed (a 3-5-8 match of these clients ends
    # after ~50 moves: its line is the whole match).
    moves = max(60, math.ceil((args.warmup + args.duration) * args.rate * 1.2))
    write_lines(lines_file, record_lines([t["id"] for t in tables], moves, expand))
    return tables


def bench_mediana(
    args: Any, tables: list[dict[str, Any]], via: str | None = None
) -> dict[str, Any]:
    """One run against Mediana's own server(s): started here, or `--connect`'s. `via`
    (--via-proxy): "direct", or "nginx" to put nginx in front of the servers for the run."""
    from contextlib import ExitStack

    from tests.procs import free_port, running, service_env, uvicorn_server

    env = service_env(**(bot_env(args) if args.strong_bots else {}))
    if via == "nginx":  # as behind it in production: X-Forwarded-For believed from it only
        env["TRUSTED_PROXIES"] = "127.0.0.1"
    if args.watchers:  # one address (127.0.0.1) holds every spectator socket of the bench
        env["GAMEPLAY_SPECTATORS_PER_ADDRESS"] = str(len(tables) * args.watchers + 10)
    with ExitStack() as stack:
        if args.connect:
            ports = [int(p) for p in args.connect.split(",")]
        elif args.profile:
            ports = []
            for _ in range(args.servers):
                port = free_port()
                command = profiled(args, "mediana", port, [str(port)])
                stack.enter_context(running(command, env, port))
                ports.append(port)
        else:
            ports = [stack.enter_context(uvicorn_server(env)) for _ in range(args.servers)]
        pids = [server_pid(port) for port in ports]
        if via == "nginx":
            proxy = stack.enter_context(nginx_proxy(args.nginx, ports))
            result = asyncio.run(run(args, tables, ports, pids, "mediana", via, proxy))
            time.sleep(0.5)  # nginx logs a socket once it is closed: the last few lines
            result.update(nginx_logs(proxy["prefix"]))
        else:
            result = asyncio.run(run(args, tables, ports, pids, "mediana", via))
    return {"server": "mediana", **result}


@contextmanager
def nginx_proxy(nginx: str, ports: list[int]) -> Iterator[dict[str, Any]]:
    """nginx in front of the servers on `ports`, as config/deploy/render_nginx.py `--local`
    writes it (a whole nginx for an ordinary user, in a temporary prefix); yields its port,
    its master's pid and the prefix (its logs), and stops it (SIGTERM: fast shutdown) after."""
    import subprocess
    from tempfile import TemporaryDirectory

    from tests.procs import free_port, wait_for_port

    with TemporaryDirectory(prefix="mediana-nginx-") as tmp:
        prefix = Path(tmp) / "nginx"
        port = free_port()
        render = [sys.executable, str(ROOT / "config" / "deploy" / "render_nginx.py")]
        render += ["--local", str(prefix), "--listen", f"127.0.0.1:{port}"]
        render += ["--servers", ",".join(f"127.0.0.1:{p}" for p in ports)]
        render += ["--static-root", tmp]
        subprocess.run(render, check=True, stdout=subprocess.DEVNULL)
        conf = prefix / "nginx.conf"
        with open(prefix / "stderr.log", "wb") as out:
            proc = subprocess.Popen(
                [nginx, "-p", str(prefix), "-c", str(conf), "-e", "stderr"],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_for_port(port, proc)
            yield {"port": port, "pid": proc.pid, "prefix": prefix}
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def nginx_logs(prefix: Path) -> dict[str, Any]:
    """What nginx's logs say about the run: the access log's status codes and requests that
    tried more than one upstream (their `$upstream_addr` lists each, comma-separated; the
    site's log format has no URL), and the lines of its error logs (the site's is at `crit`,
    nginx's own at `warn`, and its stderr)."""
    statuses: dict[str, int] = {}
    retried = 0
    access = prefix / "mediana-access.log"
    for line in access.read_text().splitlines() if access.exists() else []:
        # $remote_addr [$time_local] $request_method $status $body_bytes_sent $request_time
        # $upstream_addr
        fields = line.partition("] ")[2].split(" ", 4)
        status = fields[1] if len(fields) == 5 else "unparsed"
        statuses[status] = statuses.get(status, 0) + 1
        retried += len(fields) == 5 and "," in fields[4]
    errors = []
    for name in ("stderr.log", "error.log", "mediana-error.log"):
        path = prefix / name
        if path.exists():
            errors += [f"{name}: {line}" for line in path.read_text().splitlines() if line]
    return {
        "nginx_statuses": statuses,
        "nginx_upstream_retried": retried,
        "nginx_error_lines": len(errors),
        "nginx_errors_first": errors[:10],
    }


def profiled(args: Any, server: str, port: int, rest: list[str]) -> list[str]:
    """The command running `server` under bench/profile_server.py (`--profile`)."""
    out = Path(args.profile) / f"{server}-{port}.pstats"
    if args.profile_mode == "timers":
        out = out.with_suffix(".timers.json")
    return [
        sys.executable,
        str(ROOT / "bench" / "profile_server.py"),
        *["--out", str(out), "--mode", args.profile_mode, server, "--", *rest],
    ]


def bench_floor(args: Any, tables: list[dict[str, Any]], lines_file: Path) -> dict[str, Any]:
    """One run against the floor server(s), as many processes as Mediana's, same clients."""
    from contextlib import ExitStack

    from tests.procs import free_port, running, service_env

    env = service_env()
    n_servers = len(args.connect.split(",")) if args.connect else args.servers
    with ExitStack() as stack:
        ports = []
        for _ in range(n_servers):
            port = free_port()
            floor_args = [
                *["--port", str(port), "--lines", str(lines_file)],
                *["--database-url", env["DATABASE_URL"], "--redis-url", env["REDIS_URL"]],
            ]
            floor_args += ["--transport", args.floor_transport]
            if args.floor_no_deflate:
                floor_args.append("--no-deflate")
            if args.watchers:
                floor_args.append("--watched")
            if args.profile:
                command = profiled(args, "floor", port, floor_args)
            else:
                command = [sys.executable, str(ROOT / "bench" / "floor_server.py"), *floor_args]
            stack.enter_context(running(command, env, port))
            ports.append(port)
        pids = [server_pid(port) for port in ports]
        result = asyncio.run(run(args, tables, ports, pids, "floor"))
    result["servers"] = n_servers
    result["floor_transport"] = args.floor_transport
    return {"server": "floor", **result}


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per table count, each server's median figures and Mediana's CPU per move as a multiple
    of the floor's; per server, the highest rate it kept at p99 < 100 ms."""
    by_count: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for r in runs:
        by_count.setdefault(r["tables"], {}).setdefault(r["server"], []).append(r)
    keys = ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move", "machine_busy_percent")
    if any("bot_moves" in r for r in runs):
        keys += BOT_KEYS
    points = []
    for n in sorted(by_count):
        point: dict[str, Any] = {"tables": n}
        for server, rs in by_count[n].items():
            point[server] = {
                k: statistics.median(x[k] if x[k] is not None else math.inf for x in rs)
                for k in keys
                if k in rs[0]
            }
            point[server]["runs"] = len(rs)
            point[server]["kept_up"] = all(keeps_up(x) for x in rs)
        if "mediana" in point and "floor" in point and point["floor"]["server_cpu_ms_per_move"]:
            point["cpu_per_move_vs_floor"] = round(
                point["mediana"]["server_cpu_ms_per_move"]
                / point["floor"]["server_cpu_ms_per_move"],
                2,
            )
        points.append(point)
    highest: dict[str, Any] = {}
    for server in sorted({r["server"] for r in runs}):
        ok = [p for p in points if server in p and p[server]["kept_up"]]
        tried = [p["tables"] for p in points if server in p]
        best = max(ok, key=lambda p: p["tables"], default=None)
        highest[server] = {
            "moves_per_s": None if best is None else best[server]["moves_per_s"],
            "tables": None if best is None else best["tables"],
            # The sweep's largest count kept too: the real limit is higher than measured.
            "at_least": best is not None and best["tables"] == max(tried),
        }
    return {
        "summary": points,
        "highest_rate_p99_under_100ms": highest,
        "load_average_at_start": runs[0]["load_average_at_start"],
    }


BOT_KEYS = (
    "bot_moves_per_s",
    "bot_lag_p50_ms",
    "bot_lag_p99_ms",
    "bot_moves_per_s_per_process",
    "pool_cpu_ms_per_bot_move",
)


def keeps_up(result: dict[str, Any]) -> bool:
    """A run that kept its rate (98 % of the moves asked for) at p99 < 100 ms, losing nothing.
    With bots the rate is theirs (their thinking sets a table's pace): only the p99 counts."""
    return (
        result["p99_ms"] is not None
        and result["p99_ms"] < 100
        and ("bot_moves" in result or result["moves_per_s"] >= 0.98 * result["target_moves_per_s"])
        and result["seq_gaps"] == 0
        and not result.get("failed_sockets")
    )


def print_table(summary: dict[str, Any], out: Any) -> None:
    """The summary as a Markdown table, for people."""
    bots = any("bot_moves_per_s" in p.get("mediana", {}) for p in summary["summary"])
    head = "| tables | server | moves/s | p50 ms | p99 ms | server CPU ms/move | x floor |"
    if bots:  # moves/s, p50 and p99 are then the clients' moves'
        head += (
            " bot moves/s | bot lag p50 ms | bot lag p99 ms | bot moves/s/process"
            " | pool CPU ms/bot move |"
        )
    print(head, file=out)
    print("|---" * head.count(" | ") + "|---|", file=out)
    for p in summary["summary"]:
        for server in ("mediana", "floor"):
            if server not in p:
                continue
            f = p[server]
            ratio = p.get("cpu_per_move_vs_floor") if server == "mediana" else 1.0
            row = (
                f"| {p['tables']} | {server} | {f['moves_per_s']} | {f['p50_ms']} | "
                f"{f['p99_ms']} | {f['server_cpu_ms_per_move']} | {ratio or '-'} |"
            )
            if bots:
                row += "".join(f" {f.get(k, '-')} |" for k in BOT_KEYS)
            print(row, file=out)
    for server, h in summary["highest_rate_p99_under_100ms"].items():
        bound = " (the sweep's largest: at least)" if h["at_least"] else ""
        print(
            f"{server}: highest rate at p99 < 100 ms: {h['moves_per_s']} moves/s{bound}", file=out
        )
    print(f"load average at start: {summary['load_average_at_start']}", file=out)


PROXY_KEYS = (
    "moves_per_s",
    "p50_ms",
    "p99_ms",
    "max_ms",
    "server_cpu_ms_per_move",
    "server_cpu_percent",
    "client_cpu_percent",
    "machine_busy_percent",
)
NGINX_KEYS = ("nginx_cpu_ms_per_move", "nginx_cpu_percent", "server_and_nginx_cpu_ms_per_move")


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b or math.isinf(a) else round(a / b, 2)


def proxy_ratios(direct: dict[str, Any], nginx: dict[str, Any]) -> dict[str, Any]:
    """Through nginx against direct: each figure's ratio, and what nginx adds per move."""
    return {
        "moves_per_s": ratio(nginx["moves_per_s"], direct["moves_per_s"]),
        "p50": ratio(nginx["p50_ms"], direct["p50_ms"]),
        "p99": ratio(nginx["p99_ms"], direct["p99_ms"]),
        "server_cpu_per_move": ratio(
            nginx["server_cpu_ms_per_move"], direct["server_cpu_ms_per_move"]
        ),
        # The whole cost of serving a move behind the proxy against the servers alone.
        "server_and_nginx_cpu_per_move": ratio(
            nginx["server_and_nginx_cpu_ms_per_move"], direct["server_cpu_ms_per_move"]
        ),
        "p50_added_ms": None
        if nginx["p50_ms"] is None or direct["p50_ms"] is None
        else round(nginx["p50_ms"] - direct["p50_ms"], 2),
        "cpu_added_ms_per_move": round(
            nginx["server_and_nginx_cpu_ms_per_move"] - direct["server_cpu_ms_per_move"], 3
        ),
    }


def summarize_proxy(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """--via-proxy: per table count the median figures of the direct and the through-nginx
    runs, their ratios (nginx / direct), and each pair's (the same repeat) ratios."""
    by_count: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for r in runs:
        by_count.setdefault(r["tables"], {}).setdefault(r["via"], []).append(r)
    points = []
    for n in sorted(by_count):
        point: dict[str, Any] = {"tables": n, "servers": runs[0]["servers"]}
        for via, rs in by_count[n].items():
            keys = PROXY_KEYS + (NGINX_KEYS if via == "nginx" else ())
            point[via] = {
                k: round(statistics.median(x[k] if x[k] is not None else math.inf for x in rs), 3)
                for k in keys
            }
            point[via]["runs"] = len(rs)
            point[via]["kept_up"] = all(keeps_up(x) for x in rs)
            point[via]["seq_gaps"] = sum(x["seq_gaps"] for x in rs)
            point[via]["errors"] = sum(sum(x["errors"].values()) for x in rs)
            point[via]["failed_sockets"] = sum(sum(x["failed_sockets"].values()) for x in rs)
            point[via]["sockets_per_server"] = [x["sockets_per_server"] for x in rs]
            if via == "nginx":
                point[via]["nginx_error_lines"] = sum(x["nginx_error_lines"] for x in rs)
                point[via]["nginx_upstream_retried"] = sum(x["nginx_upstream_retried"] for x in rs)
        if "direct" in point and "nginx" in point:
            point["nginx_vs_direct"] = proxy_ratios(point["direct"], point["nginx"])
            point["pairs"] = [
                proxy_ratios(d, x)
                for d, x in zip(by_count[n]["direct"], by_count[n]["nginx"], strict=False)
            ]
        points.append(point)
    return {
        "summary": points,
        "load_average_at_start": [r["load_average_at_start"] for r in runs],
    }


def print_proxy_table(summary: dict[str, Any], out: Any) -> None:
    """--via-proxy's summary as a Markdown table, for people."""
    head = (
        "| tables x servers | via | moves/s | p50 ms | p99 ms | server CPU ms/move"
        " | nginx CPU ms/move | machine busy % | gaps | errors | failed sockets |"
    )
    print(head, file=out)
    print("|---" * head.count(" | ") + "|---|", file=out)
    for p in summary["summary"]:
        for via in ("direct", "nginx"):
            if via not in p:
                continue
            f = p[via]
            print(
                f"| {p['tables']} x {p['servers']} | {via} | {f['moves_per_s']} | {f['p50_ms']}"
                f" | {f['p99_ms']} | {f['server_cpu_ms_per_move']}"
                f" | {f.get('nginx_cpu_ms_per_move', '-')} | {f['machine_busy_percent']}"
                f" | {f['seq_gaps']} | {f['errors']} | {f['failed_sockets']} |",
                file=out,
            )
        if "nginx_vs_direct" in p:
            q = p["nginx_vs_direct"]
            print(
                f"nginx / direct at {p['tables']} tables: moves/s x{q['moves_per_s']}, "
                f"p50 x{q['p50']} ({q['p50_added_ms']:+} ms), p99 x{q['p99']}, "
                f"server CPU/move x{q['server_cpu_per_move']}, server+nginx CPU/move "
                f"x{q['server_and_nginx_cpu_per_move']} ({q['cpu_added_ms_per_move']:+} ms)",
                file=out,
            )
    print(f"load average at each run's start: {summary['load_average_at_start']}", file=out)


def pool_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds (utime+stime) of each process of the bot pools beside the servers `pids`:
    their children spawned by multiprocessing (not its resource tracker)."""
    out = {}
    for pid in pids:
        for child in children(pid):
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
                if b"spawn_main" in command:
                    out[child] = cpu_seconds(child)
            except OSError:  # gone meanwhile
                continue
    return out


def children(pid: int) -> set[int]:
    """The child processes of `pid` (any of its threads' children, from /proc)."""
    out: set[int] = set()
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out.update(int(c) for c in path.read_text().split())
        except OSError:
            continue
    return out


def bot_figures(
    args: Any,
    stats: Stats,
    elapsed: float,
    server_cpu: float,
    pool0: dict[int, float],
    pool1: dict[int, float],
    n_servers: int,
) -> dict[str, Any]:
    """--strong-bots: the bots' lag and rate, the pools' pace and CPU, and the servers' own CPU
    over every move (a client's or a bot's: the server's counters cannot tell them apart)."""
    lags = sorted(stats.bot_lags)
    moves = len(lags)
    # A pool process started during the window counts from zero; one that ended is lost (a
    # broken pool is replaced: then the CPU per bot move is too low, and processes_found says).
    pool = sum(cpu - pool0.get(pid, 0.0) for pid, cpu in pool1.items())
    processes = n_servers * args.bot_processes
    return {
        "bot_level": "strong",
        "bot_seconds": args.bot_seconds,
        "bot_processes": args.bot_processes,
        "bot_processes_found": len(pool1),
        # Started while measuring (on demand): their start-up CPU counts as thinking.
        "bot_processes_started": len(pool1.keys() - pool0.keys()),
        "bot_moves": moves,
        "bot_moves_per_s": round(moves / elapsed, 2),
        "bot_lag_p50_ms": round(statistics.median(lags) * 1000, 1) if lags else None,
        "bot_lag_p99_ms": round(lags[max(0, int(moves * 0.99) - 1)] * 1000, 1) if lags else None,
        "bot_lag_max_ms": round(lags[-1] * 1000, 1) if lags else None,
        "bot_moves_per_s_per_process": round(moves / elapsed / processes, 2),
        "pool_cpu_ms_per_bot_move": round(pool / moves * 1000, 1) if moves else None,
        "pool_cpu_percent": round(pool / elapsed * 100, 1),
        "client_moves": stats.applied,
        "server_cpu_ms_per_move": round(server_cpu / max(1, stats.applied + moves) * 1000, 2),
    }


def server_pid(port: int) -> int:
    """The uvicorn process listening on `port` (started by tests.procs.uvicorn_server)."""
    import subprocess

    out = subprocess.run(
        ["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True
    ).stdout
    return int(out.split("pid=")[1].split(",")[0])


def upstream_sockets(ports: list[int]) -> dict[int, int]:
    """Established TCP connections to each of `ports` (from nginx, when it is in front)."""
    import subprocess

    out = {}
    for port in ports:
        listed = subprocess.run(
            ["ss", "-tnH", "state", "established", "dport", "=", f":{port}"],
            capture_output=True,
            text=True,
        ).stdout
        out[port] = len(listed.splitlines())
    return out


async def run(
    args: Any,
    tables: list[dict],
    ports: list[int],
    pids: list[int],
    server: str = "mediana",
    via: str | None = None,
    proxy: dict[str, Any] | None = None,
) -> dict:
    """One run. `via` (--via-proxy) is "direct" or "nginx"; with `proxy` (nginx's port and
    master pid) the clients connect to nginx instead of `ports`, and nginx's CPU is measured."""
    stats = Stats()
    stats.sockets = sum(len(t["tokens"]) - len(t["bots"]) + args.watchers for t in tables)
    load = os.getloadavg()
    stop = asyncio.Event()
    pace = 1.0 / args.rate
    clients = []
    k = 0
    entry = [proxy["port"]] if proxy else ports  # where the clients connect
    per_port: dict[int, int] = {}
    for i, t in enumerate(tables):
        bots = frozenset(t["bots"])
        n = len(t["tokens"]) - len(bots)
        for seat, token in enumerate(t["tokens"]):
            if seat in bots:
                continue
            # by seat: a table's seats on different servers (most fan-out crosses processes);
            # by table: all its seats on one server (as a proxy hashing on the table id would).
            port = entry[(k if args.placement == "seat" else i) % len(entry)]
            per_port[port] = per_port.get(port, 0) + 1
            k += 1
            url = f"ws://127.0.0.1:{port}/ws/tables/{t['id']}/?token={token}"
            clients.append(seat_client(url, t["id"], seat, n, stats, pace, stop, bots))
        for w in range(args.watchers):
            port = entry[(k + w if args.placement == "seat" else i) % len(entry)]
            per_port[port] = per_port.get(port, 0) + 1
            clients.append(
                watcher_client(f"ws://127.0.0.1:{port}/ws/tables/{t['id']}/", stats, stop)
            )
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
    if proxy:  # nginx's master and its workers
        nginx_pids = [proxy["pid"], *sorted(children(proxy["pid"]))]
        nginx0 = {p: run_seconds(p) for p in nginx_pids}
    pool0 = pool_cpu(pids)
    client0 = time.process_time()
    busy0, total0 = machine_busy()
    t0 = time.monotonic()
    stats.measuring = True
    lag.reset()
    profiling = bool(args.profile) and not (server == "mediana" and args.connect)
    if profiling:  # bench/profile_server.py: drop what was profiled so far
        for pid in pids:
            os.kill(pid, signal.SIGUSR1)
    await asyncio.sleep(args.duration)
    stats.measuring = False
    if profiling:  # ... and write the measured window's profile
        for pid in pids:
            os.kill(pid, signal.SIGUSR2)
    client_lag = lag.worst
    elapsed = time.monotonic() - t0
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    if proxy:
        nginx_cpu = 0.0
        for p, before in nginx0.items():
            try:
                nginx_cpu += run_seconds(p) - before
            except OSError:  # a worker gone (it crashed): counted in nginx_workers_after
                continue
        nginx_after = [proxy["pid"], *sorted(children(proxy["pid"]))]
        sockets_per_server = upstream_sockets(ports)
    pool1 = pool_cpu(pids)
    client_cpu = time.process_time() - client0
    busy1, total1 = machine_busy()
    stop.set()
    failed: dict[str, int] = {}
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):  # a socket that failed: its table stood still
            name = type(outcome).__name__
            failed[name] = failed.get(name, 0) + 1
    lag_task.cancel()
    gc.enable()
    lat = sorted(stats.latencies)
    if profiling:
        await asyncio.sleep(3)  # the servers write their profiles (with the run's figures)
    result = {
        "tables": len(tables),
        "servers": len(ports),
        "placement": args.placement,
        "game": args.game,
        "target_moves_per_s": len(tables) * args.rate,
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
        # Sockets that failed (to connect, or later), by exception: must be none.
        "failed_sockets": failed,
        "spectator_states": stats.watched,
        # What else the machine was doing: the 1, 5 and 15 minute load averages at the start.
        "load_average_at_start": [round(x, 2) for x in load],
        # From starting the clients to the last socket's first state (must be < --warmup).
        "all_connected_s": None
        if stats.all_connected_at is None
        else round(stats.all_connected_at - started, 2),
    }
    if args.strong_bots:
        result.update(bot_figures(args, stats, elapsed, cpu, pool0, pool1, len(ports)))
    if via:
        result["via"] = via
        if proxy:
            moves = max(1, stats.applied + result.get("bot_moves", 0))
            result.update(
                {
                    "placement": "nginx: hash of the table id",
                    # Each server's established connections from nginx at the window's end.
                    "sockets_per_server": {str(p): n for p, n in sockets_per_server.items()},
                    "nginx_workers": len(nginx_pids) - 1,
                    "nginx_workers_after": len(nginx_after) - 1,
                    "nginx_cpu_ms_per_move": round(nginx_cpu / moves * 1000, 3),
                    "nginx_cpu_percent": round(nginx_cpu / elapsed * 100, 1),
                    "server_and_nginx_cpu_ms_per_move": round((cpu + nginx_cpu) / moves * 1000, 2),
                }
            )
        else:
            result["sockets_per_server"] = {str(p): n for p, n in per_port.items()}
    if profiling:
        for port in ports:
            Path(args.profile, f"{server}-{port}.json").write_text(
                json.dumps({**result, "server": server, "moves": stats.applied})
            )
    return result


if __name__ == "__main__":
    main()
