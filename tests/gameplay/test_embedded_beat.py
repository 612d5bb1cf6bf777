"""The embedded beat (gameplay/runtime/beat.py): beat's own schedule, run by the server process
when there is no broker; each job at its interval, a failing one logged without stopping the
others, none twice at once; started once per loop, and only in the embedded mode."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest
from celery import shared_task
from django.conf import settings as django_settings

from gameplay import queue
from gameplay.runtime import runner
from gameplay.runtime.beat import EmbeddedBeat, most_at_once, pool_size

calls: dict[str, list[tuple]] = {}
_lock = threading.Lock()
_busy = {"now": 0, "most": 0}


def _record(name: str, *args) -> None:
    with _lock:
        calls.setdefault(name, []).append(args)


@shared_task(name="tests.beat.count")
def count(*args) -> None:
    _record("count", *args)


@shared_task(name="tests.beat.boom")
def boom() -> None:
    _record("boom")
    raise RuntimeError("the job broke")


@shared_task(name="tests.beat.slow")
def slow() -> None:
    with _lock:
        _busy["now"] += 1
        _busy["most"] = max(_busy["most"], _busy["now"])
    time.sleep(0.2)
    with _lock:
        _busy["now"] -= 1
    _record("slow")


@pytest.fixture(autouse=True)
def fresh():
    calls.clear()
    _busy.update(now=0, most=0)


def every(task: str, seconds: float, **more) -> dict:
    return {"task": task, "schedule": seconds, "options": {"expires": 5}, **more}


async def run_for(beat: EmbeddedBeat, seconds: float, until: Callable[[], bool]) -> None:
    """Run the beat until `until()` holds (at most `seconds`), then stop it."""
    beat.start()
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not until() and loop.time() < give_up:
        await asyncio.sleep(0.02)
    await beat.stop()


def test_the_jobs_are_beats_schedule_itself():
    beat = EmbeddedBeat(django_settings.CELERY_BEAT_SCHEDULE)
    schedule = {
        name: (spec["task"], float(spec["schedule"]))
        for name, spec in django_settings.CELERY_BEAT_SCHEDULE.items()
    }
    jobs = {j.entry.name: (j.entry.task, j.entry.schedule.seconds) for j in beat.jobs}
    assert jobs == schedule
    assert {queue.SWEEP_CLOCKS, "league.apply_deadline_policies"} <= {t for t, _ in jobs.values()}


async def test_a_failing_job_is_logged_and_the_others_run_on(caplog):
    beat = EmbeddedBeat(
        {"boom": every("tests.beat.boom", 0.05), "count": every("tests.beat.count", 0.05)}
    )
    await run_for(beat, 5, lambda: len(calls.get("boom", [])) >= 3 and len(calls["count"]) >= 3)
    assert len(calls["boom"]) >= 3 and len(calls["count"]) >= 3
    assert beat.jobs[0].failures == beat.jobs[0].runs >= 3
    assert beat.jobs[1].failures == 0
    logged = [
        r for r in caplog.records if r.name == "gameplay.runtime.beat" and r.levelname == "ERROR"
    ]
    assert logged and "tests.beat.boom" in logged[0].getMessage()
    assert logged[0].exc_info and "the job broke" in str(logged[0].exc_info[1])


async def test_a_job_never_runs_twice_at_once():
    # Due every 10 ms, it takes 200 ms: each run waits for the one before.
    beat = EmbeddedBeat({"slow": every("tests.beat.slow", 0.01)})
    await run_for(beat, 5, lambda: len(calls.get("slow", [])) >= 3)
    assert len(calls["slow"]) >= 3
    assert _busy["most"] == 1


async def test_each_job_at_its_interval_the_first_at_once():
    beat = EmbeddedBeat(
        {
            "often": every("tests.beat.count", 0.05, args=["often"]),
            "seldom": every("tests.beat.count", 3600, args=["seldom"]),
        }
    )
    await run_for(beat, 5, lambda: calls.get("count", []).count(("often",)) >= 4)
    assert calls["count"].count(("often",)) >= 4
    assert calls["count"].count(("seldom",)) == 1  # at the start, then not for an hour


async def test_a_job_may_run_with_other_arguments_the_first_time():
    beat = EmbeddedBeat(
        {"count": every("tests.beat.count", 0.05, args=[None])},
        first_args={"tests.beat.count": (0.0,)},
    )
    await run_for(beat, 5, lambda: len(calls.get("count", [])) >= 3)
    assert calls["count"][0] == (0.0,)
    assert set(calls["count"][1:]) == {(None,)}


async def test_the_server_starts_one_beat_per_loop_and_only_when_embedded(settings):
    settings.CELERY_BEAT_SCHEDULE = {"count": every("tests.beat.count", 3600)}
    settings.GAMEPLAY_EMBEDDED_SWEEPER = True
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a real broker: beat's work, not the server's
    runner.start_embedded_services()
    assert runner.embedded_beat() is None

    settings.CELERY_TASK_ALWAYS_EAGER = True
    runner.start_embedded_services()
    beat = runner.embedded_beat()
    try:
        assert beat is not None
        runner.start_embedded_services()  # every request and socket calls it again
        assert runner.embedded_beat() is beat and len(beat.jobs) == 1
    finally:
        await runner.stop_embedded_services()
    assert runner.embedded_beat() is None


async def test_tests_and_a_server_with_the_setting_off_start_none(settings):
    settings.CELERY_BEAT_SCHEDULE = {"count": every("tests.beat.count", 3600)}
    settings.GAMEPLAY_EMBEDDED_SWEEPER = False
    runner.start_embedded_services()
    assert runner.embedded_beat() is None
    await asyncio.sleep(0.05)
    assert calls == {}


def test_the_beat_keeps_half_the_connection_pool_for_the_tables():
    assert most_at_once(12, None) == 12  # no pool (SQLite): a thread per job
    assert [most_at_once(12, size) for size in (10, 30, 1)] == [5, 12, 1]
    pooled = django_settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    assert pool_size() == (pooled["max_size"] if pooled else None)
