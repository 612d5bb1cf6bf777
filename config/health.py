"""`/healthz`: is every service Mediana depends on reachable right now?

Each check answers within a few seconds even when its service is down (the load balancer
and the organizer's monitoring poll this), and names what failed. Anyone may ask, so anyone
sees only what is up and what is down; the details (an exception's text names hosts and
ports, and the backends say how the site is built) are for staff, and always in the log.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app

log = logging.getLogger(__name__)
CHECK_TIMEOUT = 3.0
STARTED = time.monotonic()


def check_database() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"status": "up", "vendor": connection.vendor}


def check_channel_layer() -> dict[str, str]:
    """Round-trip one message through the layer: send to our own channel, receive it."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def round_trip() -> None:
        channel = await layer.new_channel("healthz.")
        await layer.send(channel, {"type": "healthz.ping"})
        message = await layer.receive(channel)
        if message.get("type") != "healthz.ping":
            raise RuntimeError(f"unexpected message {message!r}")

    async def bounded() -> None:
        await asyncio.wait_for(round_trip(), CHECK_TIMEOUT)

    async_to_sync(bounded)()
    return {"status": "up", "backend": type(layer).__name__}


def check_celery_broker() -> dict[str, str]:
    """Connect to the broker; in eager mode there is none to reach (tasks run inline)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"status": "up", "mode": "eager"}
    with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=CHECK_TIMEOUT)
    return {"status": "up", "mode": "broker"}


CHECKS: dict[str, Callable[[], dict[str, str]]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "celery_broker": check_celery_broker,
}


def check_schedule() -> dict[str, str]:
    """Beat's heartbeat: turn clocks swept within SCHEDULE_LATE_AFTER seconds. A late schedule
    does not stop this process serving (it is reported `late`, not down, and the answer stays
    200), but clocks, bots' re-queues and reminders wait: page someone."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"status": "up", "mode": "embedded"}  # this very process runs the schedule
    from gameplay.services.clocks import sweep_age

    late_after = settings.SCHEDULE_LATE_AFTER
    age = sweep_age()
    if age is None:
        starting = time.monotonic() - STARTED < late_after
        return {"status": "up" if starting else "late", "last_sweep": "none on record"}
    return {"status": "up" if age <= late_after else "late", "seconds_since_sweep": f"{age:.0f}"}


WATCHED: dict[str, Callable[[], dict[str, str]]] = {"schedule": check_schedule}


def run_checks(
    checks: dict[str, Callable[[], dict[str, str]]] = CHECKS, failed: str = "down"
) -> dict[str, dict[str, str]]:
    """Every check's outcome; a check that raises is reported `failed` with its reason."""
    results: dict[str, dict[str, str]] = {}
    for name, check in checks.items():
        try:
            results[name] = check()
        except Exception as exc:
            log.warning("healthz: %s is %s: %s", name, failed, exc)
            results[name] = {"status": failed, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return results


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when this process can serve (503 names what is down); `late` names what runs
    elsewhere and has fallen behind (beat), without taking this process out of service."""
    checks = run_checks()
    down = sorted(name for name, result in checks.items() if result["status"] != "up")
    watched = run_checks(WATCHED, failed="late")
    late = sorted(name for name, result in watched.items() if result["status"] != "up")
    checks.update(watched)
    if late:
        log.warning("healthz: late: %s", ", ".join(late))
    if not request.user.is_staff:
        checks = {name: {"status": result["status"]} for name, result in checks.items()}
    body = {"status": "down" if down else "up", "down": down, "late": late, "checks": checks}
    return JsonResponse(body, status=503 if down else 200)
