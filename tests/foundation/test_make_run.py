"""`make run` gives its commands the address it serves as `SITE_URL` (the links in mailed
notices), unless `SITE_URL` is set. Run with a stand-in for the virtualenv's python that only
writes down what it was given."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.procs import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def make_run(tmp_path: Path, *args: str, **env: str) -> list[str]:
    """`make run ARGS` with a python that logs `SITE_URL` and its arguments; the log lines."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "log"
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\necho "$SITE_URL $*" >> {log}\n')
    python.chmod(0o755)
    (venv / ".base").touch()  # installed: newer than requirements/base.txt
    environment = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SITE_URL")}
    environment.update(env)
    subprocess.run(
        ["make", "--no-print-directory", "run", f"VENV={venv}", f"BIN={venv / 'bin'}", *args],
        cwd=ROOT,
        env=environment,
        check=True,
        capture_output=True,
        timeout=60,
    )
    return log.read_text().splitlines()


def test_site_url_follows_host_and_port(tmp_path):
    lines = make_run(tmp_path, "PORT=8102")
    assert lines[-1] == "http://127.0.0.1:8102 manage.py runserver 127.0.0.1:8102"
    assert all(line.startswith("http://127.0.0.1:8102 ") for line in lines)
    assert make_run(tmp_path / "env", PORT="8103", HOST="localhost")[-1] == (
        "http://localhost:8103 manage.py runserver localhost:8103"
    )


def test_a_site_url_that_is_set_is_kept(tmp_path):
    lines = make_run(tmp_path, "PORT=8102", SITE_URL="https://mediana.example.org")
    assert lines[-1] == "https://mediana.example.org manage.py runserver 127.0.0.1:8102"
