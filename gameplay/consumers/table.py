"""The table WebSocket (`mediana.table/1`, /work/shared/spec/table-protocol.md).

Thin on purpose: it authenticates in `connect`, parses and rate-limits messages, calls the
service (`play_action`), and forwards per-seat `state` messages in seq order. It holds no rules
and no table state beyond the last seq it sent; when a seq is missing it re-reads the table.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import close_old_connections

from config.websocket_frames import MAX_MESSAGE_CHARS
from gameplay.runtime import limits, metrics, notify, pool, runner
from gameplay.runtime.dispatch import InTurnDispatchMixin
from gameplay.services import chat, payloads, play, presence, readiness, watchers
from gameplay.services.errors import SeatsChanged, TableError
from gameplay.services.identity import identify

log = logging.getLogger(__name__)

MAX_DEPTH = 16  # nesting of objects and arrays; the protocol's own messages need at most ~4


def in_pool(func: Any) -> Any:
    """Run a service call in the thread pool (`services/pool.py`), not Channels' single
    database thread.

    Tables are independent and every write is claimed on its seq in the database, so their
    calls may run in parallel; one shared thread serializes every database round trip of the
    process and caps it at a few hundred moves a second.
    """

    wrapped = _in_pool.get(func)
    if wrapped is None:

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            finally:
                # The thread's connection goes back to the database pool (CONN_MAX_AGE is 0,
                # which the pool requires), so every call of these threads, which run nothing
                # else, starts without one: no check is needed before it.
                close_old_connections()

        wrapped = _in_pool[func] = functools.partial(pool.run, call)
    return wrapped


_in_pool: dict[Any, Any] = {}  # one wrapper per function (built once, not per message)


MAX_ID_LENGTH = 64
# Closed when the connection's seat changed (its person left or resigned, or a spectator took a
# seat): the client reconnects and is identified afresh. 4403 when it may no longer look at all.
SEAT_CHANGED = 4409
REFUSED = 4403


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> bool:
    """Whether `text` nests objects and arrays deeper than MAX_DEPTH, without parsing it.

    `json.loads` recurses once per level, so a frame of brackets under the size cap would
    exhaust the stack (RecursionError). Brackets inside strings do not count.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # the common case: too few brackets to be deep at all
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _check_strings(value: Any) -> None:
    """Every string (keys too) can be stored: PostgreSQL refuses NUL, UTF-8 lone surrogates."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("strings may not contain NUL")
        value.encode("utf-8")  # UnicodeEncodeError (a ValueError) for a lone surrogate
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def parse_message(text_data: str | None) -> dict[str, Any]:
    """The client's message as a JSON object, or `TableError("bad_message")`.

    Bounded before anything else: size, then nesting (see `_too_deep`). `NaN`/`Infinity`,
    numbers past Python's int-string limit, NUL bytes and lone surrogates are refused too,
    so nothing malformed reaches the service (or the database).
    """
    if text_data is None:
        raise TableError("bad_message", "send text frames, not binary")
    if len(text_data) > MAX_MESSAGE_CHARS:
        raise TableError("bad_message", f"a message may have at most {MAX_MESSAGE_CHARS} chars")
    if _too_deep(text_data):
        raise TableError("bad_message", f"a message may nest at most {MAX_DEPTH} levels")
    try:
        content = json.loads(text_data, parse_constant=_refuse_constant)
        _check_strings(content)
    except (ValueError, RecursionError):
        raise TableError("bad_message", "send one JSON object per message") from None
    if not isinstance(content, dict):
        raise TableError("bad_message", "send one JSON object per message")
    return content


def echo_id(content: dict[str, Any] | None) -> str | None:
    """The message's `id` to echo in an answer, when it is a valid one."""
    raw_id = content.get("id") if content is not None else None
    return raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_LENGTH else None


def parse_act(content: dict[str, Any]) -> tuple[int, dict[str, Any], str | None]:
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


