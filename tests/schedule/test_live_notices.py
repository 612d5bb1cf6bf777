"""A league notice reaches the account's open pages at once (league.services.notifications,
`tell_open_pages`, through the door gameplay.api.tell_user): its title in the account's
language, its link, and the bell's unread count."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.services import live
from league.models import Notice
from league.services.notifications import mark_read, notify

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(monkeypatch) -> list[tuple[int, dict[str, Any]]]:
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(live, "to_user", lambda uid, m: sent.append((uid, m)))
    return sent


def send(users, key="k1", url="/events/"):
    return notify(
        users,
        "round_published",
        key=key,
        url=url,
        context={"event": "Winterliga", "round": 3, "table": 2, "seat": 1},
    )


def test_each_new_notice_goes_live_with_the_bells_count(players, told):
    bob, carol, _ = players
    send([bob])
    send([bob, carol], key="k2")
    send([bob], key="k2")  # nothing new: nothing told
    to_bob = [m for uid, m in told if uid == bob.pk]
    assert [m["unread"] for m in to_bob] == [1, 2]
    assert all(m["type"] == "notice" and m["url"] == "/events/" for m in to_bob)
    assert "Round 3 of Winterliga" in to_bob[0]["text"]
    assert [m["unread"] for uid, m in told if uid == carol.pk] == [1]
    ids = {m["id"] for _, m in told}
    assert len(ids) == 3  # each notice its own key: a page shows each once


def test_the_count_leaves_out_what_was_read(players, told):
    bob = players[0]
    send([bob])
    mark_read(bob, Notice.objects.get(user=bob).pk)
    send([bob], key="k2")
    assert told[-1][1]["unread"] == 1


def test_the_words_are_in_each_accounts_language(players, told):
    bob, carol, dan = players
    carol.language = "de"
    carol.save()
    dan.language = "ja"
    dan.save()
    send([bob, carol, dan])
    text = {uid: m["text"] for uid, m in told}
    assert text[bob.pk] != text[carol.pk] and text[bob.pk] != text[dan.pk]
    assert "Winterliga" in text[carol.pk] and "Winterliga" in text[dan.pk]


def test_a_notice_without_a_link_points_at_the_notices_page(players, told):
    send([players[0]], url="")
    assert told[0][1]["url"] == "/notices/"


def _reads(captured: CaptureQueriesContext) -> int:
    """Queries other than the notices' own inserts and their savepoints."""
    sql = [q["sql"] for q in captured.captured_queries]
    return len([s for s in sql if "SAVEPOINT" not in s and not s.startswith("INSERT")])


def test_telling_many_accounts_costs_a_fixed_number_of_queries(players, told, django_user_model):
    many = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(12)]
    with CaptureQueriesContext(connection) as few:
        send(players[:2])
    with CaptureQueriesContext(connection) as lots:
        send(many, key="k2")
    assert _reads(lots) == _reads(few)
    assert len(told) == 14
