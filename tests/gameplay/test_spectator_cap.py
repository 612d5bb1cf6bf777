"""The cap on spectator sockets per client address (docs/tables.md, "Consumer").

Olga watches from 203.0.113.5 and opens one socket too many; ana, ben and cleo are seated and
never counted; a watcher at 198.51.100.7 is not affected by olga's count.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay.runtime import limits

from .conftest import make_table, make_users, token
from .test_table_socket import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async

OLGA = "203.0.113.5"
ELSEWHERE = "198.51.100.7"
PROXY = "10.0.0.9"
CAP = 2


@pytest.fixture(autouse=True)
def small_cap(settings):
    settings.GAMEPLAY_SPECTATORS_PER_ADDRESS = CAP


@pytest.fixture
async def people():
    return await db(make_users)("ana", "ben", "cleo")


@pytest.fixture
async def table(people):
    return await db(make_table)(people=people)


def socket(path: str, address: str, headers: list | None = None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=headers or [])
    # The peer address, as Daphne and uvicorn put it in the scope (the application has not
    # started yet: it reads the scope when the test first awaits).
    comm.scope["client"] = [address, 50000]
    return comm


async def watch(table, address: str, headers: list | None = None) -> WebsocketCommunicator:
    """An accepted spectator socket that received the table's state."""
    comm = socket(f"/ws/tables/{table.id}/", address, headers)
    connected, _ = await comm.connect()
    assert connected
    state = await comm.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["seat"] is None
    return comm


async def refused_for_the_cap(table, address: str, headers: list | None = None) -> bool:
    """Whether a spectator socket is accepted and then closed with the cap's code, no state."""
    comm = socket(f"/ws/tables/{table.id}/", address, headers)
    connected, _ = await comm.connect()
    if not connected:
        return False  # refused at the handshake: that is the wrong refusal
    message = await comm.receive_output(timeout=5)
    if message["type"] == "websocket.close":
        return message.get("code") == limits.TOO_MANY_SPECTATORS
    await comm.disconnect()
    return False


async def test_one_socket_over_the_cap_is_refused_and_a_freed_place_is_reused(table):
    watching = [await watch(table, OLGA) for _ in range(CAP)]
    assert await refused_for_the_cap(table, OLGA)
    assert limits.open_spectators(OLGA) == CAP  # the refused socket took no place
    # another address watches on
    other = await watch(table, ELSEWHERE)
    await watching.pop().disconnect()
    assert limits.open_spectators(OLGA) == CAP - 1
    watching.append(await watch(table, OLGA))
    assert await refused_for_the_cap(table, OLGA)
    for comm in [*watching, other]:
        await comm.disconnect()
    assert limits.open_spectators(OLGA) == limits.open_spectators(ELSEWHERE) == 0


async def test_seated_sockets_are_never_counted(table, people):
    watching = [await watch(table, OLGA) for _ in range(CAP)]
    by_token = socket(f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}", OLGA)
    assert (await by_token.connect())[0]
    assert (await by_token.receive_json_from(timeout=5))["seat"] == 0
    cookie = await db(session_cookie)(people[1])  # ben, seat 1
    by_session = socket(
        f"/ws/tables/{table.id}/", OLGA, [(b"cookie", cookie), (b"origin", b"http://testserver")]
    )
    assert (await by_session.connect())[0]
    assert (await by_session.receive_json_from(timeout=5))["seat"] == 1
    assert limits.open_spectators(OLGA) == CAP
    for comm in [*watching, by_token, by_session]:
        await comm.disconnect()


async def test_forwarded_for_is_ignored_without_a_trusted_proxy(table):
    # Without TRUSTED_PROXIES every socket is the proxy's, whatever the header claims.
    watching = [
        await watch(table, PROXY, [(b"x-forwarded-for", f"192.0.2.{n}".encode())])
        for n in range(CAP)
    ]
    assert await refused_for_the_cap(table, PROXY, [(b"x-forwarded-for", b"192.0.2.99")])
    for comm in watching:
        await comm.disconnect()


async def test_forwarded_for_from_a_trusted_proxy_names_the_client(table, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    olga = [(b"x-forwarded-for", OLGA.encode())]
    watching = [await watch(table, PROXY, olga) for _ in range(CAP)]
    assert await refused_for_the_cap(table, PROXY, olga)
    watching.append(await watch(table, PROXY, [(b"x-forwarded-for", ELSEWHERE.encode())]))
    assert limits.open_spectators(PROXY) == 0
    for comm in watching:
        await comm.disconnect()
