"""Quiet hours hold push and mail until they end, on the player's clock; the daily digest sends
one mail a day, at the player's hour, listing the notices instead of single mails."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
import time_machine
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from league import tasks
from league.models import Notice, NoticeSettings
from league.services import notice_timers
from league.services.notice_prefs import in_quiet_hours
from league.services.notifications import notify, unsubscribe_token

# Europe/Rome is UTC+1 in January.
EVENING = datetime(2026, 1, 5, 22, 0, tzinfo=UTC)  # 23:00 in Rome


def send(users, key="k1"):
    return notify(users, "moved_up", key=key, url="/events/", context={"event": "Winter league"})


def subscribe(client, user, browser_keys):
    client.force_login(user)
    response = client.post(
        reverse("league:push_subscribe"), browser_keys.json(), content_type="application/json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("start", "end", "hour", "quiet"),
    [
        (time(22), time(7), 23, True),
        (time(22), time(7), 6, True),
        (time(22), time(7), 7, False),
        (time(22), time(7), 12, False),
        (time(13), time(15), 14, True),
        (time(13), time(15), 15, False),
        (time(9), time(9), 9, False),  # the same start and end: no quiet hours
    ],
)
def test_quiet_hours_are_read_on_the_players_clock(start, end, hour, quiet):
    row = NoticeSettings(time_zone="Asia/Tokyo", quiet_from=start, quiet_to=end)
    now = datetime(2026, 1, 5, (hour - 9) % 24, 30, tzinfo=UTC)  # Tokyo is UTC+9
    assert in_quiet_hours(row, now) is quiet


def test_quiet_hours_hold_push_and_mail_until_they_end(
    client, bob, browser_keys, push_service, mailoutbox, django_capture_on_commit_callbacks
):
    subscribe(client, bob, browser_keys)
    NoticeSettings.objects.create(
        user=bob, time_zone="Europe/Rome", quiet_from=time(22), quiet_to=time(7)
    )
    with (
        time_machine.travel(EVENING, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        send([bob])
    notice = Notice.objects.get(user=bob)
    assert (notice.email_status, notice.push_status) == ("held", "held")
    assert mailoutbox == [] and push_service.received == []
    # 06:59 in Rome: still quiet. The sweep of lost mails leaves held ones alone.
    with time_machine.travel(datetime(2026, 1, 6, 5, 59, tzinfo=UTC), tick=False):
        tasks.run_notice_timers()
        tasks.sweep_notice_mail()
    assert mailoutbox == [] and push_service.received == []
    # 07:00 in Rome: both go, once.
    with time_machine.travel(datetime(2026, 1, 6, 6, 0, tzinfo=UTC), tick=False):
        assert tasks.run_notice_timers()["released"] == 2
        assert tasks.run_notice_timers()["released"] == 0
    notice.refresh_from_db()
    assert (notice.email_status, notice.push_status) == ("sent", "sent")
    assert len(mailoutbox) == 1 and len(push_service.received) == 1
    assert "Winter league" in mailoutbox[0].subject


def test_outside_quiet_hours_nothing_waits(bob, mailoutbox, django_capture_on_commit_callbacks):
    NoticeSettings.objects.create(
        user=bob, time_zone="Europe/Rome", quiet_from=time(22), quiet_to=time(7)
    )
    with (
        time_machine.travel(datetime(2026, 1, 5, 12, 0, tzinfo=UTC), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        send([bob])
    assert len(mailoutbox) == 1


def test_the_digest_is_one_mail_a_day_listing_the_notices(
    bob, carol, mailoutbox, django_capture_on_commit_callbacks
):
    NoticeSettings.objects.create(user=bob, time_zone="Europe/Rome", digest=True, digest_hour=18)
    with (
        time_machine.travel(datetime(2026, 1, 5, 9, 0, tzinfo=UTC), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        for n in range(3):
            send([bob, carol], key=f"k{n}")
    assert [m.to for m in mailoutbox] == [["carol@example.org"]] * 3  # carol: single mails
    mailoutbox.clear()
    assert set(Notice.objects.filter(user=bob).values_list("email_status", flat=True)) == {"digest"}
    with time_machine.travel(datetime(2026, 1, 5, 16, 59, tzinfo=UTC), tick=False):
        assert tasks.run_notice_timers()["digests"] == 0  # 17:59 in Rome
    with time_machine.travel(datetime(2026, 1, 5, 17, 0, tzinfo=UTC), tick=False):
        assert tasks.run_notice_timers()["digests"] == 1
        assert tasks.run_notice_timers()["digests"] == 0  # once a day
    [mail] = mailoutbox
    assert mail.to == ["bob@example.org"]
    assert "3 notices of the day" in mail.subject
    assert mail.body.count("You are in Winter league") == 3
    assert mail.body.count("/notices/") >= 3
    assert mail.extra_headers["List-Unsubscribe"].startswith("<http")
    assert set(Notice.objects.filter(user=bob).values_list("email_status", flat=True)) == {
        "digested"
    }
    # A notice after the day's digest waits for the next day's.
    with time_machine.travel(datetime(2026, 1, 5, 19, 0, tzinfo=UTC), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            send([bob], key="late")
        assert tasks.run_notice_timers()["digests"] == 0
    with time_machine.travel(datetime(2026, 1, 6, 17, 30, tzinfo=UTC), tick=False):
        assert tasks.run_notice_timers()["digests"] == 1
    assert len(mailoutbox) == 2
    assert "1 notice of the day" in mailoutbox[1].subject


def test_turning_the_digest_off_sends_what_waited(
    bob, mailoutbox, django_capture_on_commit_callbacks
):
    row = NoticeSettings.objects.create(user=bob, digest=True, digest_hour=23)
    with time_machine.travel(datetime(2026, 1, 5, 9, 0, tzinfo=UTC), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            send([bob], key="a")
            send([bob], key="b")
        row.digest = False
        row.save()
        assert notice_timers.send_digests() == 1
    assert len(mailoutbox) == 1
    assert "2 notices" in mailoutbox[0].subject


def test_the_unsubscribe_link_stops_the_digest_too(
    client, bob, mailoutbox, django_capture_on_commit_callbacks
):
    NoticeSettings.objects.create(user=bob, digest=True, digest_hour=0)
    with django_capture_on_commit_callbacks(execute=True):
        send([bob])
    assert mailoutbox == []
    response = client.post(reverse("league:unsubscribe"), {"token": unsubscribe_token(bob.pk)})
    assert response.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        send([bob], key="k2")
    assert Notice.objects.get(key="k2").email_status == "off"


@given(start=st.times(), end=st.times(), moment=st.datetimes(timezones=st.just(UTC)))
def test_quiet_hours_cover_from_start_up_to_end_and_no_more(start, end, moment):
    start, end = start.replace(second=0, microsecond=0), end.replace(second=0, microsecond=0)
    row = NoticeSettings(time_zone="UTC", quiet_from=start, quiet_to=end)
    local = moment.time()
    if start == end:
        expected = False
    elif start < end:
        expected = start <= local < end
    else:
        expected = not (end <= local < start)
    assert in_quiet_hours(row, moment) is expected
