"""`bench/ratings.py` keeps working (docs/ratings.md's figures come from it): the quick runs of
both modes report every figure, in range, for every cell asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FEEDS = ("raw", "duplicate", "field")


def bench(*args: str) -> str:
    run = subprocess.run(
        [sys.executable, "bench/ratings.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_duplicate_bench_reports_every_feed_for_every_cell_in_range():
    records = json.loads(bench("--duplicate", "--quick", "--json"))
    cells = {(r["rounds"], r["luck"], r["seats"]) for r in records}
    assert cells == {(n, luck, seats) for n in (2, 4) for luck in (0.0, 4.0) for seats in (3, 4)}
    assert len(records) == len(cells)
    for r in records:
        assert r["leagues"] == 2
        assert r["chance_winner"] == 1 / r["seats"]
        assert 0 <= r["oracle_winner"] <= 1
        for feed in FEEDS:
            assert set(r[feed]) == {"winner", "pairs", "spearman"}
            assert 0 <= r[feed]["winner"] <= 1
            assert 0 <= r[feed]["pairs"] <= 1
            assert -1 <= r[feed]["spearman"] <= 1
        # the gain is paired per league: its mean is the difference of the means
        assert abs(r["pairs_gain"] - (r["duplicate"]["pairs"] - r["raw"]["pairs"])) < 1e-9
        assert r["pairs_gain_se"] >= 0
        if r["luck"] == 0:
            # without luck every feed sees the skills: ratings reversed or ignored would not
            for feed in FEEDS:
                assert r[feed]["pairs"] > 0.5 and r[feed]["spearman"] > 0, (feed, r)


def test_both_modes_print_their_tables():
    duplicate = bench("--duplicate", "--quick").splitlines()
    assert sum(line.startswith("After ") for line in duplicate) == 2  # one table per checkpoint
    rows = [line for line in duplicate if line.startswith("| ") and "%" in line]
    assert len(rows) == 8 and all(line.endswith(" pt |") for line in rows)

    models = bench("--quick").splitlines()
    rows = [line for line in models if line.startswith("| ") and "%" in line]
    assert len(rows) == 7 and rows[-1].startswith("| oracle (true skills) |")
