"""The admin shows each seat's bot level (in the table's seats and in the seat list), never its
token, and refuses list filters that would probe a token."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gameplay.models import Seat

from .conftest import make_table, make_users

pytestmark = pytest.mark.django_db


def level_cells(html: str) -> list[str]:
    """The bot-level cells of a changelist or an inline, as shown."""
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r'<td class="field-bot_level">(.*?)</td>', html, re.S)
    ]


@pytest.fixture
def table():
    return make_table("saichugen", people=make_users("ana"), bots=["Robo", "Tin"])


def test_the_tables_seats_show_the_bot_level_and_no_token(admin_client, table):
    page = admin_client.get(reverse("admin:gameplay_table_change", args=[table.id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert level_cells(html) == ["-", "basic", "basic"]  # ana is a person: no level
    for seat in Seat.objects.filter(table=table):
        assert seat.token not in html


def test_the_seat_list_shows_and_filters_by_level_and_never_a_token(admin_client, table):
    url = reverse("admin:gameplay_seat_changelist")
    listed = admin_client.get(url, {"bot_level": "basic"})
    assert listed.status_code == 200
    html = listed.content.decode()
    assert level_cells(html) == ["basic", "basic"]
    bot = Seat.objects.get(table=table, name="Robo")
    one = admin_client.get(reverse("admin:gameplay_seat_change", args=[bot.pk]))
    assert one.status_code == 200
    assert "basic" in one.content.decode()
    for page in (listed, one, admin_client.get(url)):
        for seat in Seat.objects.filter(table=table):
            assert seat.token not in page.content.decode()


def test_a_token_cannot_be_probed_and_seats_cannot_be_changed(admin_client, table):
    url = reverse("admin:gameplay_seat_changelist")
    bot = Seat.objects.get(table=table, name="Robo")
    for lookup, value in (("token", bot.token), ("token__startswith", bot.token[:1])):
        assert admin_client.get(url, {lookup: value}).status_code == 400, lookup
    assert admin_client.get(reverse("admin:gameplay_seat_add")).status_code == 403
    change = reverse("admin:gameplay_seat_change", args=[bot.pk])
    admin_client.post(change, {"bot_level": "random", "name": "X"})
    bot.refresh_from_db()
    assert (bot.bot_level, bot.name) == ("basic", "Robo")
