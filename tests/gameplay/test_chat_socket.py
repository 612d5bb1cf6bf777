"""The table's chat over the table WebSocket (docs/chat.md): players' and spectators' channels,
mute, reports with the conversation, limits, where chat is off, staff's site-wide mute."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from gameplay import api
from gameplay.models import ChatLine, Table
from league.models import PlayerReport

from .conftest import make_table, make_users, token
from .test_table_socket import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

db = database_sync_to_async
ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture
async def people():
    return await db(make_users)("ana", "ben", "cleo", "olga")


async def receive(comm: WebsocketCommunicator) -> dict[str, Any]:
    return await comm.receive_json_from(timeout=5)


async def join(path: str, headers: list | None = None) -> tuple[WebsocketCommunicator, Any]:
    """Connect, read the state, join the chat: its history (None: this table has no chat)."""
    comm = WebsocketCommunicator(application, path, headers=headers or [])
    connected, _ = await comm.connect()
    assert connected, path
    assert (await receive(comm))["type"] == "state"
    await comm.send_json_to({"type": "chat_join", "id": "j"})
    answer = await receive(comm)
    if answer["type"] == "error":
        assert (answer["code"], answer["reason"], answer["id"]) == ("forbidden", "chat_off", "j")
        return comm, None
    assert answer["type"] == "chat_history"
    return comm, answer


async def seat(table: Table, n: int) -> tuple[WebsocketCommunicator, Any]:
    return await join(f"/ws/tables/{table.id}/?token={await db(token)(table, n)}")


async def watcher(table: Table, user: Any) -> tuple[WebsocketCommunicator, Any]:
    cookie = (b"cookie", await db(session_cookie)(user))
    return await join(f"/ws/tables/{table.id}/", [cookie, ORIGIN])


async def say(comm: WebsocketCommunicator, **line: Any) -> None:
    await comm.send_json_to({"type": "chat", **line})


async def nothing_more(comm: WebsocketCommunicator) -> None:
    """Everything sent to `comm` so far was read: the answer to a sync comes next."""
    await comm.send_json_to({"type": "sync"})
    assert (await receive(comm))["type"] == "state"


async def close(*comms: WebsocketCommunicator) -> None:
    for comm in comms:
        await comm.disconnect()


async def test_players_chat_and_spectators_have_their_own_channel(people):
    ana, ben, cleo, olga = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    (a, history), (b, _) = await seat(table, 0), await seat(table, 1)
    assert history == {"type": "chat_history", "channel": "players", "lines": []}
    await say(a, text="  hello   <b>there</b> https://example.com  ")
    for comm in (a, b):
        line = (await receive(comm))["line"]
        assert (line["author"], line["name"], line["seat"], line["channel"]) == (
            "s0",
            "ana",
            0,
            "players",
        )
        assert line["text"] == "hello <b>there</b> https://example.com"  # plain text, one line
    await say(b, phrase="well_played")
    phrase = (await receive(a))["line"]
    assert (phrase["phrase"], phrase["text"], phrase["author"]) == ("well_played", "", "s1")
    assert (await receive(b))["line"] == phrase  # the writer's own line is its acknowledgement
    # A spectator reads none of it, and the players never read the spectators.
    o, watched = await watcher(table, olga)
    assert watched == {"type": "chat_history", "channel": "spectators", "lines": []}
    await say(o, text="nice trick")
    assert (await receive(o))["line"]["author"] == f"u{olga.pk}"
    await nothing_more(a)
    await nothing_more(b)
    await say(a, phrase="good_game")
    assert (await receive(a))["line"]["phrase"] == "good_game"
    await nothing_more(o)
    # The history survives: a player who comes back reads the players' lines, oldest first.
    await close(b)
    b, again = await seat(table, 1)
    assert [line["text"] or line["phrase"] for line in again["lines"]] == [
        "hello <b>there</b> https://example.com",
        "well_played",
        "good_game",
    ]
    await close(a, b, o)


async def test_a_client_that_never_joins_the_chat_is_sent_none_of_it(people):
    """The chat is an addition to the protocol: a bot that never asks reads only what it did."""
    ana, ben, cleo, _ = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    bot = WebsocketCommunicator(
        application, f"/ws/tables/{table.id}/?token={await db(token)(table, 2)}"
    )
    assert (await bot.connect())[0]
    assert (await receive(bot))["type"] == "state"
    a, _ = await seat(table, 0)
    await say(a, text="anyone?")
    assert (await receive(a))["line"]["text"] == "anyone?"
    await nothing_more(bot)
    await close(a, bot)


async def test_a_player_mutes_another_on_their_connection(people):
    ana, ben, cleo, _ = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    (a, _), (b, _), (c, _) = await seat(table, 0), await seat(table, 1), await seat(table, 2)
    await a.send_json_to({"type": "chat_mute", "author": "s1", "muted": True})
    await nothing_more(a)  # the mute is in place
    await say(b, text="noise")
    assert (await receive(c))["line"]["text"] == "noise"
    await say(c, text="signal")
    assert (await receive(a))["line"]["text"] == "signal"  # ben's line never came
    await a.send_json_to({"type": "chat_mute", "author": "s1", "muted": False})
    await nothing_more(a)
    await say(b, text="heard again")
    assert (await receive(a))["line"]["text"] == "heard again"
    await a.send_json_to({"type": "chat_mute", "author": 7})
    assert (await receive(a))["code"] == "bad_message"
    await close(a, b, c)


async def test_a_report_files_a_player_report_with_the_conversation(people):
    ana, ben, cleo, _ = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    (a, _), (b, _) = await seat(table, 0), await seat(table, 1)
    await say(a, phrase="hello")
    await receive(a)
    await say(b, text="you play like a potato")
    await receive(a)
    await a.send_json_to({"type": "chat_report", "author": "s1", "note": "rude", "id": "r1"})
    assert await receive(a) == {"type": "chat_reported", "author": "s1", "id": "r1"}
    report = await db(PlayerReport.objects.select_related("player", "reporter").get)()
    assert (report.player.user_id, report.reporter, report.reason, report.text) == (
        ben.pk,
        ana,
        "abuse",
        "rude",
    )
    assert report.chat_table == table.id
    assert [(line["name"], line["text"], line["phrase"]) for line in report.chat_lines] == [
        ("ana", "", "hello"),
        ("ben", "you play like a potato", None),
    ]
    # Nobody reports themself, nor an author who wrote nothing here; nothing is filed.
    await a.send_json_to({"type": "chat_report", "author": "s0"})
    assert (await receive(a))["reason"] == "chat_report_self"
    await a.send_json_to({"type": "chat_report", "author": "s2"})
    assert (await receive(a))["reason"] == "chat_unknown_author"
    assert await db(PlayerReport.objects.count)() == 1
    await close(a, b)


async def test_length_and_rate_limits(people, settings):
    settings.CHAT_MAX_CHARS = 10
    settings.CHAT_RATE_LINES = 2
    ana, ben, cleo, _ = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    a, _ = await seat(table, 0)
    await say(a, text="x" * 11, id="long")
    error = await receive(a)
    assert (error["type"], error["code"], error["reason"], error["params"], error["id"]) == (
        "error",
        "bad_message",
        "chat_too_long",
        {"max": 10},
        "long",
    )
    for bad in ({"text": "   "}, {"phrase": "insult"}, {"text": "a", "phrase": "hello"}, {}):
        await say(a, **bad)
        assert (await receive(a))["code"] == "bad_message"
    for n in range(2):
        await say(a, text=f"line {n}")
        assert (await receive(a))["type"] == "chat"
    await say(a, text="again")
    error = await receive(a)
    assert (error["code"], error["reason"]) == ("rate_limited", "chat_rate_limited")
    assert await db(ChatLine.objects.count)() == 2
    await close(a)


async def test_no_chat_at_a_duplicate_table_nor_by_default_at_an_event_s(people):
    ana, ben, cleo, _ = people
    duplicate = await db(api.start_table)(
        "three_five_eight", seats=[ana.pk, ben.pk, cleo.pk], embargoed=True, chat=True
    )
    event = await db(api.start_table)("three_five_eight", seats=[ana.pk, ben.pk, cleo.pk])
    chatty = await db(api.start_table)(
        "three_five_eight", seats=[ana.pk, ben.pk, cleo.pk], chat=True
    )
    for table_id in (duplicate, event):
        table = await db(Table.objects.get)(pk=table_id)
        a, history = await seat(table, 0)
        assert history is None  # chat_join is refused
        await say(a, text="hi")
        error = await receive(a)
        assert (error["code"], error["reason"]) == ("forbidden", "chat_off")
        await close(a)
    a, history = await seat(await db(Table.objects.get)(pk=chatty), 0)
    assert history["lines"] == []
    await close(a)
    assert await db(ChatLine.objects.count)() == 0


async def test_staff_mute_an_account_everywhere_and_visitors_only_read(people):
    ana, ben, cleo, _ = people
    table = await db(make_table)(people=[ana, ben, cleo], chat=True)
    await db(get_user_model().objects.filter(pk=ben.pk).update)(chat_muted=True)
    b, _ = await seat(table, 1)
    await say(b, text="hello")
    error = await receive(b)
    assert (error["code"], error["reason"]) == ("forbidden", "chat_muted")
    visitor, history = await join(f"/ws/tables/{table.id}/")
    assert history["channel"] == "spectators"
    await say(visitor, text="hi all")
    assert (await receive(visitor))["reason"] == "chat_log_in"
    assert await db(ChatLine.objects.count)() == 0
    await close(b, visitor)