def parse_ready(content: dict[str, Any]) -> int:
    """The deal of a `ready` message (the person dismissed the summary before it), or
    `TableError("bad_message")`."""
    deal = content.get("deal")
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal <= MAX_READY_DEAL:
        raise TableError("bad_message", "ready needs the deal number it is ready for")
    return deal


def chat_group_name(table_id: str, seat: int | None) -> str:
    """The channel-layer group of one channel of a table's chat: its players, its spectators."""
    return f"table.{table_id}.chat.{chat.channel_of(seat)}"


MAX_MUTED = 100  # authors one connection may mute (the players and a crowd of spectators)
MAX_READY_DEAL = 10_000  # deals: far past any match, and a small integer for the column


class TableConsumer(InTurnDispatchMixin, AsyncWebsocketConsumer):
    """One connection at one table: a seat (by token or session) or a spectator.

    Its messages are handled one at a time by `InTurnDispatchMixin`'s loop (Channels'
    semantics, fewer tasks and waits per message: `consumers/dispatch.py`)."""

    table_id: str
    seat: int | None
    seats_rev: int
    token: str | None
    last_seq: int
    race_lost_at: int
    spectator_slot: limits.SpectatorSlot | None = None  # a spectator's place in its address's cap
    revoked = False  # closed because its seat changed: it sends and applies nothing more
    chat_group: str | None = None  # its channel of the table's chat, when the chat is on
    chat_seen = 0  # the last line of the chat history sent: the group may deliver it again
    watching = False  # a spectator counted in the table's `watchers` (services/watchers.py)
    socket_kind: str | None = None  # "seat" or "spectator" once counted in the sockets' gauge

    async def connect(self) -> None:
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        # keep_blank_values: `?token=` is a wrong token (refused), not "no token" (spectator).
        raw_query = self.scope.get("query_string", b"").decode("latin1")
        query = parse_qs(raw_query, keep_blank_values=True)
        token = query.get("token", [None])[0]
        identity = await in_pool(identify)(self.table_id, token, self.scope.get("user"))
        if identity is None:
            await self.close()  # before accept: the handshake is answered with HTTP 403
            return
        self.token = token
        self.seat = identity.seat
        self.seats_rev = identity.seats_rev
        if self.seat is not None and not identity.connected:
            await self.first_connection()
        if self.seat is None:
            # A spectator takes a place in its address's count (released in `disconnect`).
            self.spectator_slot = limits.admit_spectator(self.scope)
            if self.spectator_slot is None:
                await self.accept()  # then a close code the client can read: too many
                await self.close(code=limits.TOO_MANY_SPECTATORS)
                return
        try:
            await self.join()
        except BaseException:
            self.release_slot()  # disconnect() may never run for a consumer that raised
            await self.stop_watching()
            raise

    async def first_connection(self) -> None:
        """The seat's player connects for the first time: their clock may run from now on
        (`presence.record_connection`, one write per seat). A failure here costs them only
        the wait for the grace, so it is logged and the connection goes on."""
        try:
            rev = await in_pool(presence.record_connection)(
                self.table_id, self.seat, self.seats_rev
            )
        except Exception:
            log.exception(
                "table %s seat %s: recording the connection failed", self.table_id, self.seat
            )
            return
        if rev is not None:
            self.seats_rev = max(self.seats_rev, rev)

    async def join(self) -> None:
        """Set up a connection that is let in: join its group, accept, send the state."""
        self.last_seq = -1
        self.race_lost_at = -1  # the last seq whose `stale` answer was not charged
        self.group = notify.group_name(self.table_id, self.seat)
        self.send_rate = limits.SendRate()
        if self.seat is None:
            # Counted (committed) before it joins and reads: a move claimed with a count of 0
            # sends no spectators' state, and this connection's first read has it.
            await in_pool(watchers.watch)(self.table_id)
            self.watching = True  # only once counted: a count too low could lose states
        # Join the group before reading the state: a change after the read is then delivered,
        # and one already included in the read is dropped by its seq.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.socket_kind = "spectator" if self.seat is None else "seat"
        metrics.SOCKETS.labels(self.socket_kind).inc()
        self.muted: set[str] = set()  # chat authors whose lines this connection is not sent
        runner.start_embedded_services()
        await self.send_missing()

    async def join_chat(self, content: dict[str, Any]) -> None:
        """`chat_join`: read its channel of the table's chat (players' or spectators',
        docs/chat.md) from now on: join the group, then send the `chat_history`. A client that
        never asks is sent no chat at all; a table without chat answers `forbidden`."""
        group = chat_group_name(self.table_id, self.seat)
        await self.channel_layer.group_add(group, self.channel_name)
        lines = await in_pool(chat.history)(self.table_id, self.seat)
        if lines is None:
            if self.chat_group is None:
                await self.channel_layer.group_discard(group, self.channel_name)
            message = "this table has no chat"
            await self.send_error("forbidden", message, echo_id(content), "chat_off")
            return
        self.chat_group = group
        self.chat_seen = lines[-1]["id"] if lines else 0
        channel = chat.channel_of(self.seat)
        await self.send(
            text_data=json.dumps({"type": "chat_history", "channel": channel, "lines": lines})
        )

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()`: that is a hop to the
        single database thread for every message (each state forwarded, each act), and this
        consumer never uses the database on the event loop — its service calls run in
        `in_pool`, which closes old connections itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def release_slot(self) -> None:
        if self.spectator_slot is not None:
            self.spectator_slot.release()
            self.spectator_slot = None

    async def disconnect(self, code: int) -> None:
        """Uncount a spectator first and whatever happens: a failed group_discard (the layer
        busy or down) must not leave the count too high for the rest of the table's life."""
        self.release_slot()
        if self.socket_kind is not None:
            metrics.SOCKETS.labels(self.socket_kind).dec()
            self.socket_kind = None
        try:
            await self.stop_watching()
        finally:
            if getattr(self, "group", None):
                await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.chat_group is not None:
                await self.channel_layer.group_discard(self.chat_group, self.channel_name)

    async def stop_watching(self) -> None:
        """Take this spectator off the table's count, once. A failure leaves the count too
        high, which costs only the saving (`watchers.py`): logged, not raised."""
        if not self.watching:
            return
        self.watching = False
        try:
            await in_pool(watchers.unwatch)(self.table_id)
        except Exception:
            log.exception("table %s: could not uncount a spectator", self.table_id)

    # ------------------------------------------------------------------ client -> server
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Answer one frame. Whatever the frame, the answer is a message, never a close: a
        malformed one is `bad_message`, and a failure of ours is logged and answered too."""
        content, refused = None, None
        try:
            content = parse_message(text_data)  # None for a binary frame: refused
        except TableError as exc:
            refused = exc
        except Exception:  # a hole in parse_message: still the client's bad frame
            log.exception("table %s: parsing a frame failed", self.table_id)
            refused = TableError("bad_message", "send one JSON object per message")
        too_fast = self.send_rate.refusal(limits.frame_size(text_data, bytes_data))
        if too_fast is not None:
            await self.send_error("rate_limited", too_fast, echo_id(content))
            return
        if refused is not None:
            await self.send_error(refused.code, refused.message, None)
            return
        try:
            await self.handle(content)
        except StopConsumer:
            raise
        except OSError:
            # The client closed while we answered (uvicorn's ClientDisconnected is an OSError):
            # a normal end of a connection, with nobody left to answer.
            log.debug("table %s seat %s: the client went away mid-answer", self.table_id, self.seat)
        except Exception:
            # Not the client's fault (the message was well formed): say so loudly, answer, and
            # resend the table, since the failure may have come after the action was applied.
            log.exception("table %s seat %s: a message failed", self.table_id, self.seat)
            await self.send_error(
                "bad_message", "the server could not handle this message", echo_id(content)
            )
            try:
                await self.send_missing(again=True)
            except Exception:
                log.exception("table %s: resending the state failed", self.table_id)

    async def handle(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "sync":
            await self.send_missing(again=True)
        elif kind == "act":
            await self.act(content)
        elif kind == "ready":
            await self.ready(content)
        elif kind == "chat_join":
            await self.join_chat(content)
        elif kind == "chat":
            await self.chat(content)
        elif kind == "chat_mute":
            await self.chat_mute(content)
        elif kind == "chat_report":
            await self.chat_report(content)
        else:
            shown = repr(kind)[:40]
            await self.send_error("bad_message", f"unknown type {shown}", echo_id(content))

    async def act(self, content: dict[str, Any]) -> None:
        client_echo = echo_id(content)
        # The rate limit is for noise, not for play: an applied action gives its token back (a
        # retried id does not: retries are rare, and each costs reads), and so does the first
        # `stale` answer for a seq this connection was just sent (or the one before, still in
        # flight): a lost race, e.g. Saichugen's simultaneous commits, which the protocol has the
        # client re-send. A bot may then play as fast as the table goes.
        latest, seq = self.last_seq, None
        started = time.perf_counter()
        try:
            seq, action, client_id = parse_act(content)
            played = await self.play(action, seq, client_id)
            if played is None:
                return  # the seat is no longer this connection's: it was closed
        except TableError as exc:
            metrics.MOVE_SECONDS.labels("refused").observe(time.perf_counter() - started)
            if exc.code == "stale" and latest - 1 <= seq <= latest and seq > self.race_lost_at:
                self.race_lost_at = seq
                self.send_rate.refund()
            await self.send_error(exc.code, exc.message, client_echo, exc.reason, exc.params)
            if exc.code in ("stale", "illegal"):
                await self.send_missing(again=True)
            return
        outcome = "applied" if played.applied else "duplicate" if played.duplicate else "late"
        metrics.MOVE_SECONDS.labels(outcome).observe(time.perf_counter() - started)
        if played.applied:
            self.send_rate.refund()
        if played.duplicate:
            await self.send_missing(again=True)  # acknowledged by the current state
        # A new action: its state arrives through the group like everybody else's.

    async def ready(self, content: dict[str, Any]) -> None:
        """The person dismissed the last deal's summary: their held clock may start
        (`readiness.record_ready`). No answer of its own: when a clock starts, everyone gets
        the state again; a ready that changes nothing is dropped silently."""
        try:
            deal = parse_ready(content)
            if self.seat is None:
                raise TableError("forbidden", "spectators have no clock to start")
        except TableError as exc:
            await self.send_error(exc.code, exc.message, echo_id(content))
            return
        rev = await in_pool(readiness.record_ready)(self.table_id, self.seat, deal, self.seats_rev)
        if rev is not None:
            self.seats_rev = max(self.seats_rev, rev)

    async def chat(self, content: dict[str, Any]) -> None:
        """A line for this connection's channel of the chat: stored, then sent to the channel
        (the writer too, once it joined: its own line is its acknowledgement)."""
        try:
            line = await in_pool(chat.post)(
                self.table_id, self.seat, self.scope.get("user"), content
            )
        except TableError as exc:
            await self.send_error(exc.code, exc.message, echo_id(content), exc.reason, exc.params)
            return
        group = self.chat_group or chat_group_name(self.table_id, self.seat)
        await self.channel_layer.group_send(group, {"type": "table.chat", "line": line})

    async def chat_mute(self, content: dict[str, Any]) -> None:
        """Hide (or show again) an author's lines on this connection; no answer."""
        author, muted = content.get("author"), content.get("muted", True)
        if not isinstance(author, str) or len(author) > MAX_ID_LENGTH or type(muted) is not bool:
            problem = "chat_mute needs an author and muted true or false"
            await self.send_error("bad_message", problem, echo_id(content))
            return
        if muted and len(self.muted) < MAX_MUTED:
            self.muted.add(author)
        elif not muted:
            self.muted.discard(author)

    async def chat_report(self, content: dict[str, Any]) -> None:
        """Report an author's lines to staff with the conversation; `chat_reported` answers."""
        try:
            await in_pool(chat.report)(self.table_id, self.seat, self.scope.get("user"), content)
        except TableError as exc:
            await self.send_error(exc.code, exc.message, echo_id(content), exc.reason, exc.params)
            return
        answer = {"type": "chat_reported", "author": content["author"], "id": echo_id(content)}
        await self.send(text_data=json.dumps(answer))

    async def table_chat(self, event: dict[str, Any]) -> None:
        """A line of this connection's channel: sent unless its author is muted here."""
        line = event["line"]
        if self.revoked or line["id"] <= self.chat_seen or line["author"] in self.muted:
            return
        await self.send(text_data=json.dumps({"type": "chat", "line": line}))

    async def play(self, action: dict[str, Any], seq: int, client_id: str | None) -> Any:
        """`play_action` for this connection's seat, as of the seats it was identified at;
        None when the seats changed and the seat is no longer its own (then it is closed)."""
        for _ in range(2):
            try:
                return await in_pool(play.play_action)(
                    self.table_id,
                    self.seat,
                    action,
                    seq,
                    client_id=client_id,
                    seats_rev=self.seats_rev,
                )
            except SeatsChanged:
                if not await self.still_seated():
                    return None
        return None

    # ------------------------------------------------------------------ server -> client
    async def table_state(self, event: dict[str, Any]) -> None:
        """A state from the channel layer: forward it in order, or fill a gap from the table."""
        if self.revoked:
            return
        seq = event["seq"]
        if event.get("seats_rev", 0) > self.seats_rev and not await self.still_seated():
            return
        if seq == self.last_seq + 1 or (event.get("final") and seq == self.last_seq):
            # `text`: serialized once by the sender (notify); `state`: a plain dict message.
            text = event.get("text")
            await self.send(text_data=text if text is not None else json.dumps(event["state"]))
            self.last_seq = seq
        elif seq > self.last_seq + 1:
            metrics.GAPS_FILLED.inc()
            await self.send_missing()
        # seq <= last_seq: already sent (a late delivery, or read at connect)

    async def send_missing(self, again: bool = False) -> None:
        """Send every state after the last one sent, up to now; `again`: at least the current."""
        if self.revoked:
            return
        try:
            states = await in_pool(payloads.states_since)(
                self.table_id, self.seat, self.last_seq, self.seats_rev
            )
        except SeatsChanged:
            if not await self.still_seated():
                return
            states = await in_pool(payloads.states_since)(self.table_id, self.seat, self.last_seq)
        for state in states:
            if state["seq"] > self.last_seq or (again and state["seq"] == self.last_seq):
                await self.send(text_data=json.dumps(state))
                self.last_seq = state["seq"]

    async def still_seated(self) -> bool:
        """After a change of the table's seats: whether this connection is still who it was
        identified as. If not (its person left or resigned: the seat's token was replaced, or a
        spectator took a seat), it is closed before it is sent another state, so a seat's
        cards never reach a connection that no longer holds it."""
        identity = await in_pool(identify)(self.table_id, self.token, self.scope.get("user"))
        if identity is not None and identity.seat == self.seat:
            self.seats_rev = max(self.seats_rev, identity.seats_rev)
            return True
        self.revoked = True
        await self.close(code=REFUSED if identity is None else SEAT_CHANGED)
        return False

    async def send_error(
        self,
        code: str,
        message: str,
        client_id: str | None,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        """An `error` message; an `illegal` one carries the engine's `reason` and `params`."""
        error: dict[str, Any] = {"type": "error", "code": code, "message": message, "id": client_id}
        if reason is not None:
            error["reason"] = reason
            error["params"] = params or {}
        await self.send(text_data=json.dumps(error))
