"""The ASGI application serves WebSockets with session identity and an Origin check."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from config.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]


async def test_anonymous_connection_is_greeted_as_anonymous():
    communicator = WebsocketCommunicator(application, "/ws/echo/")
    connected, _ = await communicator.connect()
    assert connected
    hello = await communicator.receive_json_from()
    assert hello["type"] == "hello"
    assert hello["user"] is None
    assert hello["authenticated"] is False
    await communicator.send_json_to({"ping": 1})
    echo = await communicator.receive_json_from()
    assert echo["data"] == {"ping": 1}
    await communicator.disconnect()


def _session_cookie_for(username: str) -> bytes:
    user = get_user_model().objects.create_user(username=username, password="pw")
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_logged_in_connection_is_greeted_by_name():
    cookie = await database_sync_to_async(_session_cookie_for)("ana")
    communicator = WebsocketCommunicator(
        application,
        "/ws/echo/",
        headers=[(b"cookie", cookie), (b"origin", b"http://testserver")],
    )
    connected, _ = await communicator.connect()
    assert connected
    hello = await communicator.receive_json_from()
    assert hello["user"] == "ana"
    assert hello["authenticated"] is True
    await communicator.disconnect()


async def test_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_broadcast_reaches_every_connection():
    first = WebsocketCommunicator(application, "/ws/echo/")
    second = WebsocketCommunicator(application, "/ws/echo/")
    for communicator in (first, second):
        assert (await communicator.connect())[0]
        await communicator.receive_json_from()
    await second.send_json_to({"type": "broadcast", "text": "hi all"})
    for communicator in (first, second):
        message = await communicator.receive_json_from()
        assert message == {"type": "broadcast", "text": "hi all", "from": None}
        await communicator.disconnect()


async def test_a_malformed_frame_is_an_error_and_the_echo_stays_open():
    communicator = WebsocketCommunicator(application, "/ws/echo/")
    assert (await communicator.connect())[0]
    await communicator.receive_json_from()
    for junk in ["[" * 5000 + "]" * 5000, "not json", '{"a": NaN}']:
        await communicator.send_to(text_data=junk)
        answer = await communicator.receive_json_from()
        assert (answer["type"], answer["code"]) == ("error", "bad_message")
    await communicator.send_json_to({"still": "here"})
    assert (await communicator.receive_json_from())["data"] == {"still": "here"}
    await communicator.disconnect()
