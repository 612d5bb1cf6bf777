"""WebSocket URL routes of the gameplay app."""

from django.urls import path

from gameplay.consumers.echo import EchoConsumer
from gameplay.consumers.table import TableConsumer

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    path("ws/tables/<str:table_id>/", TableConsumer.as_asgi()),
]
