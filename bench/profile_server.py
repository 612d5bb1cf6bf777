"""Run a table server (Mediana's uvicorn, or the floor) with a profiler in every thread.

    .venv/bin/python bench/profile_server.py --out FILE mediana PORT
    .venv/bin/python bench/profile_server.py --out FILE floor -- FLOOR_SERVER_ARGS...

`bench/tables.py --profile DIR` starts its servers this way and signals them: SIGUSR1 when it
starts measuring (what was collected so far, the connections and the warm-up, is dropped),
SIGUSR2 when it stops (the profile of the measured window is written to FILE, a `pstats` file
merged over all threads). `--mode cprofile` (default): `cProfile` with each thread's own CPU
clock (`time.thread_time`), so a thread waiting on a socket or a lock costs nothing; it slows
Python-heavy code more than C calls, so read its shares against `--mode timers` and the plain
runs. `--mode timers`: no profiler, only the CPU time (`thread_time`) spent inside a few
functions of the move path, wrapped here (not in gameplay/): their inclusive cost per call is
written to FILE as JSON. Read either with `bench/profile_report.py`.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_profilers: list[cProfile.Profile] = []
_lock = threading.Lock()


def _start_in_thread(*_: Any) -> None:
    """`threading.setprofile` hook: the first event of a new thread starts its own profiler."""
    sys.setprofile(None)
    prof = cProfile.Profile(time.thread_time)
    with _lock:
        _profilers.append(prof)
    prof.enable()


def profile_threads() -> None:
    """A profiler in this thread now and in every thread started from here on."""
    threading.setprofile(_start_in_thread)
    _start_in_thread()


def clear_profiles() -> None:
    with _lock:
        for prof in _profilers:
            prof.clear()


class _Snapshot:
    """A profile's figures so far, for `pstats`: `pstats.Stats(profile)` would disable the
    profile from this thread, which closes the calls still open in the profile's own thread
    (an idle worker's queue wait) with this thread's clock, and counts nonsense."""

    def __init__(self, prof: cProfile.Profile) -> None:
        prof.snapshot_stats()  # calls still open are left out, not closed
        self.stats = prof.stats

    def create_stats(self) -> None:
        pass


def dump_profiles(out: Path) -> None:
    """Merge every thread's profile into one pstats file (threads go on being profiled)."""
    stats = None
    with _lock:
        profs = list(_profilers)
    for prof in profs:
        snap = _Snapshot(prof)
        if not snap.stats:
            continue
        if stats is None:
            stats = pstats.Stats(snap)
        else:
            stats.add(snap)
    if stats is not None:
        stats.dump_stats(str(out))


# ------------------------------------------------------------------ timers
class Timers:
    """Inclusive thread CPU time and calls of wrapped functions (a wrapped function called
    inside another one counts in both: each figure is inclusive)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()

    def wrap(self, owner: Any, name: str, label: str) -> None:
        func = getattr(owner, name)
        timers = self
        is_async = _is_coroutine(func)

        if is_async:

            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                # Coroutines interleave on the loop thread: count only the CPU of this
                # coroutine's own steps, i.e. between its awaits, by timing each send().
                coro = func(*args, **kwargs)
                spent = 0.0
                value: Any = None
                exc: BaseException | None = None
                while True:
                    start = time.thread_time()
                    try:
                        step = coro.throw(exc) if exc is not None else coro.send(value)
                    except StopIteration as stop:
                        spent += time.thread_time() - start
                        timers.add(label, spent)
                        return stop.value
                    except BaseException:
                        spent += time.thread_time() - start
                        timers.add(label, spent)
                        raise
                    spent += time.thread_time() - start
                    try:
                        value = await _Yield(step)
                        exc = None
                    except BaseException as e:  # handed to the coroutine
                        value, exc = None, e

            setattr(owner, name, timed_async)
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                timers.add(label, time.thread_time() - start)

        setattr(owner, name, timed)

    def add(self, label: str, seconds: float) -> None:
        with self.lock:
            self.cpu[label] = self.cpu.get(label, 0.0) + seconds
            self.calls[label] = self.calls.get(label, 0) + 1

    def clear(self) -> None:
        with self.lock:
            self.cpu.clear()
            self.calls.clear()
        self.threads0 = thread_cpu()

    def dump(self, out: Path) -> None:
        figures = {k: {"cpu_s": self.cpu[k], "calls": self.calls[k]} for k in self.cpu}
        # The process's threads: the event loop's (the main thread) and the pool's, which
        # tells the thread-pool side of the move from the loop's side.
        before = getattr(self, "threads0", {})
        loop_s = pool_s = 0.0
        for tid, (name, cpu) in thread_cpu().items():
            spent = cpu - before.get(tid, (name, 0.0))[1]
            if tid == os.getpid():
                loop_s += spent
            else:
                pool_s += spent
        figures["[thread] the event loop (main thread), all of it"] = {"cpu_s": loop_s, "calls": 1}
        figures["[thread] every other thread (the pool), all of it"] = {"cpu_s": pool_s, "calls": 1}
        out.write_text(json.dumps(figures))


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Each thread of this process: its name and its CPU seconds (utime + stime) so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:  # the thread ended meanwhile
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        out[int(task.name)] = (name, (int(fields[11]) + int(fields[12])) / ticks)
    return out


class _Yield:
    """Await what a wrapped coroutine yielded, as the coroutine itself would have."""

    def __init__(self, step: Any) -> None:
        self.step = step

    def __await__(self) -> Any:
        return (yield self.step)


def _is_coroutine(func: Any) -> bool:
    import inspect

    return inspect.iscoroutinefunction(func)


def time_move_path(timers: Timers) -> None:
    """Wrap the move path's pieces (their modules are imported by config.asgi already)."""
    from channels_redis import pubsub

    from gameplay.consumers import table
    from gameplay.runtime import claim, notify
    from gameplay.services import after_commit, play

    timers.wrap(play, "play_action", "play_action (service, in the pool)")
    # in_pool's wrapper runs it before and after every service call (the pool checkout/return).
    timers.wrap(table, "close_old_connections", "close_old_connections (in_pool, once a call)")
    timers.wrap(play, "_apply", "play._apply (engine apply, claim, fields)")
    timers.wrap(claim, "claim", "claim.claim (the statement)")
    timers.wrap(claim, "state_text", "claim.state_text (state column JSON)")
    # play_action calls after_commit through its own name (run at once: autocommit).
    timers.wrap(play, "after_commit", "after_commit (payloads + publish hand-off)")
    timers.wrap(after_commit, "state_messages", "state_messages (all receivers, with texts)")
    timers.wrap(notify, "_publish", "notify._publish (pipeline, on the loop)")
    timers.wrap(table.TableConsumer, "receive", "consumer.receive (whole act, on the loop)")
    timers.wrap(table.TableConsumer, "table_state", "consumer.table_state (one forward)")
    timers.wrap(pubsub.RedisPubSubLoopLayer, "receive", "layer.receive (one message)")


def time_floor(timers: Timers, floor_server: Any) -> None:
    """The floor's pieces, for the same comparison."""
    floor = floor_server.Floor
    timers.wrap(floor, "receive", "floor receive (whole act, with append and publish)")
    timers.wrap(floor, "append", "floor append (the round trip)")
    timers.wrap(floor, "publish", "floor publish (the pipeline)")


# ------------------------------------------------------------------ the servers
def run_mediana(port: int) -> None:
    import uvicorn

    from config.websocket_frames import MAX_FRAME_BYTES

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # README's flags: the client address is Mediana's decision, frames are capped.
    uvicorn.run(
        "config.asgi:application",
        host="127.0.0.1",
        port=port,
        log_level="warning",
        proxy_headers=False,
        ws_max_size=MAX_FRAME_BYTES,
    )


def run_floor(argv: list[str], timers: Timers | None = None) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import floor_server

    if timers is not None:
        time_floor(timers, floor_server)
    sys.argv = ["floor_server.py", *argv]
    floor_server.main()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="where SIGUSR2 writes the profile")
    parser.add_argument("--mode", choices=["cprofile", "timers"], default="cprofile")
    parser.add_argument("server", choices=["mediana", "floor"])
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    out = Path(args.out)
    sys.path.insert(0, str(ROOT))
    rest = [a for a in args.rest if a != "--"]
    timers = Timers() if args.mode == "timers" else None
    start: Callable[[], None]
    if args.server == "mediana":
        start = lambda: run_mediana(int(rest[0]))  # noqa: E731
    else:
        start = lambda: run_floor(rest, timers)  # noqa: E731
    if timers is not None:
        if args.server == "mediana":
            import django

            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
            django.setup()
            time_move_path(timers)
        signal.signal(signal.SIGUSR1, lambda *_: timers.clear())
        signal.signal(signal.SIGUSR2, lambda *_: timers.dump(out))
    else:
        signal.signal(signal.SIGUSR1, lambda *_: clear_profiles())
        signal.signal(signal.SIGUSR2, lambda *_: dump_profiles(out))
        profile_threads()
    start()


if __name__ == "__main__":
    main()
