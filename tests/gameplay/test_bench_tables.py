"""`bench/tables.py` keeps working (it is how the table server's figures are measured): a tiny
run against real servers loses nothing and reports every figure."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.floor_server import Floor, Line, Step, _cut
from bench.tables import next_slot
from tests.procs import ROOT

from .test_scale import shared_database

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def bench(env: dict[str, str], *args: str, timeout: float) -> subprocess.CompletedProcess:
    """`bench/tables.py` with these arguments in a child process (its output captured)."""
    return subprocess.run(
        [sys.executable, "bench/tables.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_late_table_keeps_its_phase():
    assert next_slot(10.0, 1.0, 10.5) == 11.0
    assert next_slot(10.0, 1.0, 13.4) == 14.0  # slots 11..13 missed: next on the same phase
    assert next_slot(10.25, 0.5, 10.3) == 10.75


def test_the_floor_replays_its_line_in_a_cycle_with_each_seq_written_in():
    def state(seq: int, seat: int, hand: str) -> tuple[bytes, bytes]:
        return _cut(f'{{"type":"state","table":"t1","seq":{seq},"seat":{seat},"h":"{hand}"}}', seq)

    steps = [
        Step(0, {"act": "a"}, [state(0, 0, "x"), state(0, 1, "y")]),
        Step(1, {"act": "b"}, [state(1, 0, "z"), state(1, 1, "w")]),
    ]

    class Redis:
        def pubsub(self) -> None:
            return None

    floor = Floor([Line("t1", ["tok0", "tok1"], steps)], [], Redis(), "floor")
    table = floor.tables["t1"]
    assert json.loads(table.text(5, 1)) == {
        "type": "state",
        "table": "t1",
        "seq": 5,
        "seat": 1,
        "h": "w",
    }  # seq 5 is the line's position 1 (5 mod 2), with its own seq
    assert floor.identify("/ws/tables/t1/", "token=tok1") == (table, 1)
    assert floor.identify("/ws/tables/t1/", "") == (table, None)  # a spectator
    assert floor.identify("/ws/tables/t1/", "token=nope") is None
    assert floor.identify("/ws/tables/t1/", "token=") is None
    assert floor.identify("/ws/tables/t2/", "token=tok1") is None


def test_a_small_bench_run_loses_nothing_on_mediana_nor_on_the_floor(tmp_path):
    with shared_database(tmp_path) as env:
        run = bench(env, "--tables", "4", "--rate", "2", "--duration", "2", "--warmup", "3",
                    "--baseline", timeout=240)  # fmt: skip
    assert run.returncode == 0, run.stderr
    *runs, summary = [json.loads(line) for line in run.stdout.strip().splitlines()]
    assert [r["server"] for r in runs] == ["mediana", "floor"]
    for figures in runs:
        assert figures["seq_gaps"] == 0 and figures["errors"] == {}, figures
        assert figures["failed_sockets"] == {}, figures
        assert figures["moves_per_s"] > 0 and figures["p99_ms"] is not None
        assert figures["sockets"] == 12 and figures["all_connected_s"] is not None
        assert figures["server_cpu_ms_per_move"] > 0
    (point,) = summary["summary"]
    mediana, floor = runs
    assert point["cpu_per_move_vs_floor"] == round(
        mediana["server_cpu_ms_per_move"] / floor["server_cpu_ms_per_move"], 2
    )
    assert set(summary["highest_rate_p99_under_100ms"]) == {"mediana", "floor"}
    assert "| 4 | floor |" in run.stderr  # the table for people


def test_a_small_bench_run_with_a_strong_bot_at_every_table_reports_the_bots_apart(tmp_path):
    with shared_database(tmp_path) as env:
        run = bench(env, "--tables", "3", "--rate", "4", "--duration", "3", "--warmup", "3",
                    "--strong-bots", "--bot-seconds", "0.05", timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    figures, summary = [json.loads(line) for line in run.stdout.strip().splitlines()]
    assert figures["seq_gaps"] == 0 and figures["errors"] == {}, figures
    assert figures["failed_sockets"] == {}, figures
    assert figures["sockets"] == 6  # two client seats a table: the third is the bot's
    assert figures["client_moves"] > 0 and figures["p99_ms"] is not None
    assert figures["bot_moves"] > 0 and figures["bot_moves_per_s"] > 0, figures
    assert figures["bot_lag_p50_ms"] is not None and figures["bot_lag_p99_ms"] is not None
    assert figures["bot_processes_found"] == 1 and figures["bot_moves_per_s_per_process"] > 0
    assert figures["pool_cpu_ms_per_bot_move"] > 0 and figures["server_cpu_ms_per_move"] > 0
    (point,) = summary["summary"]
    assert point["mediana"]["bot_moves_per_s"] == figures["bot_moves_per_s"]
    assert "bot lag p99 ms" in run.stderr  # the table for people
