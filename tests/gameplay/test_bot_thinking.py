"""Where bots think: never in the table server's process.

Embedded, a bot move is read and applied on the server and thought in the process pool beside
it; scaled, the whole move is a task on the Celery queue `bots`. The clock, which runs where the
server does, answers for a searching level with the basic bot's choice instead of searching.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay import queue
from gameplay.models import Action
from gameplay.runtime import bot_jobs as jobs
from gameplay.runtime import runner, thinkers
from gameplay.services import bot_moves, clocks, matches
from gameplay.services.create import SeatSpec, create_table
from games import bots
from games.core.bots.search import Budget
from games.registry import start_match
from tests.procs import ROOT

from .conftest import make_users, token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async
GAME = "schieberamsch"


def strong_table(person) -> Any:
    seats = [SeatSpec(person.username, user_id=person.pk)]
    seats += [SeatSpec(f"S{n}", bot=f"S{n}", bot_level="strong") for n in (1, 2)]
    return create_table(GAME, seats, seed=9, dealer=2)  # the person (forehand) speaks first


def a_job() -> jobs.BotJob:
    match = start_match(GAME, seed=4, n_deals=1)
    seat = match.to_act()[0]
    return jobs.BotJob(
        table_id="t",
        seq=0,
        seat=seat,
        game=GAME,
        level="strong",
        view=match.view(seat),
        legal=match.legal(seat),
        rng_seed="secret/0/0",
        budget=Budget(iterations=3),
    )


def test_the_pool_thinks_in_another_process_and_gives_the_same_action():
    job = a_job()
    assert thinkers.pool().submit(os.getpid).result(timeout=60) != os.getpid()
    assert asyncio.run(thinkers.think_beside(job)) == jobs.think(job)
    assert "secret" not in repr(job) and "hand" not in repr(job)


async def test_a_strong_bot_at_a_table_moves_without_thinking_in_the_server(settings, monkeypatch):
    settings.GAMEPLAY_BOT_SECONDS = {"strong": 0.05}
    # If this process thought itself, the move would fail: its `think` is broken here (the
    # pool's processes import their own).
    monkeypatch.setattr(bot_moves, "think", lambda job: pytest.fail("thought in the server"))
    ana = (await db(make_users)("ana"))[0]
    table = await db(strong_table)(ana)
    path = f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}"
    comm = WebsocketCommunicator(application, path)
    assert (await comm.connect())[0]
    state = await comm.receive_json_from(timeout=5)
    assert state["to_act"] == [0]
    await comm.send_json_to({"type": "act", "seq": 0, "action": {"act": "pass"}})
    state = await comm.receive_json_from(timeout=5)
    while 0 not in state["to_act"]:  # the two strong bots decide, beside the server
        state = await comm.receive_json_from(timeout=30)
    kinds = await db(list)(Action.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds[0] == Action.Kind.PLAYER and set(kinds[1:]) == {Action.Kind.BOT}
    assert len(kinds) >= 3
    await comm.disconnect()


def test_bot_moves_go_to_their_own_celery_queue():
    route = current_app.amqp.router.route({}, queue.BOT_MOVE)
    assert route["queue"].name == "bots"
    assert current_app.amqp.router.route({}, queue.SWEEP_CLOCKS)["queue"].name != "bots"


def test_a_job_carries_the_finished_deals_to_a_searching_level_only(settings):
    settings.GAMEPLAY_BOT_SECONDS = {"strong": 0.2}
    assert bot_moves.budget_for(GAME, "strong") == Budget(seconds=0.2)
    assert bot_moves.budget_for(GAME, "basic") is None


def test_the_clock_answers_for_a_strong_seat_with_the_basic_bots_choice(monkeypatch):
    from games.core.bots import strong

    monkeypatch.setattr(strong, "search", lambda *a, **k: pytest.fail("searched on the clock"))
    ana = make_users("ana")[0]
    seats = [SeatSpec("ana", user_id=ana.pk), SeatSpec("B", bot="B", bot_level="strong")]
    seats.append(SeatSpec("C", bot="C", bot_level="strong"))
    monkeypatch.setattr("gameplay.runtime.runner.schedule_bot", lambda *a: None)
    table = create_table(GAME, seats, seed=3, dealer=0)
    table.refresh_from_db()
    match = matches.load_match(table)
    rng = random.Random(2)
    while True:
        seat = match.to_act()[0]
        if len(match.legal(seat)) > 1 and {"act": "pass"} not in match.legal(seat):
            break
        match.apply(seat, bots.random_action(match.legal(seat), rng))
    got = clocks.default_action(match, seat, random.Random(1), "strong")
    want = bots.choose_action(GAME, match.view(seat), match.legal(seat), random.Random(1))
    assert got == want


async def test_a_bot_move_in_flight_is_not_thought_twice_when_the_sweeper_requeues_it(
    monkeypatch,
):
    calls = []

    async def move(*args):
        calls.append(args)
        await asyncio.sleep(0.05)

    monkeypatch.setitem(queue._on_loop, queue.BOT_MOVE, move)
    loop = asyncio.get_running_loop()
    runner._call_later(loop, 0, "t", 3)
    runner._call_later(loop, 0, "t", 3)  # re-queued while the first is thinking: dropped
    await asyncio.sleep(0.2)
    runner._call_later(loop, 0, "t", 3)  # that one is done: a new request runs
    runner._call_later(loop, 0, "t", 4)
    await asyncio.sleep(0.2)
    assert calls == [("t", 3, 0), ("t", 3, 0), ("t", 4, 0)]


def test_a_pool_process_leaves_when_its_server_is_killed():
    """A server killed without its exit handlers leaves no bot process behind."""
    script = (
        "import multiprocessing, os\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from gameplay.runtime.bot_jobs import warm\n"
        "pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('spawn'),"
        " initializer=warm)\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "os._exit(0)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    child = int(run.stdout.strip())
    for _ in range(100):
        if not Path(f"/proc/{child}").exists():
            break
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("the bot process outlived its server")
