"""An event's tables and the chat (docs/chat.md): off unless the organizer turns it on, never at
a duplicate table; a report from a table's chat reaches staff with the conversation, and staff
mute the account site-wide from the reports."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from gameplay.models import ChatLine, Table
from gameplay.services import chat, lobby
from gameplay.services.create import SeatSpec, create_table
from gameplay.services.errors import TableError
from league.forms.events import EventForm
from league.models import PlayerReport
from league.services.players import player_for_user

from .test_table_links import people_event, published_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("fields", "chat_on"),
    [
        ({}, False),
        ({"table_chat": True}, True),
        ({"table_chat": True, "scoring": "duplicate", "deals_per_match": 2}, False),
    ],
    ids=["default", "organizer-on", "duplicate"],
)
def test_an_event_s_tables_chat_only_when_its_organizer_says_so(alice, fields, chat_on):
    event = people_event(alice, **fields)
    round_ = published_round(event, alice)
    tables = Table.objects.filter(pk__in=round_.fixtures.values("table_ref"))
    assert tables.count() == 2
    assert {t.chat for t in tables} == {chat_on}


def test_the_event_form_offers_the_chat_off(alice):
    form = EventForm(game="saichugen")
    assert "table_chat" in form.fields
    assert form.fields["table_chat"].initial is False


def test_staff_read_a_reported_conversation_and_mute_the_account(alice, admin_client):
    event = people_event(alice, table_chat=True)
    fixture = published_round(event, alice).fixtures.order_by("number").first()
    one, two = (s.player.user for s in fixture.seats.order_by("number")[:2])
    chat.post(fixture.table_ref, 0, None, {"text": "good luck"})
    chat.post(fixture.table_ref, 1, None, {"text": "<script>alert(1)</script> loser"})
    chat.report(fixture.table_ref, 0, None, {"author": "s1", "note": "insult"})
    report = PlayerReport.objects.get()
    assert (report.reporter, report.player, report.chat_table) == (
        one,
        player_for_user(two),
        fixture.table_ref,
    )
    page = admin_client.get(reverse("admin:league_playerreport_change", args=[report.pk]))
    html = page.content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; loser" in html  # text, escaped
    assert "<script>alert(1)" not in html
    admin_client.post(
        reverse("admin:league_playerreport_changelist"),
        {"action": "mute_in_chat", "_selected_action": [report.pk]},
    )
    assert get_user_model().objects.get(pk=two.pk).chat_muted
    with pytest.raises(TableError) as refused:
        chat.post(fixture.table_ref, 1, None, {"text": "still here"})
    assert refused.value.reason == "chat_muted"
    assert ChatLine.objects.count() == 2


def test_a_report_over_the_daily_allowance_is_refused_with_a_reason(alice, settings):
    settings.PLAYER_REPORTS_PER_DAY = 1
    event = people_event(alice, table_chat=True)
    fixture = published_round(event, alice).fixtures.order_by("number").first()
    chat.post(fixture.table_ref, 1, None, {"phrase": "sorry"})
    chat.post(fixture.table_ref, 2, None, {"phrase": "thanks"})
    chat.report(fixture.table_ref, 0, None, {"author": "s1"})
    with pytest.raises(TableError) as refused:
        chat.report(fixture.table_ref, 0, None, {"author": "s2"})
    assert (refused.value.code, refused.value.reason) == ("forbidden", "chat_report_refused")
    assert "24 hours" in refused.value.message
    assert PlayerReport.objects.count() == 1


def test_a_friendly_table_chats_and_the_operator_s_only_when_asked(alice):
    friendly = lobby.create_friendly(alice, game="saichugen", bots=2).table
    assert friendly.chat
    seats = [
        SeatSpec("alice", user_id=alice.pk),
        SeatSpec("b1", bot="b1"),
        SeatSpec("b2", bot="b2"),
    ]
    assert not create_table("saichugen", seats).chat
    assert create_table("saichugen", seats, chat=True).chat


def test_staff_mute_and_unmute_an_account_from_the_user_list(admin_client, bob):
    users = reverse("admin:accounts_user_changelist")
    assert admin_client.get(users, {"chat_muted__exact": "0"}).status_code == 200
    admin_client.post(users, {"action": "mute_in_chat", "_selected_action": [bob.pk]})
    assert get_user_model().objects.get(pk=bob.pk).chat_muted
    admin_client.post(users, {"action": "unmute_in_chat", "_selected_action": [bob.pk]})
    assert not get_user_model().objects.get(pk=bob.pk).chat_muted
    page = admin_client.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    assert b"chat_muted" in page.content


def test_a_deleted_account_s_lines_stay_under_its_anonymous_name(bob):
    from gameplay import api

    seats = [SeatSpec("bob", user_id=bob.pk), SeatSpec("b1", bot="b1"), SeatSpec("b2", bot="b2")]
    table = create_table("saichugen", seats, chat=True)
    chat.post(table.id, 0, None, {"phrase": "hello"})
    api.rename_seats(bob.pk, "robert")
    assert ChatLine.objects.get().name == "robert"
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    api.anonymize_seats(bob.pk, "deleted-1")
    line = ChatLine.objects.get()
    assert (line.name, line.user_id, line.phrase) == ("deleted-1", None, "hello")
