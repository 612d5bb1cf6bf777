"""ASGI entry point: Django for HTTP, Channels for WebSockets (served by Daphne or uvicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.websocket_origin import OriginIfPresentValidator  # noqa: E402
from gameplay.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OriginIfPresentValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

import gc  # noqa: E402

# Long-lived server: everything loaded so far lives as long as the process. Move it out of the
# collector's view and collect young objects less often, so full collections (which walk every
# tracked object, tens of ms with a warm cache) do not stall the event loop.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 50, 100)
