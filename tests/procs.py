"""Start and stop real server processes (uvicorn, Celery) for tests that need them."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def service_env(**extra: str) -> dict[str, str]:
    """The environment of a child server: real settings, the test's services, a test key."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SECRET_KEY": "test-secret-key",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONPATH": str(ROOT),
        }
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    """Run `manage.py` in a child process with this environment; its stdout (it must succeed)."""
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def wait_for_port(
    port: int, proc: subprocess.Popen, timeout: float = 30.0, host: str = "127.0.0.1"
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early with {proc.returncode}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listening on port {port} after {timeout}s")


@contextmanager
def running(args: list[str], env: dict[str, str], port: int | None = None) -> Iterator:
    """Run a child process for the duration of the block; always stop it."""
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        if port is not None:
            wait_for_port(port, proc)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def procfile_commands() -> dict[str, str]:
    """The Procfile's process types and their command lines, as honcho reads them."""
    from honcho.environ import parse_procfile

    return dict(parse_procfile((ROOT / "Procfile").read_text()).processes)


def shipped_uvicorn_lines() -> list[list[str]]:
    """Every uvicorn command line the repository gives an operator, split into arguments: the
    Procfile's, the systemd unit's, and any in README.md's or docs/deployment.md's code blocks."""
    texts = [
        f"{procfile_commands()['web']}\n",
        *(path.read_text() for path in sorted((ROOT / "config/deploy/systemd").glob("*"))),
        (ROOT / "README.md").read_text(),
        (ROOT / "docs/deployment.md").read_text(),
    ]
    lines = []
    for text in texts:
        text = text.replace("\\\n", " ")
        found = re.findall(r"^(?:ExecStart=)?\S*/uvicorn .*$", text, flags=re.MULTILINE)
        lines += [shlex.split(line.removeprefix("ExecStart=").removesuffix("&")) for line in found]
    return lines


def procfile_uvicorn(port: int, app: str = "config.asgi:application") -> list[str]:
    """The Procfile's uvicorn command line (`web`), serving `app` on 127.0.0.1:`port`.

    Read from the Procfile, so the servers tests and benchmarks start are the ones a deployment
    runs, flags included (`--no-proxy-headers`, `--ws-max-size`)."""
    args = shlex.split(procfile_commands()["web"])
    args[0] = str(BIN / "uvicorn")
    args[1] = app
    args[args.index("--host") + 1] = "127.0.0.1"
    args[args.index("--port") + 1] = str(port)
    return args


@contextmanager
def uvicorn_server(env: dict[str, str]) -> Iterator[int]:
    """One uvicorn process serving config.asgi on a free port, as the Procfile starts it;
    yields the port."""
    port = free_port()
    with running([*procfile_uvicorn(port), "--log-level", "warning"], env, port):
        yield port


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a fresh event loop in its own thread.

    Safe whatever the calling thread has running (Playwright's sync API, pytest-asyncio).
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
