"""A notice of no event (a turn-based move's deadline, when it was made) is read on the reader's
own clock, the one of their notice settings, in the page, the mail and the push alike; an
event's notice stays on the event's clocks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from league.models import Notice, NoticeSettings
from league.services.notice_mail import build_message
from league.services.notifications import notify
from league.services.web_push import payload

DEADLINE = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)  # 18:30 in Tokyo


def _your_turn(user, **context) -> Notice:
    notify(
        [user.pk],
        "your_turn",
        key=f"t:{len(context)}",
        url="/tables/0123456789abcdef/",
        context={"game": "saichugen", "deadline": DEADLINE.isoformat(), **context},
    )
    return Notice.objects.filter(user=user).latest("pk")


@pytest.mark.django_db
def test_a_deadline_is_shown_on_the_readers_clock_everywhere(client, bob):
    NoticeSettings.objects.create(user=bob, time_zone="Asia/Tokyo")
    notice = _your_turn(bob)
    client.force_login(bob)
    page = client.get(reverse("league:notices")).content.decode()
    assert "6:30" in page and "JST" in page
    assert "6:30" in build_message(notice, "bob@example.org").body
    assert "6:30" in payload(notice)["body"]


@pytest.mark.django_db
def test_without_a_zone_of_ones_own_it_is_the_sites(client, bob, settings):
    notice = _your_turn(bob)
    assert "9:30" in payload(notice)["body"] and "UTC" in payload(notice)["body"]


@pytest.mark.django_db
def test_an_events_notice_keeps_the_events_clock(bob):
    NoticeSettings.objects.create(user=bob, time_zone="Asia/Tokyo")
    notice = _your_turn(bob, time_zone="Europe/Rome")
    body = payload(notice)["body"]
    assert "10:30" in body and "6:30" not in body
