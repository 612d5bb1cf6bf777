"""Celery tasks of the gameplay app."""

from __future__ import annotations

import os
import socket

from celery import shared_task


@shared_task(name="gameplay.ping")
def ping(token: str) -> dict[str, object]:
    """Answer with where the task ran, so a test can tell a real worker from eager mode."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}
