"""`/metrics` for Prometheus: the table server's figures (gameplay/runtime/metrics.py), Django's
requests, the database pool's waits and the Celery queues' depths (docs/deployment.md,
"Metrics", with the dashboard).

Off unless METRICS_TOKEN is set; a scrape then sends `Authorization: Bearer <token>`. With
PROMETHEUS_MULTIPROC_DIR (every process of one machine points at the same empty folder, emptied
before they start) whichever uvicorn answers adds up the figures of all of them, Celery workers
included.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

REQUEST_SECONDS = Histogram(
    "mediana_http_request_seconds",
    "Django's HTTP requests, by method, route (its URL name) and status code.",
    ["method", "view", "status"],
)
POOL_REQUESTS = Counter(
    "mediana_db_pool_requests", "Connections asked of this process's PostgreSQL pool."
)
POOL_QUEUED = Counter(
    "mediana_db_pool_queued", "Connections that had to wait for a free one in the pool."
)
POOL_WAIT_SECONDS = Counter(
    "mediana_db_pool_wait_seconds", "Seconds spent waiting for a free connection in the pool."
)
POOL_TIMEOUTS = Counter(
    "mediana_db_pool_timeouts",
    "Waits for a connection that timed out (DB_POOL_TIMEOUT: the request answered 503).",
)
POOL_SIZE = Gauge(
    "mediana_db_pool_connections",
    "Connections open in the pools, by state (in use, idle).",
    ["state"],
    multiprocess_mode="livesum",
)
QUEUES = ("celery", "bots")  # CELERY_TASK_ROUTES' queues
SAMPLE_SECONDS = 5.0


def enabled() -> bool:
    return bool(getattr(settings, "METRICS_TOKEN", ""))


def metrics(request: HttpRequest) -> HttpResponse:
    """The figures in Prometheus' text format; 404 when switched off, 401 without the token."""
    if not enabled():
        raise Http404
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.METRICS_TOKEN}"
    if not hmac.compare_digest(given.encode(), expected.encode()):
        response = HttpResponse("a bearer token is needed\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    sample_pools()
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


def registry() -> CollectorRegistry:
    """This process's figures, or, in multiprocess mode, every live and dead process's sums
    (a gauge of a process that died is dropped: its sockets are closed)."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return REGISTRY
    forget_dead_processes(Path(folder))
    out = CollectorRegistry()
    multiprocess.MultiProcessCollector(out)
    out.register(QueueDepths())
    return out


_LIVE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")


def forget_dead_processes(folder: Path) -> None:
    """`mark_process_dead` for every process whose live gauges are still on file: a uvicorn
    killed by a signal never says goodbye, and its open sockets would count for ever."""
    for path in folder.glob("gauge_live*.db"):
        match = _LIVE_FILE.match(path.name)
        if match and not _alive(int(match.group(1))):
            multiprocess.mark_process_dead(int(match.group(1)), str(folder))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class QueueDepths(Collector):
    """Tasks waiting in each Celery queue, read from the Redis broker at the scrape, and the
    age of beat's last sweep of the clocks, read from the shared cache."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "mediana_queue_depth", "Tasks waiting in each Celery queue.", labels=["queue"]
        )
        url = getattr(settings, "CELERY_BROKER_URL", "")
        if url.startswith(("redis://", "rediss://", "unix://")):
            try:
                import redis

                client = redis.Redis.from_url(url, socket_timeout=2)
                for queue in QUEUES:
                    family.add_metric([queue], client.llen(queue))
            except Exception:  # the broker down: /healthz says so; the scrape goes on
                log.warning("metrics: could not read the queues' depths", exc_info=True)
        yield family
        from gameplay.services.clocks import sweep_age

        age = GaugeMetricFamily(
            "mediana_clock_sweep_age_seconds",
            "Seconds since the turn clocks were last swept (beat's heartbeat; /healthz: late).",
        )
        try:
            seconds = sweep_age()
        except Exception:
            log.warning("metrics: could not read the clocks' last sweep", exc_info=True)
            seconds = None
        if seconds is not None:
            age.add_metric([], seconds)
        yield age


if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    REGISTRY.register(QueueDepths())


def sample_pools() -> None:
    """Move the PostgreSQL pools' counters (psycopg_pool's `pop_stats`) into the metrics."""
    for alias in connections:
        pools = getattr(type(connections[alias]), "_connection_pools", None)
        pool = (pools or {}).get(alias)
        if pool is None:
            continue
        stats = pool.pop_stats()
        POOL_REQUESTS.inc(stats.get("requests_num", 0))
        POOL_QUEUED.inc(stats.get("requests_queued", 0))
        POOL_WAIT_SECONDS.inc(stats.get("requests_wait_ms", 0) / 1000)
        POOL_TIMEOUTS.inc(stats.get("requests_errors", 0))
        available = stats.get("pool_available", 0)
        POOL_SIZE.labels("idle").set(available)
        POOL_SIZE.labels("in_use").set(stats.get("pool_size", 0) - available)


_sampler_started = False
_sampler_lock = threading.Lock()


def start_sampling() -> None:
    """In a table server: sample the pools every few seconds, since sockets (not requests)
    take most of its connections. Once per process; a daemon thread."""
    global _sampler_started
    with _sampler_lock:
        if _sampler_started or not enabled():
            return
        _sampler_started = True

    def loop() -> None:
        while True:
            time.sleep(SAMPLE_SECONDS)
            try:
                sample_pools()
            except Exception:
                log.warning("metrics: sampling the pools failed", exc_info=True)

    threading.Thread(target=loop, name="metrics-pools", daemon=True).start()


@sync_and_async_middleware
def request_metrics(get_response: Callable) -> Callable:
    """Middleware: each request's time by method, route and status (first in MIDDLEWARE)."""

    def observe(request: HttpRequest, response: HttpResponse, started: float) -> None:
        match = getattr(request, "resolver_match", None)
        view = (match.view_name if match else "") or "unresolved"
        REQUEST_SECONDS.labels(request.method, view, str(response.status_code)).observe(
            time.perf_counter() - started
        )

    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponse:
            started = time.perf_counter()
            response = await get_response(request)
            observe(request, response, started)
            return response

    else:

        def middleware(request: HttpRequest) -> HttpResponse:  # type: ignore[misc]
            started = time.perf_counter()
            response = get_response(request)
            observe(request, response, started)
            return response

    return middleware
