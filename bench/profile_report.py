"""Where a table server's CPU goes per move, from `bench/tables.py --profile DIR`.

    .venv/bin/python bench/profile_report.py DIR          # every <server>-<port>.pstats there
    .venv/bin/python bench/profile_report.py DIR --top 40 # and the top functions by own time

(and every <server>-<port>.timers.json of `--profile-mode timers`.)
For each profile: its own time (`tottime`) per move grouped by what the code is (the file it
lives in; a built-in such as `len` counts for its caller's group, except the ones that are a
cost of their own: zlib, the json accelerator), and the inclusive time (`cumtime`) per move of
the move path's main functions. Per move = over the moves the bench counted in the profiled
window (the `.json` beside each profile). The profiler's own overhead inflates Python-heavy
groups more than C calls: compare groups between the two servers, and against the plain runs'
CPU per move, rather than read them as absolute costs.
"""

from __future__ import annotations

import argparse
import json
import pstats
from pathlib import Path

# (group, substrings of a file path): the first match wins.
GROUPS = [
    ("engine (games/)", ["/games/"]),
    ("consumer (gameplay/consumers)", ["/gameplay/consumers/"]),
    ("payloads (state_payload, last_action)", ["/gameplay/services/payloads.py"]),
    ("notify (fan-out)", ["/gameplay/runtime/notify.py"]),
    ("play + claim + cache + after_commit", ["/gameplay/services/"]),
    ("clock", ["/gameplay/clock.py"]),
    ("other gameplay", ["/gameplay/"]),
    ("floor server", ["/bench/floor_server.py"]),
    ("WebSocket frames (websockets)", ["/websockets/"]),
    ("uvicorn (HTTP + WebSocket protocol, ASGI)", ["/uvicorn/"]),
    ("channel layer (channels_redis)", ["/channels_redis/"]),
    ("Channels (consumer base, dispatch)", ["/channels/"]),
    ("msgpack", ["/msgpack/"]),
    ("Redis client (redis-py)", ["/redis/"]),
    ("psycopg", ["/psycopg/", "/psycopg_pool/"]),
    ("Django DB (connections, cursors, pool)", ["/django/db/"]),
    ("Django other (settings, timezone, signals)", ["/django/"]),
    ("asgiref (sync_to_async: the thread hop)", ["/asgiref/"]),
    ("thread pool (concurrent.futures, threading, queue)", ["/concurrent/", "/threading.py"]),
    ("json (stdlib Python part)", ["/json/"]),
    ("asyncio", ["/asyncio/"]),
    ("datetime, zoneinfo", ["datetime", "zoneinfo"]),
]
# Built-ins that are a cost of their own rather than their caller's.
BUILTIN_GROUPS = [
    ("deflate (zlib)", ["zlib"]),
    ("json (C encoder/decoder)", ["_json", "json.decoder", "json.encoder"]),
    ("socket and selector syscalls", ["socket", "select", "epoll", "'send'", "'recv'"]),
    ("thread pool (concurrent.futures, threading, queue)", ["_queue", "_thread.lock"]),
    ("msgpack", ["msgpack"]),
]

# Inclusive costs of the move path's pieces: (label, file substring, function name).
INCLUSIVE = [
    ("consumer.receive (an act on the loop)", "consumers/table.py", "receive"),
    ("play_action (the service call, in the pool)", "services/play.py", "play_action"),
    ("play._apply (engine apply, fields, claim)", "services/play.py", "_apply"),
    ("claim.claim (the one statement)", "services/claim.py", "claim"),
    ("claim.state_text (the state column JSON)", "services/claim.py", "state_text"),
    (
        "after_commit (payloads, cache, publish hand-off)",
        "services/after_commit.py",
        "after_commit",
    ),
    ("state_messages (all receivers, with texts)", "services/payloads.py", "state_messages"),
    ("notify.send_states", "services/notify.py", "send_states"),
    ("notify._publish (the pipeline)", "services/notify.py", "_publish"),
    ("consumer.table_state (forwards)", "consumers/table.py", "table_state"),
    ("layer receive (channels_redis)", "channels_redis/pubsub.py", "receive"),
    ("asgiref SyncToAsync.__call__", "asgiref/sync.py", "__call__"),
    ("floor receive (an act)", "bench/floor_server.py", "receive"),
    ("floor append (the round trip)", "bench/floor_server.py", "append"),
    ("floor publish", "bench/floor_server.py", "publish"),
    ("floor read_back (all forwards)", "bench/floor_server.py", "read_back"),
]


