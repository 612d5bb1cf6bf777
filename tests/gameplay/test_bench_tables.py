"""`bench/tables.py` keeps working (it is how the table server's figures are measured): a tiny
run against real servers loses nothing and reports every figure."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench.tables import next_slot
from tests.procs import ROOT

from .test_scale import shared_database

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def test_a_late_table_keeps_its_phase():
    assert next_slot(10.0, 1.0, 10.5) == 11.0
    assert next_slot(10.0, 1.0, 13.4) == 14.0  # slots 11..13 missed: next on the same phase
    assert next_slot(10.25, 0.5, 10.3) == 10.75


def test_a_small_bench_run_loses_nothing(tmp_path):
    with shared_database(tmp_path) as env:
        run = subprocess.run(
            [
                sys.executable,
                "bench/tables.py",
                *["--tables", "4", "--rate", "2", "--duration", "2", "--warmup", "3"],
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["seq_gaps"] == 0 and figures["errors"] == {}
    assert figures["moves_per_s"] > 0 and figures["p99_ms"] is not None
    assert figures["sockets"] == 12 and figures["all_connected_s"] is not None
