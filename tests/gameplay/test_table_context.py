"""Where a table belongs (`start_table(context=)`, gameplay/services/table_context.py): stored as
parts, shown by the table page's and the replay's header as a link back, worded in the reader's
language and escaped; nothing for friendly or older tables; a bad context refused at the door."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay import api
from gameplay.models import Table
from gameplay.services import lobby
from games import VariantError
from tests.gameplay.conftest import make_table, make_users
from tests.language import text

GAME = "saichugen"  # three seats
BACK = "/events/spring-league/tables/12/"
CONTEXT = {"event": "Spring league", "round": 2, "table": 3, "url": BACK}


def page(client, table_id: str, **headers: str) -> str:
    response = client.get(f"/tables/{table_id}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def header(html: str) -> str:
    """The table page's header (its first rows), where the link back is shown."""
    return html.split('<header class="tbl-head">', 1)[1].split("</header>", 1)[0]


@pytest.mark.django_db
def test_start_table_stores_the_parts_and_the_page_links_back(client):
    ana = make_users("ana")[0]
    ref = api.start_table(GAME, seats=[ana.pk, "Bot 1", "Bot 2"], context=dict(CONTEXT))
    assert Table.objects.get(pk=ref).context == CONTEXT
    client.force_login(ana)
    head = header(page(client, ref))
    link = f'<a class="tbl-where" id="table-where" href="{BACK}">'
    assert link in head
    where = head.split(link, 1)[1].split("</a>", 1)[0]
    assert "Spring league" in where
    assert text("Round %(n)s", n=2) in where
    assert text("Table %(n)s", n=3) in where
    assert f"table {ref}" not in head  # the id gives way to where the table belongs


@pytest.mark.django_db
def test_the_words_are_the_readers_language_not_the_openers(client):
    ref = api.start_table(GAME, seats=["Bot 1", "Bot 2", "Bot 3"], context=dict(CONTEXT))
    head = header(page(client, ref, HTTP_ACCEPT_LANGUAGE="de"))  # a spectator reading German
    assert "Runde 2 · Tisch 3" in head
    head = header(page(client, ref, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Turno 2 · Tavolo 3" in head


@pytest.mark.django_db
def test_the_event_name_is_plain_text(client):
    name = '<script>alert("x")</script> & Co'
    ref = api.start_table(GAME, seats=["B1", "B2", "B3"], context={**CONTEXT, "event": name})
    head = header(page(client, ref))
    assert "<script>alert" not in head
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in head


@pytest.mark.django_db
def test_parts_may_be_left_out(client):
    ref = api.start_table(GAME, seats=["B1", "B2", "B3"], context={"event": "Club night"})
    head = header(page(client, ref))
    assert '<span class="tbl-where" id="table-where">' in head  # no path: words, no link
    assert "Club night" in head and '<span class="tbl-where-at"></span>' in head  # no numbers
    assert Table.objects.get(pk=ref).context == {"event": "Club night"}
    ref = api.start_table(GAME, seats=["B1", "B2", "B3"], context={})
    assert Table.objects.get(pk=ref).context is None


@pytest.mark.django_db
def test_a_lobby_table_and_a_table_without_context_show_nothing_new(client):
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    friendly = lobby.create_friendly(ana, game=GAME, bots=2).table  # dealt: all seats taken
    plain = api.start_table(GAME, seats=[ana.pk, ben.pk, cleo.pk])  # as before this change
    client.force_login(ana)
    for table_id in (friendly.id, plain):
        assert Table.objects.get(pk=table_id).context is None
        head = header(page(client, table_id))
        assert "table-where" not in head
        assert f"table {table_id}" in head  # the header as it was


@pytest.mark.django_db
@pytest.mark.parametrize(
    "stored",
    [
        "Spring league",  # not a dict
        {"url": BACK},  # nothing to word
        {"event": 7, "round": "two", "table": -1, "url": "https://example.com/"},
    ],
)
def test_a_stored_context_that_does_not_check_out_shows_nothing_and_no_error(client, stored):
    table = make_table(GAME, bots=["B1", "B2", "B3"])
    Table.objects.filter(pk=table.id).update(context=stored)
    head = header(page(client, table.id))
    assert "table-where" not in head and "example.com" not in head


@pytest.mark.django_db
def test_a_stored_url_elsewhere_is_never_linked(client):
    table = make_table(GAME, bots=["B1", "B2", "B3"])
    bad = {"event": "Spring league", "url": "//evil.example/"}
    Table.objects.filter(pk=table.id).update(context=bad)
    head = header(page(client, table.id))
    assert "Spring league" in head and "evil.example" not in head and "<a class" not in head


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({**CONTEXT, "url": "https://evil.example/"}, "url"),
        ({**CONTEXT, "url": "//evil.example/x"}, "url"),
        ({**CONTEXT, "url": "/\\evil.example/x"}, "url"),
        ({**CONTEXT, "url": "javascript:alert(1)"}, "url"),
        ({**CONTEXT, "url": "events/spring/"}, "url"),
        ({**CONTEXT, "url": "/events/a b/"}, "url"),
        ({**CONTEXT, "url": "/events/\n/"}, "url"),
        ({**CONTEXT, "round": 0}, "round"),
        ({**CONTEXT, "round": True}, "round"),
        ({**CONTEXT, "table": "3"}, "table"),
        ({**CONTEXT, "event": " "}, "event"),
        ({**CONTEXT, "event": "Spring\nleague"}, "event"),
        ({**CONTEXT, "event": "x" * 201}, "event"),
        ({**CONTEXT, "title": "Spring league"}, "unknown part"),
        (["Spring league", 2, 3], "dict"),
    ],
)
def test_a_bad_context_is_refused_and_no_table_is_made(context, message):
    with pytest.raises(VariantError, match=message):
        api.start_table(GAME, seats=["B1", "B2", "B3"], context=context)
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_replay_links_back_too(client):
    ref = api.start_table(GAME, seats=["B1", "B2", "B3"], context=dict(CONTEXT))
    table = Table.objects.get(pk=ref)  # bots only: finished at once
    assert table.status == Table.Status.FINISHED
    html = client.get(reverse("gameplay:replay", args=[ref])).content.decode()
    head = header(html)
    assert f'href="{BACK}"' in head and text("Table %(n)s", n=3) in head
