"""Web Push of "your turn" (docs/notices.md, docs/tables.md "Turn-based tables"): bob, a German
account, subscribes his browser with the local push service of tests/notices_push; at a
turn-based friendly table every turn of his is pushed, encrypted for his browser, in German,
opening the notice (which leads to the table); a live table pushes nothing; quiet hours on his
clock hold the push until they end."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta

import http_ece
import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay.models import Table
from gameplay.services import lobby
from games import catalogue
from league import tasks
from league.models import Notice, NoticeSettings
from tests.gameplay.conftest import quick_tables  # noqa: F401  (fixture)
from tests.notices_push.conftest import account, browser_keys, push_service  # noqa: F401

from .conftest import START, at, due_seat, move, user_at

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(transactional_db):
    bob = account("bob", language="de")
    return bob, account("carol"), account("dave")


@pytest.fixture
def subscribed(players, browser_keys):  # noqa: F811
    """bob's browser subscribed through the subscribe endpoint (with the session's CSRF)."""
    client = Client()
    client.force_login(players[0])
    response = client.post(
        reverse("league:push_subscribe"), browser_keys.json(), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return client


def decrypt(browser_keys, body: bytes) -> dict:  # noqa: F811
    plain = http_ece.decrypt(
        body, private_key=browser_keys.key, auth_secret=browser_keys.auth, version="aes128gcm"
    )
    return json.loads(plain)


def friendly(players, pace: str) -> str:
    bob, carol, dave = players
    made = lobby.create_friendly(bob, game="three_five_eight", pace=pace, rated=False)
    lobby.join(carol, made.table.id)
    lobby.join(dave, made.table.id)
    return made.table.id


def until_bobs_move(table_id: str, bob, clock, day: float = 0.0) -> float:
    """The others move (half a day apart) until it is bob's move; the day reached."""
    for _ in range(50):
        if user_at(table_id, due_seat(table_id)).pk == bob.pk:
            return day
        day += 0.5
        clock.move_to(at(day))
        move(table_id)
    raise AssertionError("bob's move never came")


def test_bobs_turns_are_pushed_in_german_to_the_notice(
    clock,
    players,
    subscribed,
    browser_keys,  # noqa: F811
    push_service,  # noqa: F811
    quick_tables,  # noqa: F811
):
    bob = players[0]
    table_id = friendly(players, "2-days")
    day = until_bobs_move(table_id, bob, clock)
    [notice] = Notice.objects.filter(user=bob, kind="your_turn")
    assert notice.url == f"/tables/{table_id}/" and notice.push_status == "sent"
    [(path, headers, body)] = push_service.received
    assert browser_keys.endpoint.endswith(path)
    assert {k.lower(): v for k, v in headers.items()}["content-encoding"] == "aes128gcm"
    shown = decrypt(browser_keys, body)
    with translation.override("de"):
        game = str(catalogue.display_name("three_five_eight"))
    assert shown["title"] == f"Du bist am Zug: {game}"
    assert shown["url"] == reverse("league:notice_open", args=[notice.pk])
    assert shown["tag"] == f"notice-{notice.pk}"
    # The pushed link opens the notice, which leads to the table.
    opened = subscribed.get(shown["url"])
    assert opened.status_code == 302 and opened["Location"] == f"/tables/{table_id}/"
    # bob moves, the others move, his move comes again: a second turn, a second push.
    clock.move_to(at(day + 0.5))
    while user_at(table_id, due_seat(table_id)).pk == bob.pk:
        move(table_id)  # his decisions in a row are one turn
    assert len(push_service.received) == 1  # his own moves push nothing
    until_bobs_move(table_id, bob, clock, day + 0.5)
    assert Notice.objects.filter(user=bob, kind="your_turn").count() == 2
    assert len(push_service.received) == 2
    second = Notice.objects.filter(user=bob, kind="your_turn").latest("pk")
    assert decrypt(browser_keys, push_service.received[1][2])["tag"] == f"notice-{second.pk}"


def test_a_live_table_pushes_no_turn(
    clock,
    players,
    subscribed,
    push_service,  # noqa: F811
    quick_tables,  # noqa: F811
):
    table_id = friendly(players, "fast")
    assert Table.objects.get(pk=table_id).seconds_per_move < 86400
    for n in range(12):
        clock.move_to(START + timedelta(seconds=5 * (n + 1)))
        move(table_id)
    assert not Notice.objects.filter(kind="your_turn").exists()
    assert push_service.received == []


def test_quiet_hours_on_bobs_clock_hold_the_push_until_they_end(
    players,
    subscribed,
    browser_keys,  # noqa: F811
    push_service,  # noqa: F811
    quick_tables,  # noqa: F811
):
    bob = players[0]
    NoticeSettings.objects.create(
        user=bob, time_zone="Europe/Berlin", quiet_from=time(22), quiet_to=time(7)
    )
    night = datetime(2026, 3, 2, 22, 0, tzinfo=UTC)  # 23:00 in Berlin (CET)
    with time_machine.travel(night, tick=False) as clock:
        table_id = friendly(players, "1-day")
        for n in range(50):
            if user_at(table_id, due_seat(table_id)).pk == bob.pk:
                break
            clock.move_to(night + timedelta(minutes=5 * (n + 1)))
            move(table_id)
        notice = Notice.objects.get(user=bob, kind="your_turn")
        assert notice.push_status == "held" and push_service.received == []
        clock.move_to(datetime(2026, 3, 3, 5, 59, tzinfo=UTC))  # 06:59 in Berlin
        tasks.run_notice_timers()
        assert push_service.received == []
        clock.move_to(datetime(2026, 3, 3, 6, 0, tzinfo=UTC))  # 07:00 in Berlin
        tasks.run_notice_timers()
    notice.refresh_from_db()
    assert notice.push_status == "sent"
    [(_, _, body)] = push_service.received
    assert decrypt(browser_keys, body)["tag"] == f"notice-{notice.pk}"
