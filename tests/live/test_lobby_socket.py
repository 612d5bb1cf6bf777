"""The lobby socket `/ws/lobby/`, end to end through the ASGI application: everyone gets the
lobby's messages, a logged-in person their own and nobody else's, as the JSON the services
sent; it reads nothing from the client; a foreign Origin is refused."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from gameplay.services import live, lobby
from tests.gameplay.test_table_socket import connect, receive, refused, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async
LOBBY = "/ws/lobby/"
ORIGIN = (b"origin", b"http://testserver")


async def as_person(user) -> list:
    """The headers of a logged-in page of this site: its session cookie and Origin."""
    return [(b"cookie", await db(session_cookie)(user)), ORIGIN]


async def nothing_more(comm) -> bool:
    return await comm.receive_nothing(timeout=0.3)


async def test_a_visitor_gets_the_lobby_messages_and_nobody_s_own(ana):
    visitor = await connect(LOBBY)
    await db(live.to_user)(ana.pk, {"type": "notice", "text": "for ana"})
    await db(live.to_lobby)({"type": "seeks", "count": 2})
    assert await receive(visitor) == {"type": "seeks", "count": 2}
    assert await nothing_more(visitor)
    await visitor.disconnect()


async def test_a_person_gets_their_own_messages_only(ana, ben):
    anas = await connect(LOBBY, await as_person(ana))
    bens = await connect(LOBBY, await as_person(ben))
    await db(live.to_user)(ana.pk, {"type": "notice", "text": "Größe 最中限", "url": "/games/"})
    assert await receive(anas) == {"type": "notice", "text": "Größe 最中限", "url": "/games/"}
    assert await nothing_more(bens)
    await db(live.to_lobby)({"type": "hello"})
    for comm in (anas, bens):
        assert await receive(comm) == {"type": "hello"}
    for comm in (anas, bens):
        await comm.disconnect()


async def test_every_open_page_of_a_person_gets_the_table_that_started(ana, ben, cleo):
    table = (await db(lobby.create_friendly)(ana, game="saichugen")).table
    pages = [await connect(LOBBY, await as_person(ana)) for _ in range(2)]
    await db(lobby.join)(ben, table.id)
    await db(lobby.join)(cleo, table.id)
    for page in pages:
        message = await receive(page)
        assert message == {
            "type": "table_started",
            "table": table.id,
            "url": f"/tables/{table.id}/",
        }
        await page.disconnect()


async def test_the_socket_reads_nothing_from_the_client(ana):
    comm = await connect(LOBBY, await as_person(ana))
    await comm.send_to(text_data='{"type": "join", "table": "x"}')
    answer = await receive(comm)
    assert answer["type"] == "error" and answer["code"] == "bad_message"
    await db(live.to_user)(ana.pk, {"type": "still-open"})
    assert await receive(comm) == {"type": "still-open"}
    await comm.disconnect()


async def test_a_foreign_origin_is_refused(ana):
    cookie = (b"cookie", await db(session_cookie)(ana))
    assert await refused(LOBBY, [cookie, (b"origin", b"https://evil.example")])


async def test_after_disconnecting_a_page_is_sent_nothing(ana):
    comm = await connect(LOBBY, await as_person(ana))
    await comm.disconnect()
    await db(live.to_user)(ana.pk, {"type": "notice", "text": "gone"})  # no error, no delivery
