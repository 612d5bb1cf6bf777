"""The servers as README and the Makefile start them: whom they believe, how large a frame they
take.

uvicorn is started with the Procfile's own command line (parsed from it: the deployment and these
tests cannot drift apart), Daphne as `make run` starts it (`manage.py runserver`). Whom to
believe about a client's address is Mediana's decision alone (`TRUSTED_PROXIES`,
accounts/client_address.py): a server that rewrites the address from `X-Forwarded-For` itself
lets anyone on the proxy's host rotate it past the log-in lockout and the spectator cap.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import websockets

from config.websocket_frames import MAX_FRAME_BYTES, MAX_MESSAGE_CHARS
from tests.procs import (
    free_port,
    manage,
    procfile_uvicorn,
    run_async,
    running,
    service_env,
    shipped_uvicorn_lines,
)

LIMIT = 3  # LOGIN_FAILURE_LIMIT of these servers
ROTATING = [f"203.0.113.{n}" for n in range(1, LIMIT + 3)]
ALL_ATTEMPTS = (
    "import json; from axes.models import AccessAttempt; "
    "print(json.dumps(sorted(set(AccessAttempt.objects.values_list('ip_address', flat=True)))))"
)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A migrated SQLite database with an account `ann`, copied by each server (migrating once
    is most of the time these tests take)."""
    database = tmp_path_factory.mktemp("servers") / "template.sqlite3"
    env = service_env(DATABASE_URL=f"sqlite:///{database}")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--no-input", "-v0")
    manage(env, "shell", "-c", "from accounts.models import User; User.objects.create_user('ann')")
    return database


@dataclass
class Server:
    base: str  # host:port
    env: dict[str, str]

    def attempt_addresses(self) -> list[str]:
        """The addresses django-axes counted the failed log-ins under (in its database)."""
        return json.loads(manage(self.env, "shell", "--no-imports", "-c", ALL_ATTEMPTS))


@contextmanager
def server(migrated: Path, tmp_path: Path, command: str, **extra: str) -> Iterator[Server]:
    """uvicorn as the Procfile starts it, or `runserver` as `make run` does, on a copy of
    `migrated`."""
    database = tmp_path / "db.sqlite3"
    shutil.copy(migrated, database)
    env = service_env(
        DATABASE_URL=f"sqlite:///{database}", LOGIN_FAILURE_LIMIT=str(LIMIT), LOG_LEVEL="WARNING"
    )
    env.pop("REDIS_URL", None)
    env.pop("TRUSTED_PROXIES", None)
    env.update(extra)
    port = free_port()
    if command == "uvicorn":
        args = procfile_uvicorn(port)
    else:
        env["DEBUG"] = "1"
        args = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    with running(args, env, port):
        yield Server(f"127.0.0.1:{port}", env)


def failed_logins(base: str, addresses: list[str]) -> list[int]:
    """Wrong passwords for `ann` at `POST /api/token/`, each saying it comes from another
    address; the statuses (429: the pair is locked)."""
    statuses = []
    for address in addresses:
        request = urllib.request.Request(
            f"http://{base}/api/token/",
            data=json.dumps({"username": "ann", "password": "wrong"}).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": address},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
    return statuses


async def frame_answers(base: str) -> tuple[dict, int | None]:
    """The answer to the largest message the protocol accepts (in bytes: 4-byte characters),
    then the close code after a frame one byte over the servers' cap (None: not closed)."""
    async with websockets.connect(f"ws://{base}/ws/echo/", max_size=None) as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "hello"
        # Not an object, so the answer is a short error (Daphne caps what it sends, too).
        largest = '["' + "\U0001f0a1" * (MAX_MESSAGE_CHARS - 4) + '"]'
        assert len(largest) == MAX_MESSAGE_CHARS
        assert len(largest.encode()) <= MAX_FRAME_BYTES
        await ws.send(largest)
        answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        await ws.send("x" * (MAX_FRAME_BYTES + 1))
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as closed:
            return answer, closed.rcvd.code if closed.rcvd else 1006  # dropped, no close frame
    return answer, None


def options(args: list[str]) -> list[str]:
    """A uvicorn command line's options but where it listens (host, port)."""
    out, skip = [], False
    for arg in args[2:]:
        if skip:
            skip = False
        elif arg in ("--host", "--port"):
            skip = True
        else:
            out.append(arg)
    return out


def test_every_uvicorn_line_shipped_sets_the_flags():
    """The Procfile's, the systemd unit's and any in the docs: the same options everywhere."""
    lines = shipped_uvicorn_lines()
    assert len(lines) >= 2
    for args in lines:
        assert args[1] == "config.asgi:application"
        assert "--no-proxy-headers" in args
        assert args[args.index("--ws-max-size") + 1] == str(MAX_FRAME_BYTES)
        assert options(args) == options(lines[0]), args


@pytest.mark.parametrize("command", ["uvicorn", "runserver"])
def test_a_server_believes_no_x_forwarded_for_and_takes_no_frame_over_the_cap(
    migrated, tmp_path, command
):
    with server(migrated, tmp_path, command) as srv:
        statuses = failed_logins(srv.base, ROTATING)
        answer, code = run_async(frame_answers(srv.base))
        addresses = srv.attempt_addresses()
    # Failed log-ins from 127.0.0.1 whatever the header says: the pair is locked.
    assert statuses[LIMIT:] == [429] * (len(ROTATING) - LIMIT)
    assert addresses == ["127.0.0.1"]
    # The largest message the protocol accepts is answered; one byte over the cap closes.
    assert (answer["type"], answer["code"]) == ("error", "bad_message")
    # uvicorn says "message too big"; Daphne (autobahn) drops the connection without a word.
    assert code == (1009 if command == "uvicorn" else 1006)


def test_from_a_trusted_proxy_the_header_is_believed(migrated, tmp_path):
    with server(migrated, tmp_path, "uvicorn", TRUSTED_PROXIES="127.0.0.1") as srv:
        statuses = failed_logins(srv.base, ROTATING)
        addresses = srv.attempt_addresses()
    assert 429 not in statuses  # one failure for each of the addresses the proxy vouches for
    assert addresses == sorted(ROTATING)
