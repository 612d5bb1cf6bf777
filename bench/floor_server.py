"""The floor of the table server: the least any server must do for one move (issue #19).

    .venv/bin/python bench/floor_server.py --port 8765 --lines FILE \\
        --database-url postgres://... --redis-url redis://...

`bench/tables.py --baseline` starts it beside Mediana's server, in the same run, and drives it
with the same clients; nobody else needs to. Per move it does exactly this, and nothing more:

1. receive the `act` frame and parse its JSON: on uvicorn with a raw ASGI app (the server and
   WebSocket code Mediana runs on, permessage-deflate on as uvicorn's default; `--transport
   websockets` serves with the `websockets` library's own asyncio server instead);
2. check it against the table it keeps in memory: the seq, the seat to act, the action (a dict
   comparison with the one the line expects: no engine);
3. **one PostgreSQL round trip** that appends the action to Mediana's own log table
   (`gameplay_action`, through `psycopg`'s async connection on the event loop, autocommit,
   prepared after a few runs): the same unique `(table, seq)` index makes the move applied once
   (a lost race is answered `stale`, as Mediana answers it);
4. **one Redis pipeline** publishing the per-receiver states of the new seq (one per seat and the
   spectators' when they watch, as Mediana publishes it only then);
5. **read them back** from its Redis subscription (one Pub/Sub connection per process, one
   channel per receiver with a socket here) and send each to its sockets in seq order: 3 frames,
   plus the spectator's when one watches. A socket that missed a seq is sent what it missed.

Every step uses the library Mediana uses for it (uvicorn, redis-py, psycopg), so that the gap
between the two servers is Mediana's own work. What it does not do: no engine
(no `apply`, no `view`, no `legal`, no `why_not`), no JSON built per move (the states are
recorded before the run, outside the timed path), no ORM and no thread pool, no update of the
table row (its `seq`, `state` column, deadline), no clock, no channel-layer envelope (msgpack),
no presence, rate limit or seat revision checks, no sessions or origin check (seat tokens only).

The states come from Mediana itself: `record_lines` (run by the bench before the servers start)
plays each of the floor's tables with the real engine, the way the bench clients play
(`legal[0]`, templates filled by `expand`), and keeps every receiver's `state` text exactly as
`gameplay.services.payloads` and `notify` make it. A line of K moves is replayed in a cycle
(the state of seq s is the line's state s mod K with its `seq` written in), so a long run needs
no more memory than K moves a table; a server that starts on tables already played resumes at
their last logged seq.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import pickle
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent

# The append, written against Mediana's log table (the columns `gameplay.runtime.claim`
# inserts); created_at as Mediana sets it, from the server's clock.
INSERT = (
    'INSERT INTO "gameplay_action" ("table_id", "seq", "seat", "action", "client_id", "kind", '
    '"created_at") VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s)'
)


# ------------------------------------------------------------------ the recorded lines
@dataclass
class Step:
    """One recorded position: who acts, what the clients will send, and every state text, cut
    around its `seq` (`head` + str(seq) + `tail` is the message at any seq of the cycle)."""

    actor: int
    action: dict[str, Any]
    texts: list[tuple[bytes, bytes]]  # per receiver: the seats in order, then the spectators


@dataclass
class Line:
    table: str
    tokens: list[str]
    steps: list[Step]

    def dump(self) -> tuple:
        """Plain data for the file (the server runs as `__main__`, not as this module)."""
        return self.table, self.tokens, [(s.actor, s.action, s.texts) for s in self.steps]

    @classmethod
    def load(cls, data: tuple) -> Line:
        table, tokens, steps = data
        return cls(table, tokens, [Step(*s) for s in steps])


def write_lines(path: Path, lines: list[Line]) -> None:
    path.write_bytes(pickle.dumps([line.dump() for line in lines], pickle.HIGHEST_PROTOCOL))


def read_lines(path: Path) -> list[Line]:
    return [Line.load(data) for data in pickle.loads(path.read_bytes())]


def record_lines(table_ids: list[str], moves: int, expand: Any) -> list[Line]:
    """Play each (fresh, seq 0) table up to `moves` moves (fewer if its match ends first) with
    the real engine, the way the bench clients play, and keep every receiver's state text.
    Django must be set up; reads only."""
    from dataclasses import replace

    from django.utils import timezone

    from gameplay.models import Seat
    from gameplay.runtime import notify
    from gameplay.runtime.cache import Snapshot, seats_of
    from gameplay.services.matches import get_table, load_match
    from gameplay.services.payloads import state_payload

    lines = []
    for table_id in table_ids:
        table = get_table(table_id)
        if table.seq != 0:
            raise ValueError(f"table {table_id} is at seq {table.seq}: the floor needs fresh ones")
        snap = Snapshot.of(table)
        match = load_match(table)
        seats = [s.number for s in seats_of(table_id, snap.seats_rev)]
        receivers: list[int | None] = [*seats, None] if snap.allow_spectators else seats
        tokens = dict(Seat.objects.filter(table_id=table_id).values_list("number", "token"))
        steps = []
        for seq in range(moves):
            now = timezone.now()
            at = replace(snap, seq=seq, last_kind="player" if seq else snap.last_kind)
            payloads = [state_payload(at, match, r, now) for r in receivers]
            to_act = payloads[0]["to_act"]
            if not to_act and steps:
                break  # the match is over (3-5-8 ends with its first hand): the cycle closes
            if len(to_act) != 1:
                raise ValueError(
                    f"{table.game} lets {len(to_act)} seats act at once: the floor replays one "
                    "fixed line and supports games where one seat acts at a time"
                )
            actor = to_act[0]
            action = expand(payloads[seats.index(actor)]["legal"][0])
            texts = [_cut(notify.state_text(p), seq) for p in payloads]
            steps.append(Step(actor, action, texts))
            match.apply(actor, action)
        lines.append(Line(table_id, [tokens[s] for s in seats], steps))
    return lines


def _cut(text: str, seq: int) -> tuple[bytes, bytes]:
    marker = f'"seq":{seq},'
    at = text.index(marker) + len('"seq":')
    return text[:at].encode(), text[at + len(str(seq)) :].encode()


# ------------------------------------------------------------------ the server
@dataclass(eq=False)
class Receiver:
    """One socket: a seat (or the spectators, `seat=None`), how to send it a text frame (the
    JSON as UTF-8 bytes) and the last seq it was sent."""

    send: Callable[[bytes], Awaitable[None]]
    seat: int | None
    last_seq: int = -1


@dataclass(eq=False)
class FloorTable:
    line: Line
    seq: int  # the latest seq this process applied or read back
    by_token: dict[str, int]
    channels: list[str]  # per receiver (seats, then the spectators)
    local: dict[str, set[Receiver]] = field(default_factory=dict)  # channel -> its sockets here

    def text(self, seq: int, receiver: int) -> bytes:
        head, tail = self.line.steps[seq % len(self.line.steps)].texts[receiver]
        return head + str(seq).encode() + tail


class Floor:
    """The floor server's state: its tables, its database connections and its subscription.
    The transport (`websockets`' server or uvicorn's, below) only hands it sockets and frames."""

    def __init__(
        self, lines: list[Line], db: list[Any], redis: Any, prefix: str, watched: bool = False
    ) -> None:
        self.tables: dict[str, FloorTable] = {}
        # As Mediana (`Table.watchers`): the spectators' state is published only when somebody
        # watches; the bench says so (`--watched` when it puts spectator sockets on the tables).
        self.watched = watched
        for line in lines:
            n = len(line.steps[0].texts)
            channels = [f"{prefix}.{line.table}.{r}" for r in range(n)]
            by_token = {token: seat for seat, token in enumerate(line.tokens)}
            self.tables[line.table] = FloorTable(line, 0, by_token, channels)
        self.by_channel: dict[bytes, tuple[FloorTable, int]] = {
            ch.encode(): (t, r) for t in self.tables.values() for r, ch in enumerate(t.channels)
        }
        self.free: asyncio.Queue[Any] = asyncio.Queue()
        for conn in db:
            self.free.put_nowait(conn)
        self.redis = redis
        self.pubsub = redis.pubsub()

    async def resume(self) -> None:
        """Each table's seq: the last one logged (a table played by an earlier run goes on)."""
        conn = await self.free.get()
        try:
            cur = await conn.execute(
                'SELECT "table_id", max("seq") FROM "gameplay_action" '
                'WHERE "table_id" = ANY(%s) GROUP BY "table_id"',
                [list(self.tables)],
            )
            for table_id, seq in await cur.fetchall():
                self.tables[table_id].seq = seq
        finally:
            self.free.put_nowait(conn)

    # -------------------------------------------------------------- one socket
    def identify(self, path: str, query: str) -> tuple[FloorTable, int | None] | None:
        """The table and seat (None: a spectator) of a socket's URL; None: refused (an unknown
        table or a wrong token), answered 403 at the handshake."""
        parts = path.split("/")
        table = None
        if len(parts) > 3 and parts[1:3] == ["ws", "tables"]:
            table = self.tables.get(parts[3])
        token = parse_qs(query, keep_blank_values=True).get("token", [None])[0]
        if table is None or (token is not None and token not in table.by_token):
            return None
        return table, None if token is None else table.by_token[token]

    async def open(self, table: FloorTable, me: Receiver) -> int:
        """A socket is in: subscribe to its receiver's channel (the first socket of it here),
        send the current state; the receiver's index."""
        index = len(table.line.tokens) if me.seat is None else me.seat
        channel = table.channels[index]
        sockets = table.local.setdefault(channel, set())
        if not sockets:
            await self.pubsub.subscribe(channel)
        sockets.add(me)
        await self.send_upto(table, index, me, table.seq, again=True)
        return index

    async def close(self, table: FloorTable, index: int, me: Receiver) -> None:
        channel = table.channels[index]
        sockets = table.local.get(channel, set())
        sockets.discard(me)
        if not sockets:
            table.local.pop(channel, None)
            await self.pubsub.unsubscribe(channel)

    async def receive(self, table: FloorTable, index: int, me: Receiver, frame: Any) -> None:
        try:
            msg = json.loads(frame)
            kind = msg["type"]
        except (ValueError, TypeError, KeyError):
            await self.error(me, "bad_message", "send one JSON object per message")
            return
        if kind == "sync":
            await self.send_upto(table, index, me, table.seq, again=True)
            return
        if kind != "act":
            await self.error(me, "bad_message", "unknown type")
            return
        if me.seat is None:
            await self.error(me, "forbidden", "spectators cannot act")
            return
        seq, action = msg.get("seq"), msg.get("action")
        if seq != table.seq:
            await self.error(me, "stale", f"the table is at seq {table.seq}, not {seq}")
            await self.send_upto(table, index, me, table.seq, again=True)
            return
        step = table.line.steps[seq % len(table.line.steps)]
        if step.actor != me.seat:
            await self.error(me, "not_your_turn", f"not your turn (waiting for {step.actor})")
            return
        if action != step.action:
            await self.error(me, "illegal", "not the recorded line's action")
            await self.send_upto(table, index, me, table.seq, again=True)
            return
        if not await self.append(table, seq + 1, me.seat, action, msg.get("id")):
            await self.error(me, "stale", "another action was applied first")
            await self.send_upto(table, index, me, table.seq, again=True)
            return
        table.seq = max(table.seq, seq + 1)
        await self.publish(table, seq + 1)

    async def append(
        self, table: FloorTable, seq: int, seat: int, action: Any, client_id: Any
    ) -> bool:
        """The one round trip: append the action at `seq`; False when that seq was taken."""
        import psycopg.errors

        conn = await self.free.get()
        try:
            await conn.execute(
                INSERT,
                (
                    table.line.table,
                    seq,
                    seat,
                    json.dumps(action),
                    client_id,
                    "player",
                    datetime.now(UTC),
                ),
            )
            return True
        except psycopg.errors.UniqueViolation:
            return False
        finally:
            self.free.put_nowait(conn)

    async def publish(self, table: FloorTable, seq: int) -> None:
        """Every receiver's state at `seq`, in one pipelined round trip (`<seq> <text>`)."""
        pipe = self.redis.pipeline(transaction=False)
        prefix = b"%d " % seq
        channels = table.channels if self.watched else table.channels[: len(table.line.tokens)]
        for index, channel in enumerate(channels):
            pipe.publish(channel, prefix + table.text(seq, index))
        await pipe.execute()

    async def read_back(self) -> None:
        """Forward what the subscription delivers to this process's sockets, in seq order."""
        while True:
            msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
            if msg is None or msg["type"] != "message":
                continue
            target = self.by_channel.get(msg["channel"])
            if target is None:
                continue
            table, index = target
            data = msg["data"]
            cut = data.index(b" ")
            seq = int(data[:cut])
            if seq > table.seq:
                table.seq = seq  # another process moved the table
            for me in list(table.local.get(table.channels[index], ())):
                try:
                    if seq == me.last_seq + 1:
                        await me.send(data[cut + 1 :])
                        me.last_seq = seq
                    elif seq > me.last_seq + 1:
                        await self.send_upto(table, index, me, seq)
                except Exception:  # the socket closed: its handler cleans up
                    continue

    async def send_upto(
        self, table: FloorTable, index: int, me: Receiver, seq: int, again: bool = False
    ) -> None:
        """Send `me` every state after the last it was sent, up to `seq` (`again`: at least
        the state at `seq`), rebuilt from the line: the floor's re-read after a gap."""
        start = seq if me.last_seq < 0 or again else me.last_seq + 1
        for s in range(max(start, 0), seq + 1):
            if s > me.last_seq or (again and s == seq):
                await me.send(table.text(s, index))
                me.last_seq = s

    async def error(self, me: Receiver, code: str, message: str) -> None:
        error = {"type": "error", "code": code, "message": message, "id": None}
        await me.send(json.dumps(error).encode())


