"""Time in the embedded mode: the server process runs beat's schedule itself, from its start.

The ASGI application is started as uvicorn starts it (its lifespan), with no request and no
table socket, and the wall clock is moved under it (time-machine: the event loop's own clock,
and so the beat's sleeps, keep real time). An asynchronous round's players get the reminder
before its deadline, and after it the "deadline passed" notice and the event's policy - as
with beat beside a real broker, by the same schedule."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.core import mail

from config.asgi import application
from gameplay.runtime import runner
from league import queue as league_queue
from league.models import Fixture, Notice, Result
from league.services import schedule
from tests.schedule.conftest import T0

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the beat's threads read what the test wrote
    pytest.mark.usefixtures("close_thread_connections"),
]

START = T0
DEADLINE = T0 + timedelta(days=7)
WAIT_SECONDS = 15.0


class Lifespan:
    """The ASGI lifespan of `application`, driven as uvicorn drives it."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict] = asyncio.Queue()
        self.task: asyncio.Task | None = None

    async def send(self, kind: str) -> None:
        if self.task is None:
            scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
            self.task = asyncio.create_task(application(scope, self.inbox.get, self.outbox.put))
        await self.inbox.put({"type": f"lifespan.{kind}"})
        answer = await asyncio.wait_for(self.outbox.get(), WAIT_SECONDS)
        assert answer["type"] == f"lifespan.{kind}.complete"


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait (real time) until `check()`, read in a thread of its own, holds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + WAIT_SECONDS
    while not await sync_to_async(check)():
        assert loop.time() < give_up, f"still waiting for {what}"
        await asyncio.sleep(0.05)


def notices(kind: str) -> int:
    return Notice.objects.filter(kind=kind).count()


counted = sync_to_async(notices)


@pytest.fixture
def round_with_a_deadline(make_event, publish):
    """An asynchronous league whose absent seats forfeit at the deadline; seat 0 showed up."""
    with time_machine.travel(START - timedelta(hours=1), tick=False):
        event = make_event(asynchronous=True, deadline_policy="forfeit", time_zone="Europe/Rome")
        round_ = publish(event, starts_at=START, deadline=DEADLINE)
    fixture = Fixture.objects.get(round=round_)
    first = fixture.seats.select_related("player__user").get(number=0).player.user
    with time_machine.travel(START + timedelta(days=1), tick=False):
        schedule.propose_time(fixture, by=first, starts_at=START + timedelta(days=2))
    mail.outbox.clear()
    return fixture


async def test_the_server_reminds_and_applies_the_deadline_policy_by_itself(
    round_with_a_deadline, settings
):
    fixture = round_with_a_deadline
    settings.GAMEPLAY_EMBEDDED_SWEEPER = True  # as in a server (the tests' settings turn it off)
    settings.SITE_URL = "http://127.0.0.1:8102"
    server = Lifespan()
    with time_machine.travel(DEADLINE - timedelta(hours=30), tick=True) as clock:
        await server.send("startup")  # no request, no table socket: only the server's start
        try:
            beat = runner.embedded_beat()
            assert beat is not None
            # Every job of the schedule runs once at the start: 30 hours before the deadline,
            # no reminder yet (they go 24 hours before) and no policy.
            await until(lambda: all(job.runs for job in beat.jobs), "the first runs")
            assert await counted("deadline_soon") == await counted("deadline_passed") == 0

            clock.move_to(DEADLINE - timedelta(hours=2))
            await until(lambda: notices("deadline_soon") == 3, "the reminders")
            assert await counted("deadline_passed") == 0
            assert not await Result.objects.filter(fixture=fixture).aexists()
            reminded = beat.runs(league_queue.DEADLINE_REMINDERS)
            # The policies' job ran again at the same move of the clock (maybe just after the
            # reminders) and found nothing to apply.
            await until(
                lambda: beat.runs(league_queue.APPLY_DEADLINE_POLICIES) >= 2, "the policies' run"
            )
            assert await counted("deadline_passed") == 0

            clock.move_to(DEADLINE + timedelta(minutes=1))
            await until(lambda: notices("deadline_passed") == 3, "the deadline's notices")
            # ...and each job at its interval: the reminders (every 5 minutes) ran once more.
            await until(
                lambda: beat.runs(league_queue.DEADLINE_REMINDERS) > reminded, "the next run"
            )
        finally:
            await server.send("shutdown")
    assert runner.embedded_beat() is None

    fixture = await Fixture.objects.aget(pk=fixture.pk)
    assert fixture.deadline_outcome == "forfeit"
    result = await Result.objects.aget(fixture=fixture, current=True)
    assert result.forfeited_seats == [1, 2]  # they never showed up
    assert await counted("deadline_soon") == 3  # once per table and deadline
    subjects = sorted(m.subject for m in mail.outbox)
    assert len(subjects) == 6 and any("Deadline passed" in s for s in subjects)
    assert all("http://127.0.0.1:8102/" in m.body for m in mail.outbox)
