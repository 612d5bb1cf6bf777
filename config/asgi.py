"""ASGI entry point: Django for HTTP, Channels for WebSockets (served by Daphne or uvicorn)."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config import metrics  # noqa: E402
from config.websocket_origin import OriginIfPresentValidator  # noqa: E402
from config.websocket_session import WebSocketAuthMiddlewareStack  # noqa: E402
from gameplay.routing import websocket_urlpatterns  # noqa: E402
from gameplay.runtime import runner  # noqa: E402


async def http(scope, receive, send) -> None:
    """Django, in a process that now knows it serves tables: a table opened by a request (its
    bots may be first to move) has its bots moved on this loop and thought beside it."""
    runner.start_embedded_services()
    await django_asgi_app(scope, receive, send)


async def lifespan(scope, receive, send) -> None:
    """uvicorn's start and stop of the server: in the embedded mode beat's schedule (reminders,
    deadline policies, clocks, sweeps) runs from the start, not from the first request."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            runner.start_embedded_services()
            metrics.start_sampling()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await runner.stop_embedded_services()
            await send({"type": "lifespan.shutdown.complete"})
            return


def _start_with_daphne() -> None:
    """Daphne (`manage.py runserver`) sends no lifespan events: start the embedded services when
    its Twisted reactor starts, on the asyncio loop that serves every connection. The reactor is
    installed in every process (the daphne app), but only Daphne runs it."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        reactor.callWhenRunning(reactor.callLater, 0, runner.start_embedded_services)


_start_with_daphne()

application = ProtocolTypeRouter(
    {
        "http": http,
        "lifespan": lifespan,
        "websocket": OriginIfPresentValidator(
            WebSocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

import gc  # noqa: E402

# Long-lived server: everything loaded so far lives as long as the process. Move it out of the
# collector's view, so a full collection walks only what was made since (not every module's
# objects: tens of ms), and collect young objects less often. The older generations keep
# CPython's ratios (10, 10): a full collection after 100 young ones. Rarer than that (it was
# 50 x 100) left cyclic garbage that outlived two young collections - the thread, executor and
# database wrapper of a slow request, a closed socket's consumer - in memory for hours. No
# setting can make the collector close connections in time (an idle server allocates nothing
# and collects nothing): database connections go back to their pool explicitly at the end of
# every request and table service call (config/settings.py, DATABASES).
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 10, 10)
