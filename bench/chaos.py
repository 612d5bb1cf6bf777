"""A repeatable chaos run: real processes killed with SIGKILL while tables are played.

    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python bench/chaos.py --tables 100 --duration 180 --kill-every 20

Creates and migrates a fresh PostgreSQL database (next to DATABASE_URL's, dropped at the end
unless --keep-db) and empties the Redis database of REDIS_URL; starts two uvicorn processes, a
Celery worker and a Celery beat exactly as README's "Running at scale" does; creates `--tables`
rated friendly tables with `manage.py create_table` (a random game each, 1-2 bot seats, a turn
clock); and plays every other seat with a random socket client: it connects with its seat token
to either server, plays a random legal action, sometimes sends `sync`, sometimes sends the same
action id twice, sometimes disconnects (also with an action in flight) and reconnects to a random
server. Every `--kill-every` seconds, for `--duration` seconds, one process (either server, the
worker or beat; random, each kind once in every four kills) is killed with SIGKILL and started
again. Then the clients and bots play on until
every table has finished (or `--finish-timeout`), and the run checks what we promise:

- every table finished, and its log, its record and its stored state and result agree (the
  log replayed through the engine gives the stored state and result; the record replays to the
  same result; seqs 1..N with no hole);
- no seq gap on any connection (after its first state, each state's seq is the last one or the
  next one);
- no acknowledged action lost: an action counts as acknowledged when the server answered a
  later message on the same connection (a "fence": the server handles a connection's messages
  in order, so by then the action was either refused with an error carrying its id, or applied
  or acknowledged as a duplicate) without an error for every time it was sent; each must be in
  the log;
- ratings equal a full recompute (`league.ratings.services.recompute`, in a transaction that is
  rolled back), once every finished table is rated;
- no seat token in any process's log.

Prints a table of counts (and the figures as JSON on the last line); exits 1 if a check failed.
Not a CI test: it takes minutes. docs/reliability.md has the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tables import machine_busy  # noqa: E402
from games.core.bots.common import expand_random  # noqa: E402  (pure: no Django needed)
from tests.procs import BIN, free_port, procfile_uvicorn, wait_for_port  # noqa: E402

SERVICES = ("server-a", "server-b", "worker", "beat")


# ------------------------------------------------------------------ processes
class Service:
    """One child process that can be killed with SIGKILL and started again, logging to a file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path, port: int = 0):
        self.name, self.args, self.env, self.log, self.port = name, args, env, log, port
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.kills = 0

    def start(self) -> None:
        """Start it (and, for a server, wait until it listens); three tries, as a supervisor."""
        for attempt in range(3):
            try:
                return self._start()
            except (RuntimeError, TimeoutError):
                self.kill()
                if attempt == 2:
                    raise

    def _start(self) -> None:
        with self.log.open("ab") as out:
            out.write(f"\n--- chaos: start #{self.starts + 1} of {self.name}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                self.args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a kill takes its children too
            )
        self.starts += 1
        if self.port:
            wait_for_port(self.port, self.proc, timeout=60)

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown handler, no flush, no goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.kills += 1

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def services(env: dict[str, str], logs: Path) -> dict[str, Service]:
    """README's "Running at scale": two uvicorn processes, a worker, one beat."""
    out: dict[str, Service] = {}
    for name in ("server-a", "server-b"):
        port = free_port()
        out[name] = Service(name, procfile_uvicorn(port), env, logs / f"{name}.log", port)
    worker = [str(BIN / "celery"), "-A", "config", "worker", "-Q", "celery,bots", "--loglevel=info"]
    worker += ["--concurrency=2", "-n", f"chaos-{uuid.uuid4().hex[:6]}@%h"]
    out["worker"] = Service("worker", worker, env, logs / "worker.log")
    beat = [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=info"]
    beat += ["-s", str(logs / "celerybeat-schedule")]
    out["beat"] = Service("beat", beat, env, logs / "beat.log")
    return out


# ------------------------------------------------------------------ tables
def create_tables(n: int, deals: int, clock: int, rng: random.Random) -> list[dict[str, Any]]:
    """`n` rated friendly tables through `manage.py create_table`: a random game, 1-2 bots."""
    from django.core.management import call_command

    from games import registry

    games = registry.game_names()
    people = [f"chaos-p{i}" for i in range(max(12, n // 2))]
    robots = [f"chaos-bot-{i}" for i in range(4)]
    out = []
    for _ in range(n):
        game = rng.choice(games)
        seats = registry.get_game(game).seats
        bots = rng.choice((1, 2))
        names = rng.sample(people, seats - bots) + rng.sample(robots, bots)
        buffer = io.StringIO()
        call_command(
            "create_table",
            f"--game={game}",
            f"--players={','.join(names)}",
            f"--bots={bots}",
            f"--deals={deals}",
            f"--seconds-per-move={clock}",
            stdout=buffer,
        )
        created = json.loads(buffer.getvalue())
        out.append(
            {
                "id": created["table"],
                "game": game,
                "bots": bots,
                "humans": [(s["seat"], s["token"]) for s in created["seats"][: seats - bots]],
                "tokens": [s["token"] for s in created["seats"]],
            }
        )
    return out


# ------------------------------------------------------------------ socket clients
@dataclass
class Totals:
    connections: int = 0
    refused: int = 0  # connect attempts that failed (a server was down)
    drops: int = 0  # connections that ended without the client closing them
    disconnects: int = 0  # the client closed on purpose (sometimes with an action in flight)
    states: int = 0
    gaps: int = 0
    steps_back: int = 0
    acts: int = 0
    retries: int = 0
    resent_after_reconnect: int = 0
    syncs: int = 0
    fences: int = 0
    errors: Counter = field(default_factory=Counter)
    pages: Counter = field(default_factory=Counter)  # HTTP status of table pages opened
    gap_examples: list = field(default_factory=list)


class SeatClient:
    """A random player of one seat: reconnects to either server until its table is finished."""

    def __init__(self, table: str, seat: int, token: str, ports: list[int], totals: Totals):
        self.table, self.seat, self.token, self.ports, self.t = table, seat, token, ports, totals
        self.rng = random.Random(f"{table}/{seat}")
        self.acknowledged: set[str] = set()
        self.unsettled: set[str] = set()  # sent, but the socket died before a fence answered
        self.left_behind: tuple[str, str] | None = None  # the last of those: (id, act text)
        self.finished = False

    async def run(self, deadline: float, think: float) -> None:
        import websockets

        while not self.finished and time.monotonic() < deadline:
            port = self.rng.choice(self.ports)
            url = f"ws://127.0.0.1:{port}/ws/tables/{self.table}/?token={self.token}"
            if self.rng.random() < 0.2:  # now and then the table page, token in the address
                await asyncio.to_thread(self.open_page, port)
            try:
                async with websockets.connect(url, open_timeout=10, max_size=2**22) as ws:
                    self.t.connections += 1
                    if await Connection(self, ws).play(deadline, think):
                        self.t.disconnects += 1
                    else:
                        self.t.drops += 1
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                self.t.refused += 1
            except websockets.ConnectionClosed:
                self.t.drops += 1
            if not self.finished:
                await asyncio.sleep(self.rng.uniform(0.1, 1.0))

    def open_page(self, port: int) -> None:
        import urllib.error
        import urllib.request

        url = f"http://127.0.0.1:{port}/tables/{self.table}/?token={self.token}"
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                self.t.pages[response.status] += 1
        except urllib.error.HTTPError as exc:
            self.t.pages[exc.code] += 1
        except OSError:
            self.t.pages["refused"] += 1


class Connection:
    """One socket of a `SeatClient`, and what the server answered on it.

    The server handles a connection's messages in order, and answers each `act` either with an
    `error` carrying its id (refused) or with nothing of its own (applied; its state comes like
    everybody's) or the current state (a retried id that was applied before). So once the
    answer to a later fence arrives, an action sent here more often than it was refused here was
    applied: acknowledged. Ids of a fence never answered (the socket died) stay unsettled:
    neither counted as acknowledged nor blamed.
    """

    def __init__(self, client: SeatClient, ws: Any) -> None:
        self.c, self.ws, self.t, self.rng = client, ws, client.t, client.rng
        self.sent: Counter[str] = Counter()  # action id -> times sent on this connection
        self.refused: Counter[str] = Counter()  # action id -> errors carrying it
        self.fences: dict[str, list[str]] = {}  # fence id -> action ids it settles
        self.pending: list[str] = []  # sent since the last fence
        self.last_act: tuple[str, str] | None = None

    async def send_act(self, cid: str, text: str) -> None:
        await self.ws.send(text)
        self.sent[cid] += 1
        self.c.unsettled.add(cid)
        self.pending.append(cid)
        self.last_act = (cid, text)

    async def fence(self) -> None:
        fid = f"fence-{uuid.uuid4().hex[:12]}"
        self.fences[fid], self.pending = self.pending, []
        self.t.fences += 1
        await self.ws.send(json.dumps({"type": "fence", "id": fid}))  # answered: bad_message

    def settle(self, fid: str) -> None:
        for cid in self.fences.pop(fid):
            self.c.unsettled.discard(cid)
            if self.sent[cid] > self.refused[cid]:
                self.c.acknowledged.add(cid)

    async def sync(self) -> None:
        self.t.syncs += 1
        await self.ws.send(json.dumps({"type": "sync"}))

    async def play(self, deadline: float, think: float) -> bool:
        """True when the client itself closes the connection."""
        # What a real client does after losing its socket: send its last unanswered action
        # again, same id (applied before: acknowledged; else stale, or applied now if due).
        resend, self.c.left_behind = self.c.left_behind, None
        try:
            return await self._play(deadline, think, resend if self.rng.random() < 0.5 else None)
        finally:
            if self.last_act is not None and self.last_act[0] in self.c.unsettled:
                self.c.left_behind = self.last_act

    async def _play(self, deadline: float, think: float, resend: tuple[str, str] | None) -> bool:
        rng, c, last = self.rng, self.c, None
        leave_at = time.monotonic() + rng.expovariate(1 / 40)  # a connection lasts ~40 s
        leaving = False
        while True:
            if time.monotonic() > deadline:
                return True
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 15)
            except TimeoutError:  # a quiet table (its bot's worker was killed): ask
                await self.sync()
                continue
            msg = json.loads(raw)
            if msg["type"] == "error":
                cid = msg.get("id")
                if cid in self.fences:
                    self.settle(cid)
                    if (c.finished or leaving) and not self.fences:
                        return True
                    continue
                self.t.errors[msg["code"]] += 1
                if cid:
                    self.refused[cid] += 1
                continue
            if msg["type"] != "state":
                continue
            self.t.states += 1
            seq = msg["seq"]
            if last is not None and seq > last + 1:
                self.t.gaps += seq - last - 1
                if len(self.t.gap_examples) < 5:
                    self.t.gap_examples.append((c.table, c.seat, last, seq))
            elif last is not None and seq < last:
                self.t.steps_back += 1
            last = seq if last is None else max(last, seq)
            if resend is not None:
                await self.send_act(*resend)
                self.t.resent_after_reconnect += 1
                resend = None
                await self.fence()
            if msg["status"] == "finished":
                c.finished = True
                await self.fence()  # settle what is still open before leaving
                continue
            if time.monotonic() > leave_at:  # leave, once what was sent is answered
                leaving = True
                if not self.fences:
                    return True
            if leaving:
                continue
            if not msg["legal"]:
                if rng.random() < 0.02:
                    await self.sync()
                continue
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if rng.random() < 0.05:
                await self.sync()
            cid = uuid.uuid4().hex[:16]
            act = {"type": "act", "seq": seq, "id": cid}
            act["action"] = expand_random(rng.choice(msg["legal"]), rng)
            text = json.dumps(act)
            await self.send_act(cid, text)
            self.t.acts += 1
            if rng.random() < 0.1:  # the same id twice: applied once at most
                await self.send_act(cid, text)
                self.t.retries += 1
            if rng.random() < 0.02:  # leave with the action in flight
                return True
            await self.fence()


# ------------------------------------------------------------------ the run
async def chaos(
    args: argparse.Namespace, procs: dict[str, Service], tables: list[dict[str, Any]]
) -> dict[str, Any]:
    rng = random.Random(args.seed)
    totals = Totals()
    ports = [procs["server-a"].port, procs["server-b"].port]
    clients = [
        SeatClient(t["id"], seat, token, ports, totals)
        for t in tables
        for seat, token in t["humans"]
    ]
    started = time.monotonic()
    chaos_ends = started + args.duration
    deadline = chaos_ends + args.finish_timeout
    tasks = [asyncio.create_task(c.run(deadline, args.think)) for c in clients]
    kills: list[tuple[float, str]] = []
    busy0, total0 = machine_busy()
    next_kill = started + args.kill_every  # a fixed schedule, whatever a restart takes
    order: list[str] = []
    while next_kill < chaos_ends:
        await asyncio.sleep(max(0.0, next_kill - time.monotonic()))
        next_kill += args.kill_every
        if not order:  # random, but each kind in turn: every one is killed in a long run
            order = rng.sample(SERVICES, len(SERVICES))
        victim = procs[order.pop()]
        victim.kill()
        kills.append((round(time.monotonic() - started, 1), victim.name))
        print(f"[{kills[-1][0]:6.1f}s] SIGKILL {victim.name}, restarting", flush=True)
        await asyncio.to_thread(victim.start)
    await asyncio.sleep(max(0.0, chaos_ends - time.monotonic()))
    busy1, total1 = machine_busy()
    print(f"[{time.monotonic() - started:6.1f}s] chaos over; playing on to the end", flush=True)
    await asyncio.gather(*tasks)
    return {
        "clients": clients,
        "totals": totals,
        "kills": kills,
        "elapsed_s": round(time.monotonic() - started, 1),
        "busy_percent": round((busy1 - busy0) / max(1, total1 - total0) * 100, 1),
    }


def check_tables(tables: list[dict[str, Any]]) -> dict[str, Any]:
    """Log, state, record and result agree at every table; the action counts by kind."""
    from gameplay.models import Action, Table
    from gameplay.services.matches import rebuild_match
    from games.core import records

    out = {"finished": 0, "replay_mismatch": [], "log_holes": [], "actions": Counter()}
    for t in tables:
        table = Table.objects.get(pk=t["id"])
        seqs = list(Action.objects.filter(table=table).values_list("seq", flat=True))
        if seqs != list(range(1, table.seq + 1)):
            out["log_holes"].append(table.id)
        for kind, n in Counter(
            Action.objects.filter(table=table).values_list("kind", flat=True)
        ).items():
            out["actions"][kind] += n
        if table.status != Table.Status.FINISHED:
            continue
        out["finished"] += 1
        replayed = rebuild_match(table)
        from_record = records.replay_record(table.record, n_deals=table.n_deals)
        if (
            replayed.dump() != table.state
            or replayed.result() != table.result
            or from_record.result() != table.result
            or replayed.export() != table.record
        ):
            out["replay_mismatch"].append(table.id)
    return out


def lost_actions(tables: list[dict[str, Any]], clients: list[SeatClient]) -> dict[str, int]:
    from gameplay.models import Action

    logged = set(
        Action.objects.filter(
            table_id__in=[t["id"] for t in tables], client_id__isnull=False
        ).values_list("table_id", "seat", "client_id")
    )
    acknowledged = {(c.table, c.seat, cid) for c in clients for cid in c.acknowledged}
    unsettled = {(c.table, c.seat, cid) for c in clients for cid in c.unsettled}
    return {
        "acknowledged": len(acknowledged),
        "acknowledged_in_log": len(acknowledged & logged),
        "lost": len(acknowledged - logged),
        "in_flight": len(unsettled),
        "in_flight_applied": len(unsettled & logged),
        "client_actions_in_log": len(logged),
    }


def wait_for_ratings(tables: list[dict[str, Any]], timeout: float) -> dict[str, int]:
    """Until every finished table has a rated match: beat's sweep rates what a killed worker
    dropped a minute later, so this may take two."""
    from league.models import RatedMatch

    ids = [t["id"] for t in tables]
    from gameplay.models import Table

    finished = Table.objects.filter(pk__in=ids, status=Table.Status.FINISHED, rated=True).count()
    give_up = time.monotonic() + timeout
    while True:
        matches = RatedMatch.objects.filter(table_ref__in=ids)
        noted, pending = matches.count(), matches.filter(rated_at__isnull=True).count()
        if (noted == finished and pending == 0) or time.monotonic() > give_up:
            return {"rated_tables": finished, "matches_noted": noted, "matches_pending": pending}
        time.sleep(2)


def ratings_recompute_diff() -> dict[str, Any]:
    """The leaderboard numbers now, against a full recompute of the same history."""
    from django.db import transaction

    from league.models import Rating
    from league.ratings.services import rated_games, recompute

    def board() -> dict[tuple[str, int], tuple[float, float, float, int]]:
        rows = Rating.objects.values_list("game", "player_id", "mu", "sigma", "ordinal", "games")
        return {(g, p): (mu, sigma, o, n) for g, p, mu, sigma, o, n in rows}

    stored = board()
    with transaction.atomic():
        for game in rated_games():
            recompute(game)
        fresh = board()
        transaction.set_rollback(True)  # the run's numbers stay as the run left them
    differ = [
        key
        for key in stored.keys() | fresh.keys()
        if key not in stored
        or key not in fresh
        or any(abs(a - b) > 1e-9 for a, b in zip(stored[key], fresh[key], strict=True))
    ]
    return {"ratings": len(stored), "ratings_differing": len(differ)}


def secrets_in_logs(logs: Path, tables: list[dict[str, Any]]) -> dict[str, int]:
    text = "\n".join(p.read_text(errors="replace") for p in sorted(logs.glob("*.log")))
    tokens = [tok for t in tables for tok in t["tokens"]]
    return {
        "log_lines": text.count("\n"),
        "tokens_in_logs": sum(text.count(tok) for tok in tokens),
        "redacted_lines": text.count("token=[redacted]"),
        "http_500": text.count('" 500'),
        "tracebacks": text.count("Traceback (most recent call last)"),
    }


def fresh_database(tmp: Path) -> Any:
    """tests.gameplay.test_scale's: a new database next to DATABASE_URL's, migrated."""
    from tests.gameplay.test_scale import shared_database

    return shared_database(tmp)


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of killing")
    parser.add_argument("--kill-every", type=float, default=20.0)
    parser.add_argument("--finish-timeout", type=float, default=900.0)
    parser.add_argument("--ratings-timeout", type=float, default=240.0)
    parser.add_argument("--deals", type=int, default=0, help="match length (0: fit --duration)")
    parser.add_argument("--clock", type=int, default=20, help="seconds per move (turn clock)")
    parser.add_argument("--think", type=float, default=0.6, help="mean client think time (s)")
    parser.add_argument("--seed", type=int, default=1, help="the kill schedule and table mix")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the run's database")
    parser.add_argument("--logs", default="", help="where the processes log (default: a temp dir)")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ.setdefault("SECRET_KEY", "chaos-secret-key")
    deals = args.deals or max(1, math.ceil(args.duration / 45))
    logs = Path(args.logs or tempfile.mkdtemp(prefix="mediana-chaos-"))
    logs.mkdir(parents=True, exist_ok=True)
    print(f"logs in {logs}", flush=True)
    flush_redis(os.environ["REDIS_URL"])

    database = fresh_database(logs)
    env = database.__enter__()
    try:
        os.environ["DATABASE_URL"] = env["DATABASE_URL"]
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        from django.db import connections

        tables = create_tables(args.tables, deals, args.clock, random.Random(args.seed))
        connections.close_all()
        procs = services(env, logs)
        for proc in procs.values():
            proc.start()
        print(
            f"{len(tables)} tables of {deals} deal(s); servers on {procs['server-a'].port}, "
            f"{procs['server-b'].port}",
            flush=True,
        )
        try:
            run = asyncio.run(chaos(args, procs, tables))
            ratings = wait_for_ratings(tables, args.ratings_timeout)
        finally:
            for proc in procs.values():
                proc.stop()
        figures = report(args, tables, run, ratings, logs, deals)
        connections.close_all()
    finally:
        if args.keep_db:
            print(f"kept database {env['DATABASE_URL']}")
        else:
            database.__exit__(None, None, None)
    return 0 if figures["ok"] else 1


def report(
    args: argparse.Namespace,
    tables: list[dict[str, Any]],
    run: dict[str, Any],
    ratings: dict[str, int],
    logs: Path,
    deals: int,
) -> dict[str, Any]:
    totals: Totals = run["totals"]
    checked = check_tables(tables)
    lost = lost_actions(tables, run["clients"])
    rating_diff = ratings_recompute_diff()
    logged = secrets_in_logs(logs, tables)
    kills = Counter(name for _, name in run["kills"])
    figures: dict[str, Any] = {
        "tables": len(tables),
        "deals_per_table": deals,
        "duration_s": args.duration,
        "elapsed_s": run["elapsed_s"],
        "machine_busy_percent": run["busy_percent"],
        "kills": dict(kills),
        "finished": checked["finished"],
        "actions": dict(checked["actions"]),
        "log_holes": len(checked["log_holes"]),
        "replay_mismatch": len(checked["replay_mismatch"]),
        "seq_gaps": totals.gaps,
        "steps_back": totals.steps_back,
        **lost,
        **ratings,
        **rating_diff,
        **logged,
        "client": {
            "sockets": len(run["clients"]),
            "connections": totals.connections,
            "refused_connects": totals.refused,
            "dropped": totals.drops,
            "disconnects": totals.disconnects,
            "states": totals.states,
            "acts": totals.acts,
            "retried_ids": totals.retries,
            "resent_after_reconnect": totals.resent_after_reconnect,
            "syncs": totals.syncs,
            "errors": dict(totals.errors),
            "pages": dict(totals.pages),
        },
    }
    checks = {
        "every table finished": checked["finished"] == len(tables),
        "log, state, record and result agree": not checked["replay_mismatch"]
        and not checked["log_holes"],
        "no seq gap on any connection": totals.gaps == 0 and totals.steps_back == 0,
        "no acknowledged action lost": lost["lost"] == 0,
        "every finished table rated": ratings["matches_noted"] == ratings["rated_tables"]
        and ratings["matches_pending"] == 0,
        "ratings equal a full recompute": rating_diff["ratings_differing"] == 0,
        "no seat token in any log": logged["tokens_in_logs"] == 0,
        "no HTTP 500": logged["http_500"] == 0
        and not any(isinstance(k, int) and k >= 500 for k in totals.pages),
    }
    figures["checks"] = checks
    figures["ok"] = all(checks.values())
    if checked["replay_mismatch"] or checked["log_holes"] or totals.gap_examples:
        figures["examples"] = {
            "replay_mismatch": checked["replay_mismatch"][:5],
            "log_holes": checked["log_holes"][:5],
            "gaps": totals.gap_examples,
        }
    rows = [
        ("tables finished", f"{checked['finished']} / {len(tables)}"),
        ("kills (SIGKILL + restart)", ", ".join(f"{k} {v}" for k, v in sorted(kills.items()))),
        (
            "actions in the log",
            ", ".join(f"{k} {v}" for k, v in sorted(checked["actions"].items())),
        ),
        (
            "client acts (ids sent twice; re-sent after a reconnect)",
            f"{totals.acts} ({totals.retries}; {totals.resent_after_reconnect})",
        ),
        (
            "acknowledged / in the log / lost",
            f"{lost['acknowledged']} / {lost['acknowledged_in_log']} / {lost['lost']}",
        ),
        (
            "in flight at a disconnect (applied)",
            f"{lost['in_flight']} ({lost['in_flight_applied']})",
        ),
        ("connections (refused connects)", f"{totals.connections} ({totals.refused})"),
        ("states received; seq gaps", f"{totals.states}; {totals.gaps}"),
        (
            "replay mismatches; log holes",
            f"{len(checked['replay_mismatch'])}; {len(checked['log_holes'])}",
        ),
        (
            "rated tables / noted / pending",
            "{rated_tables} / {matches_noted} / {matches_pending}".format(**ratings),
        ),
        (
            "ratings / differing from recompute",
            f"{rating_diff['ratings']} / {rating_diff['ratings_differing']}",
        ),
        ("log lines; seat tokens in them", f"{logged['log_lines']}; {logged['tokens_in_logs']}"),
        ("table pages opened (by status)", ", ".join(f"{k} {v}" for k, v in totals.pages.items())),
        ("HTTP 500s; tracebacks in logs", f"{logged['http_500']}; {logged['tracebacks']}"),
    ]
    width = max(len(name) for name, _ in rows)
    print()
    print(f"| {'what'.ljust(width)} | count |")
    print(f"|{'-' * (width + 2)}|-------|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    print()
    for name, passed in checks.items():
        print(f"{'PASS' if passed else 'FAIL'}  {name}")
    print(json.dumps(figures, default=str))
    return figures


if __name__ == "__main__":
    sys.exit(main())
