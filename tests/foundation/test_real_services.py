"""Real processes on real services: a Celery worker and two ASGI servers sharing Redis."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest
import websockets
from celery import Celery

from tests.procs import BIN, run_async, running, service_env, uvicorn_server

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_a_real_worker_runs_a_task():
    """Not eager: the task crosses the broker to a worker process and its result comes back."""
    redis_url = os.environ["REDIS_URL"]
    queue = f"test-{uuid.uuid4().hex[:8]}"  # a private queue: no other worker can take it
    worker = [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--concurrency=1",
        "--loglevel=warning",
        "-Q",
        queue,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    client = Celery("test-client", broker=redis_url, backend=redis_url)
    with running(worker, service_env(REDIS_URL=redis_url)) as proc:
        token = uuid.uuid4().hex
        result = client.send_task("gameplay.ping", args=[token], queue=queue)
        try:
            answer = result.get(timeout=60)
        except Exception:
            proc.terminate()
            print(proc.stdout.read().decode(errors="replace"))
            raise
    assert answer["token"] == token
    assert answer["pid"] == proc.pid
    assert answer["pid"] != os.getpid()


async def _hello(socket) -> dict:
    message = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert message["type"] == "hello"
    return message


def test_two_uvicorn_processes_share_the_channel_layer():
    env = service_env(REDIS_URL=os.environ["REDIS_URL"])

    async def scenario(port_a: int, port_b: int) -> tuple[dict, dict, dict]:
        async with (
            websockets.connect(f"ws://127.0.0.1:{port_a}/ws/echo/") as listener,
            websockets.connect(f"ws://127.0.0.1:{port_b}/ws/echo/") as sender,
        ):
            hello_a, hello_b = await _hello(listener), await _hello(sender)
            text = f"across processes {uuid.uuid4().hex}"
            # The Pub/Sub subscription of the listener's group is made before accept() returns,
            # so the broadcast below cannot overtake it.
            await sender.send(json.dumps({"type": "broadcast", "text": text}))
            while True:
                received = json.loads(await asyncio.wait_for(listener.recv(), 10))
                if received.get("text") == text:
                    return hello_a, hello_b, received

    with uvicorn_server(env) as port_a, uvicorn_server(env) as port_b:
        hello_a, hello_b, received = run_async(scenario(port_a, port_b))
    assert hello_a["server_pid"] != hello_b["server_pid"]
    assert received["type"] == "broadcast"