# ------------------------------------------------------------------ the two transports
def websockets_handler(floor: Floor) -> tuple[Any, Any]:
    """`websockets`' asyncio server: the handshake check and the connection handler."""

    def check_request(connection: Any, request: Any) -> Any:
        split = urlsplit(request.path)
        if floor.identify(split.path, split.query) is None:
            return connection.respond(403, "forbidden\n")
        return None

    async def handler(ws: Any) -> None:
        split = urlsplit(ws.request.path)
        found = floor.identify(split.path, split.query)
        assert found is not None  # checked at the handshake
        table, seat = found

        async def send(data: bytes) -> None:
            await ws.send(data, text=True)

        me = Receiver(send, seat)
        index = await floor.open(table, me)
        try:
            async for frame in ws:
                await floor.receive(table, index, me, frame)
        finally:
            await floor.close(table, index, me)

    return check_request, handler


def asgi_app(floor: Floor) -> Any:
    """A raw ASGI app for uvicorn (the server and WebSocket code Mediana runs on)."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":  # (uvicorn runs it with lifespan="off")
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        found = floor.identify(scope["path"], scope["query_string"].decode("latin1"))
        await receive()  # websocket.connect
        if found is None:
            await send({"type": "websocket.close", "code": 4403})  # HTTP 403 before accept
            return
        table, seat = found
        await send({"type": "websocket.accept"})

        async def send_text(data: bytes) -> None:
            await send({"type": "websocket.send", "text": data.decode()})

        me = Receiver(send_text, seat)
        index = await floor.open(table, me)
        try:
            while True:
                event = await receive()
                if event["type"] == "websocket.disconnect":
                    return
                frame = event.get("text")
                await floor.receive(table, index, me, frame if frame is not None else b"")
        finally:
            await floor.close(table, index, me)

    return app


async def serve(args: argparse.Namespace) -> None:
    import psycopg
    import redis.asyncio

    lines = read_lines(Path(args.lines))
    if args.tables:
        wanted = set(args.tables.split(","))
        lines = [line for line in lines if line.table in wanted]
    db = [
        await psycopg.AsyncConnection.connect(args.database_url, autocommit=True)
        for _ in range(args.db_connections)
    ]
    client = redis.asyncio.Redis.from_url(args.redis_url)
    floor = Floor(lines, db, client, args.prefix, watched=args.watched)
    await floor.resume()
    await floor.pubsub.subscribe(f"{args.prefix}.control")  # never empty: get_message blocks
    reader = asyncio.create_task(floor.read_back())
    # As Mediana's server does (config/asgi.py): what was loaded is out of the collector's way.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)
    if args.transport == "uvicorn":
        import uvicorn

        config = uvicorn.Config(
            asgi_app(floor),
            host="127.0.0.1",
            port=args.port,
            log_level="warning",
            lifespan="off",
            ws_per_message_deflate=not args.no_deflate,
        )
        await uvicorn.Server(config).serve()  # until SIGTERM / SIGINT
    else:
        from websockets.asyncio.server import serve as ws_serve

        stop = asyncio.get_running_loop().create_future()
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
        check_request, handler = websockets_handler(floor)
        async with ws_serve(
            handler,
            "127.0.0.1",
            args.port,
            process_request=check_request,
            compression=None if args.no_deflate else "deflate",
            max_size=2**16,
        ):
            await stop
    reader.cancel()
    for conn in db:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--lines", required=True, help="the pickle written by the bench")
    parser.add_argument("--tables", default="", help="serve only these table ids (comma list)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", ""))
    parser.add_argument("--db-connections", type=int, default=4)
    parser.add_argument("--prefix", default="floor", help="Redis channel prefix")
    parser.add_argument("--no-deflate", action="store_true", help="no permessage-deflate")
    parser.add_argument(
        "--watched", action="store_true", help="spectators watch: publish their state too"
    )
    parser.add_argument(
        "--transport",
        choices=["uvicorn", "websockets"],
        default="uvicorn",
        help="uvicorn with a raw ASGI app (as Mediana is served), or websockets' own server",
    )
    args = parser.parse_args()
    try:
        import uvloop
    except ImportError:  # as uvicorn: the standard loop when uvloop is missing
        asyncio.run(serve(args))
    else:
        uvloop.run(serve(args))


if __name__ == "__main__":
    main()
