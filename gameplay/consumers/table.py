"""The table WebSocket (`mediana.table/1`, /work/shared/spec/table-protocol.md).

Thin on purpose: it authenticates in `connect`, parses and rate-limits messages, calls the
service (`play_action`), and forwards per-seat `state` messages in seq order. It holds no rules
and no table state beyond the last seq it sent; when a seq is missing it re-reads the table.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections

from gameplay.services import notify, runner, tables
from gameplay.services.errors import TableError

MAX_MESSAGE_BYTES = 16_384


def in_pool(func: Any) -> Any:
    """Run a service call in the thread pool, not Channels' single database thread.

    Tables are independent and every write is claimed on its seq in the database, so their
    calls may run in parallel; one shared thread serializes every database round trip of the
    process and caps it at a few hundred moves a second.
    """

    wrapped = _in_pool.get(func)
    if wrapped is None:

        def call(*args: Any, **kwargs: Any) -> Any:
            close_old_connections()
            try:
                return func(*args, **kwargs)
            finally:
                close_old_connections()

        wrapped = _in_pool[func] = sync_to_async(call, thread_sensitive=False)
    return wrapped


_in_pool: dict[Any, Any] = {}  # one wrapper per function (built once, not per message)


MAX_ID_LENGTH = 64


class TokenBucket:
    """Allow `rate` messages a second on average with bursts of `burst` (per connection)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        """Give back the token of a message that turned out to be play, not noise."""
        self.tokens = min(self.burst, self.tokens + 1)


def parse_act(content: Any) -> tuple[int, dict[str, Any], str | None]:
    """The seq, action and id of an `act` message, or `TableError("bad_message")`."""
    seq = content.get("seq")
    action = content.get("action")
    client_id = content.get("id")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise TableError("bad_message", "act needs an integer seq")
    if not isinstance(action, dict) or not isinstance(action.get("act"), str):
        raise TableError("bad_message", "act needs an action object with an 'act'")
    if client_id is not None and (not isinstance(client_id, str) or len(client_id) > MAX_ID_LENGTH):
        raise TableError("bad_message", f"id must be a string of at most {MAX_ID_LENGTH} chars")
    return seq, action, client_id


class TableConsumer(AsyncWebsocketConsumer):
    """One connection at one table: a seat (by token or session) or a spectator."""

    table_id: str
    seat: int | None
    last_seq: int
    race_lost_at: int

    async def connect(self) -> None:
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        # keep_blank_values: `?token=` is a wrong token (refused), not "no token" (spectator).
        raw_query = self.scope.get("query_string", b"").decode("latin1")
        query = parse_qs(raw_query, keep_blank_values=True)
        token = query.get("token", [None])[0]
        identity = await in_pool(tables.identify)(self.table_id, token, self.scope.get("user"))
        if identity is None:
            await self.close()  # before accept: the handshake is answered with HTTP 403
            return
        self.seat = identity.seat
        self.last_seq = -1
        self.race_lost_at = -1  # the last seq whose `stale` answer was not charged
        self.group = notify.group_name(self.table_id, self.seat)
        self.bucket = TokenBucket(
            float(getattr(settings, "GAMEPLAY_RATE_PER_SECOND", 20)),
            float(getattr(settings, "GAMEPLAY_RATE_BURST", 40)),
        )
        # Join the group before reading the state: a change after the read is then delivered,
        # and one already included in the read is dropped by its seq.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        runner.start_embedded_services()
        await self.send_missing()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()`: that is a hop to the
        single database thread for every message (each state forwarded, each act), and this
        consumer never uses the database on the event loop — its service calls run in
        `in_pool`, which closes old connections itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # ------------------------------------------------------------------ client -> server
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content = None
        if text_data is not None and len(text_data) <= MAX_MESSAGE_BYTES:
            try:
                content = json.loads(text_data)
            except ValueError:
                content = None
        if not self.bucket.allow():
            raw_id = content.get("id") if isinstance(content, dict) else None
            echo = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_LENGTH else None
            await self.send_error("rate_limited", "too many messages; slow down", echo)
            return
        if not isinstance(content, dict):
            await self.send_error("bad_message", "send one JSON object per message", None)
            return
        kind = content.get("type")
        if kind == "sync":
            await self.send_missing(again=True)
        elif kind == "act":
            await self.act(content)
        else:
            raw_id = content.get("id")
            await self.send_error(
                "bad_message", f"unknown type {kind!r}", raw_id if isinstance(raw_id, str) else None
            )

    async def act(self, content: dict[str, Any]) -> None:
        raw_id = content.get("id")
        echo_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_LENGTH else None
        # The rate limit is for noise, not for play: an applied action gives its token back (a
        # retried id does not: retries are rare, and each costs reads), and so does the first
        # `stale` answer for a seq this connection was just sent (or the one before, still in
        # flight): a lost race, e.g. Saichugen's simultaneous commits, which the protocol has the
        # client re-send. A bot may then play as fast as the table goes.
        latest, seq = self.last_seq, None
        try:
            seq, action, client_id = parse_act(content)
            played = await in_pool(tables.play_action)(
                self.table_id, self.seat, action, seq, client_id=client_id
            )
        except TableError as exc:
            if exc.code == "stale" and latest - 1 <= seq <= latest and seq > self.race_lost_at:
                self.race_lost_at = seq
                self.bucket.refund()
            await self.send_error(exc.code, exc.message, echo_id)
            if exc.code in ("stale", "illegal"):
                await self.send_missing(again=True)
            return
        if played.applied:
            self.bucket.refund()
        if played.duplicate:
            await self.send_missing(again=True)  # acknowledged by the current state
        # A new action: its state arrives through the group like everybody else's.

    # ------------------------------------------------------------------ server -> client
    async def table_state(self, event: dict[str, Any]) -> None:
        """A state from the channel layer: forward it in order, or fill a gap from the table."""
        seq = event["seq"]
        if seq == self.last_seq + 1 or (event.get("final") and seq == self.last_seq):
            # `text`: serialized once by the sender (notify); `state`: a plain dict message.
            text = event.get("text")
            await self.send(text_data=text if text is not None else json.dumps(event["state"]))
            self.last_seq = seq
        elif seq > self.last_seq + 1:
            await self.send_missing()
        # seq <= last_seq: already sent (a late delivery, or read at connect)

    async def send_missing(self, again: bool = False) -> None:
        """Send every state after the last one sent, up to now; `again`: at least the current."""
        states = await in_pool(tables.states_since)(self.table_id, self.seat, self.last_seq)
        for state in states:
            if state["seq"] > self.last_seq or (again and state["seq"] == self.last_seq):
                await self.send(text_data=json.dumps(state))
                self.last_seq = state["seq"]

    async def send_error(self, code: str, message: str, client_id: str | None) -> None:
        await self.send(
            text_data=json.dumps(
                {"type": "error", "code": code, "message": message, "id": client_id}
            )
        )
