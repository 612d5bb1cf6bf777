"""WebSocket URL routes of the gameplay app."""

from django.urls import path

from gameplay.consumers.echo import EchoConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
]
