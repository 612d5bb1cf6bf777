"""Spectators who come and go never miss a state, and nobody watching costs no spectators' state
(gameplay/services/watchers.py argues why; docs/tables.md, "Watchers").

Every spectator here is checked for gaps twice: the seqs it receives step by one, and its
connection never had to re-read the table for a gap (`refills`): a state the count wrongly
skipped would be filled in by that re-read at the next move, so a test on the received seqs
alone could not see it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, connections, transaction

from config.asgi import application
from gameplay.consumers.table import TableConsumer
from gameplay.models import Table
from gameplay.runtime import notify
from gameplay.services import lobby, watchers
from gameplay.services.matches import load_match
from gameplay.services.play import Played, play_action

from .conftest import make_table, make_users, some_legal, token

db = database_sync_to_async
TIMEOUT = 5
# SQLite's test database is shared-cache memory: a connection that meets another's open write
# fails at once ("table is locked") instead of waiting, as it waits on a file (the embedded
# server's 20 s timeout). There SQLite serializes writers anyway; the races are PostgreSQL's.
concurrent = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="threads race on the test database"
)
WATCHER_ADDRESS = "203.0.113.5"


def move(table_id: str) -> Played | None:
    """The seat to act plays its first legal action (the table's current state, from the row);
    None once the match is over."""
    table = Table.objects.get(pk=table_id)
    match = load_match(table)
    if not match.to_act():
        return None
    seat = match.to_act()[0]
    return play_action(table_id, seat, some_legal(match, seat), table.seq)


def in_thread(func: Any) -> Any:
    """`func` in a thread of its own with its own database connection, closed after: a writer
    that runs while the event loop goes on (as a move of another connection does)."""

    def call(*args: Any) -> Any:
        try:
            return func(*args)
        finally:
            connections.close_all()

    return sync_to_async(call, thread_sensitive=False)


@pytest.fixture
def sent(monkeypatch) -> dict[int, list[set[int | None]]]:
    """Per seq, the receivers of each `send_states` call (None: the spectators)."""
    seen: dict[int, list[set[int | None]]] = {}
    real = notify.send_states

    def spy(table_id, seq, payloads, **options):
        seen.setdefault(seq, []).append(set(payloads))
        return real(table_id, seq, payloads, **options)

    monkeypatch.setattr(notify, "send_states", spy)
    return seen


@pytest.fixture
def refills(monkeypatch) -> list[tuple[str, int]]:
    """Every re-read a spectator connection made because it saw a gap (not its first read,
    not a `sync`)."""
    seen: list[tuple[str, int]] = []
    real = TableConsumer.send_missing

    async def spy(self, again: bool = False) -> None:
        if self.seat is None and self.last_seq >= 0 and not again:
            seen.append((self.table_id, self.last_seq))
        await real(self, again)

    monkeypatch.setattr(TableConsumer, "send_missing", spy)
    return seen


def spectated(sent: dict[int, list[set[int | None]]], seq: int) -> bool:
    return any(None in receivers for receivers in sent.get(seq, []))


async def spectator(table_id: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/")
    comm.scope["client"] = [WATCHER_ADDRESS, 50000]
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    first = await comm.receive_json_from(timeout=TIMEOUT)
    assert first["type"] == "state" and first["seat"] is None
    return comm, first


async def count(table_id: str) -> int:
    return await db(watchers.count)(table_id)


# ------------------------------------------------------------------ the count itself
@pytest.mark.django_db(transaction=True)
def test_a_table_nobody_watches_sends_no_spectators_state(match_cache, sent):
    people = make_users("ana", "ben", "cleo")
    table = make_table(people=people)
    for _ in range(3):
        played = move(table.id)
        assert set().union(*sent[played.seq]) == {0, 1, 2}, "no spectators' state"
    watchers.watch(table.id)  # a spectator on another process
    played = move(table.id)
    assert sent[played.seq] == [{0, 1, 2, None}]
    watchers.unwatch(table.id)
    played = move(table.id)
    assert sent[played.seq] == [{0, 1, 2}]
    # a change that does not know the count (a resignation, here) sends the spectators theirs
    lobby.leave(people[1], table.id)
    assert sent[played.seq][1] == {0, 1, 2, None}


@pytest.mark.django_db(transaction=True)
def test_the_count_never_goes_below_zero():
    table = make_table(people=make_users("ana", "ben", "cleo"))
    watchers.unwatch(table.id)
    assert watchers.count(table.id) == 0
    watchers.watch(table.id)
    watchers.watch(table.id)
    for _ in range(3):
        watchers.unwatch(table.id)
    assert watchers.count(table.id) == 0
    watchers.watch("no-such-table")  # nothing to count, no error
    assert watchers.count("no-such-table") == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_spectator_connections_count_themselves_and_seats_do_not(settings):
    settings.GAMEPLAY_SPECTATORS_PER_ADDRESS = 2
    table = await db(make_table)(people=await db(make_users)("ana", "ben", "cleo"))
    seat = WebsocketCommunicator(
        application, f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}"
    )
    assert (await seat.connect())[0]
    await seat.receive_json_from(timeout=TIMEOUT)
    assert await count(table.id) == 0
    first, _ = await spectator(table.id)
    second, _ = await spectator(table.id)
    assert await count(table.id) == 2
    over = WebsocketCommunicator(application, f"/ws/tables/{table.id}/")
    over.scope["client"] = [WATCHER_ADDRESS, 50001]
    assert (await over.connect())[0]  # accepted, then closed for the address's cap: not counted
    assert (await over.receive_output(timeout=TIMEOUT))["type"] == "websocket.close"
    assert await count(table.id) == 2
    await first.disconnect()
    assert await count(table.id) == 1
    await second.disconnect()
    await seat.disconnect()
    assert await count(table.id) == 0


# ------------------------------------------------------------------ the two orders of the race
@concurrent
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_a_spectator_counted_while_a_move_commits_reads_that_move(
    monkeypatch, sent, refills, match_cache
):
    """The claim first: the spectator's count waits for the move's commit, the move sends no
    spectators' state (counted 0), and the spectator's first read has it."""
    table = await db(make_table)(people=await db(make_users)("ana", "ben", "cleo"))
    claimed, release, counting = threading.Event(), threading.Event(), threading.Event()
    real_watch = watchers.watch

    def watch(table_id: str) -> None:
        counting.set()
        real_watch(table_id)

    monkeypatch.setattr(watchers, "watch", watch)

    def held_move() -> Played:
        with transaction.atomic():  # the claim is made; its commit waits for `release`
            played = move(table.id)
            claimed.set()
            assert release.wait(TIMEOUT)
        return played

    mover = asyncio.ensure_future(in_thread(held_move)())
    assert await asyncio.to_thread(claimed.wait, TIMEOUT)
    joining = asyncio.ensure_future(spectator(table.id))
    assert await asyncio.to_thread(counting.wait, TIMEOUT)
    await asyncio.sleep(0.3)
    assert not joining.done(), "the count waits on the row the move claimed"
    release.set()
    played = await mover
    comm, first = await joining
    assert first["seq"] == played.seq
    assert not spectated(sent, played.seq), "counted 0 at the claim: nothing sent"
    nxt = await in_thread(move)(table.id)
    assert (await comm.receive_json_from(timeout=TIMEOUT))["seq"] == nxt.seq == played.seq + 1
    assert spectated(sent, nxt.seq)
    assert refills == []
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_a_spectator_counted_before_a_move_but_joined_after_it_reads_that_move(
    monkeypatch, sent, refills, match_cache
):
    """The count first, the group after the move's state went out: the move sends the
    spectators' state (which this one misses), and its first read, after the join, has it."""
    table = await db(make_table)(people=await db(make_users)("ana", "ben", "cleo"))
    counted, release = threading.Event(), threading.Event()
    real_watch = watchers.watch

    def watch(table_id: str) -> None:
        real_watch(table_id)
        counted.set()
        assert release.wait(TIMEOUT)  # the join waits for the move

    monkeypatch.setattr(watchers, "watch", watch)
    joining = asyncio.ensure_future(spectator(table.id))
    assert await asyncio.to_thread(counted.wait, TIMEOUT)
    played = await in_thread(move)(table.id)
    await asyncio.sleep(0.05)  # its states are published before the spectator joins
    assert spectated(sent, played.seq), "counted 1 at the claim: sent"
    release.set()
    comm, first = await joining
    assert first["seq"] == played.seq
    nxt = await in_thread(move)(table.id)
    assert (await comm.receive_json_from(timeout=TIMEOUT))["seq"] == nxt.seq
    assert refills == []
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_without_the_count_a_spectator_would_miss_every_move(monkeypatch, sent):
    """The control: a spectator that did not count itself is sent nothing after its first
    read, so the tests above would see a missed state."""
    monkeypatch.setattr(watchers, "watch", lambda table_id: None)
    table = await db(make_table)(people=await db(make_users)("ana", "ben", "cleo"))
    comm, _ = await spectator(table.id)
    played = await in_thread(move)(table.id)
    assert not spectated(sent, played.seq)
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


# ------------------------------------------------------------------ coming and going
@concurrent
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
async def test_spectators_who_come_and_go_during_moves_never_miss_a_state(
    sent, refills, match_cache
):
    table = await db(make_table)(people=await db(make_users)("ana", "ben", "cleo"))
    rng = random.Random(19)
    done = asyncio.Event()
    last = [0]  # the last seq applied (its states are queued for publishing by then)
    sessions: list[list[int]] = []

    async def mover() -> None:
        while (played := await in_thread(move)(table.id)) is not None:
            last[0] = played.seq
            await asyncio.sleep(rng.choice([0, 0, 0.002, 0.01]))
        done.set()

    async def watcher() -> None:
        while not done.is_set():
            comm, first = await spectator(table.id)
            seqs = [first["seq"]]
            stay = rng.choice([0, 0, 1, 3, 8])
            waited = 0.0
            try:
                # Stay for `stay` states (or to the end), then until it has every seq applied so
                # far: a state the count skipped wrongly is never sent (no later move fills it).
                while seqs[-1] < last[0] or (len(seqs) <= stay and not done.is_set()):
                    if await comm.receive_nothing(timeout=0.01, interval=0.002):
                        waited += 0.01
                        assert seqs[-1] >= last[0] or waited < TIMEOUT, f"missed: {seqs}"
                        continue
                    seqs.append((await comm.receive_json_from())["seq"])
                    waited = 0.0
            finally:
                await comm.disconnect()
            sessions.append(seqs)
            await asyncio.sleep(rng.choice([0, 0.001, 0.02, 0.05]))  # at times nobody watches

    await asyncio.gather(mover(), watcher(), watcher())
    assert last[0] >= 40 and len(sessions) >= 10
    for seqs in sessions:
        assert all(b == a + 1 for a, b in itertools.pairwise(seqs)), f"a gap: {seqs}"
    assert refills == []
    assert await count(table.id) == 0
    unwatched = [s for s in range(1, last[0] + 1) if not spectated(sent, s)]
    assert unwatched, "some moves came while nobody watched (the saving was exercised)"


# ------------------------------------------------------------------ two processes
@pytest.mark.redis
@pytest.mark.slow
def test_spectators_on_another_process_come_and_go_without_a_gap(tmp_path):
    """Players on one ASGI process, spectators coming and going on another: every session gets
    the states it waits for (a skipped one would stall it), they step by one, the last one has
    the end of the match, and the count ends at 0. (A re-read for a gap cannot be seen from
    outside a process: the tests above check that there were none.)"""
    from tests.gameplay.test_scale import player, shared_database
    from tests.procs import manage, run_async, uvicorn_server

    with shared_database(tmp_path) as env:
        created = json.loads(
            manage(env, "create_table", "--game=saichugen", "--players=p0,p1,p2", "--seed=5")
        )
        tokens = [s["token"] for s in created["seats"]]
        table_id = created["table"]
        with uvicorn_server(env) as port_a, uvicorn_server(env) as port_b:
            base = "ws://127.0.0.1:{}/ws/tables/" + table_id + "/"

            async def scenario() -> tuple[list[dict], list[list[dict]]]:
                import websockets

                sessions: list[list[dict]] = []
                done = asyncio.Event()
                rng = random.Random(5)

                async def players() -> list[dict]:
                    seen: list[list[int]] = [[], [], []]
                    urls = [base.format(port_a) + f"?token={t}" for t in tokens]
                    ends = await asyncio.gather(*(player(u, seen[i]) for i, u in enumerate(urls)))
                    done.set()
                    return ends

                async def watcher() -> None:
                    while not done.is_set():
                        states = []
                        async with websockets.connect(base.format(port_b)) as ws:
                            stay = rng.choice([1, 2, 4])
                            while len(states) <= stay and (
                                not states or states[-1]["status"] != "finished"
                            ):
                                states.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
                        sessions.append(states)
                        await asyncio.sleep(rng.choice([0, 0.02, 0.1]))

                ends, *_ = await asyncio.gather(players(), watcher(), watcher())
                return ends, sessions

            ends, sessions = run_async(scenario())
            final = ends[0]["seq"]
            assert len(sessions) >= 4
            for states in sessions:
                steps = {b["seq"] - a["seq"] for a, b in itertools.pairwise(states)}
                assert steps <= {0, 1}, f"a gap: {[s['seq'] for s in states]}"
            assert any(s[-1]["seq"] == final for s in sessions)
            check = "from gameplay.models import Table; print(Table.objects.get(pk='%s').watchers)"
            deadline = time.monotonic() + 30  # a loaded machine closes late
            while (left := manage(env, "shell", "-v0", "-c", check % table_id).split()[-1]) != "0":
                assert time.monotonic() < deadline, f"{left} spectators still counted"
                time.sleep(0.2)