def group_of(filename: str, name: str) -> str | None:
    """The group of a function by where it lives; None for a built-in with no group of its
    own (it counts for its caller)."""
    if filename == "~":
        for group, keys in BUILTIN_GROUPS:
            if any(k in name for k in keys):
                return group
        return None
    for group, keys in GROUPS:
        if any(k in filename for k in keys):
            return group
    return "other Python"


def report(path: Path, top: int) -> None:
    meta_file = path.with_suffix(".json")
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
    moves = meta.get("moves") or 1
    stats = pstats.Stats(str(path))
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())
    groups: dict[str, float] = {}

    def charge(func: tuple, tt: float, depth: int = 0) -> None:
        group = group_of(func[0], func[2])
        if group is None:
            callers = raw[func][4] if func in raw else {}
            caller_total = sum(c[2] for c in callers.values())
            if depth > 3 or not callers or caller_total <= 0:
                group = "built-ins (other)"
            else:
                for caller, c in callers.items():
                    charge_builtin_share(caller, tt * c[2] / caller_total, depth)
                return
        groups[group] = groups.get(group, 0.0) + tt

    def charge_builtin_share(caller: tuple, tt: float, depth: int) -> None:
        group = group_of(caller[0], caller[2])
        if group is None:  # a built-in called by a built-in: go one more level up
            charge(caller, tt, depth + 1)
            return
        groups[group] = groups.get(group, 0.0) + tt

    for func, (_cc, _nc, tt, _ct, _callers) in raw.items():
        charge(func, tt)
    print(f"== {path.name}: {meta.get('server', '?')} at {meta.get('tables', '?')} tables")
    print(
        f"   {moves} moves profiled; {total * 1000 / moves:.3f} ms of profiled CPU per move "
        f"(plain runs measure less: the profiler's overhead)"
    )
    print("   own time per move, by group:")
    for group, tt in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"   {tt * 1000 / moves:8.3f} ms  {tt / total * 100:5.1f} %  {group}")
    print("   inclusive per move:")
    for label, file_key, name in INCLUSIVE:
        ct = sum(v[3] for f, v in raw.items() if file_key in f[0] and f[2] == name)
        calls = sum(v[1] for f, v in raw.items() if file_key in f[0] and f[2] == name)
        if calls:
            print(f"   {ct * 1000 / moves:8.3f} ms  {calls / moves:5.2f} calls/move  {label}")
    if top:
        print(f"   top {top} by own time:")
        stats.sort_stats("tottime").print_stats(top)


def report_timers(path: Path) -> None:
    """A `--profile-mode timers` file: each wrapped function's inclusive CPU per move."""
    meta_file = path.with_name(path.name.replace(".timers.json", ".json"))
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
    moves = meta.get("moves") or 1
    print(f"== {path.name}: {meta.get('server', '?')} at {meta.get('tables', '?')} tables")
    print(
        f"   {moves} moves; {meta.get('server_cpu_ms_per_move', '?')} ms of server CPU per move "
        "(the whole process); inclusive CPU of the wrapped functions:"
    )
    timers = json.loads(path.read_text())
    for label, t in sorted(timers.items(), key=lambda kv: -kv[1]["cpu_s"]):
        if label.startswith("[thread]"):
            print(f"   {t['cpu_s'] * 1000 / moves:8.3f} ms/move  {label}")
            continue
        print(
            f"   {t['cpu_s'] * 1000 / moves:8.3f} ms/move  {t['calls'] / moves:5.2f} calls/move  "
            f"{t['cpu_s'] / t['calls'] * 1e6:7.1f} us/call  {label}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    for path in sorted(Path(args.dir).glob("*.pstats")):
        report(path, args.top)
    for path in sorted(Path(args.dir).glob("*.timers.json")):
        report_timers(path)


if __name__ == "__main__":
    main()
