"""Each trigger notifies the right people once: a round published, a result entered or
corrected, a deadline approaching. No mail ever carries a seat token."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.contrib.auth import get_user_model

from gameplay.models import Seat as TableSeat
from league.models import Fixture, Notice, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from league.services.schedule import send_deadline_reminders
from tests.league.conftest import record_for
from tests.schedule.conftest import T0


def kinds(user) -> list[str]:
    return list(Notice.objects.filter(user=user).order_by("pk").values_list("kind", flat=True))


def test_publishing_a_round_tells_each_seated_account_its_table_and_seat(
    make_event, publish, players, erin, mailoutbox, django_capture_on_commit_callbacks
):
    event = make_event()
    with django_capture_on_commit_callbacks(execute=True):
        round_ = publish(event)
    fixture = round_.fixtures.get()
    assert fixture.table_ref  # a synchronous event: the table opened at publishing
    tokens = list(
        TableSeat.objects.filter(table_id=fixture.table_ref).values_list("token", flat=True)
    )
    assert all(tokens)
    seats = {s.player.user_id: s.number for s in fixture.seats.select_related("player")}
    for user in players:
        notice = Notice.objects.get(user=user)
        assert notice.kind == "round_published"
        assert notice.url == f"/tables/{fixture.table_ref}/"
        assert notice.context["seat"] == seats[user.pk] + 1  # numbered from 1, as on the round page
    assert not Notice.objects.filter(user=erin).exists()
    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for u in players)
    for mail in mailoutbox:
        assert f"/tables/{fixture.table_ref}/" in mail.body
        assert "table 1, seat" in mail.body
        for token in tokens:
            assert token not in mail.body
            assert token not in str(mail.extra_headers)
    # A retry of the announcement (the task, or the service's step) makes nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        assert round_services.announce_round(round_) == 0
    assert len(mailoutbox) == 3


def test_only_seated_accounts_are_told(
    alice, make_event, publish, players, django_capture_on_commit_callbacks
):
    event = make_event(rounds=1, leftover="bot")
    walk_in = Player.objects.create(name="walk-in")  # entered by the organizer, no account
    event_services.add_entry(event, walk_in, by=alice, checked_in=True)
    round_ = publish(event)
    seated = {
        s.player.user_id
        for f in round_.fixtures.all()
        for s in f.seats.select_related("player")
        if s.player.user_id
    }
    assert seated and set(Notice.objects.values_list("user_id", flat=True)) == seated
    assert Notice.objects.count() == len(seated)  # bots and the walk-in get nothing


def test_a_result_and_its_correction_are_told_once_each(
    alice, make_event, publish, players, mailoutbox, django_capture_on_commit_callbacks
):
    event = make_event(play_online=False)
    round_ = publish(event)
    fixture = Fixture.objects.select_related("round__event").get(round=round_)
    assert Notice.objects.filter(url__contains="/tables/").count() == 3  # the fixture page
    with django_capture_on_commit_callbacks(execute=True):
        record_result(fixture, by=alice, record=record_for(fixture))
    with django_capture_on_commit_callbacks(execute=True):
        record_result(
            fixture, by=alice, record=record_for(fixture, seed=7), correction=True, reason="typo"
        )
    for user in players:
        assert kinds(user) == ["round_published", "result_entered", "result_corrected"]
    corrected = [m for m in mailoutbox if "corrected" in m.subject]
    assert len(corrected) == 3 and "typo" in corrected[0].body


def test_the_deadline_reminder_goes_once_to_tables_without_a_result(
    alice, make_event, publish, players, mailoutbox, django_capture_on_commit_callbacks
):
    deadline = T0 + timedelta(days=2)
    with time_machine.travel(T0, tick=False):
        event = make_event(play_online=False)
        publish(event, deadline=deadline)
    with time_machine.travel(deadline - timedelta(hours=30), tick=False):
        assert send_deadline_reminders() == 0  # not yet: more than 24 hours to go
    with (
        time_machine.travel(deadline - timedelta(hours=20), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert send_deadline_reminders() == 3
        assert send_deadline_reminders() == 0  # beat runs it again: nothing new
    reminders = [m for m in mailoutbox if m.subject.startswith("[Mediana] Deadline")]
    assert len(reminders) == 3
    assert "Jan. 7, 2026, noon UTC" in reminders[0].body
    for user in players:
        assert kinds(user).count("deadline_soon") == 1


def test_no_reminder_for_a_table_that_has_its_result(
    alice, make_event, publish, players, django_capture_on_commit_callbacks
):
    deadline = T0 + timedelta(days=2)
    with time_machine.travel(T0, tick=False):
        event = make_event(play_online=False)
        round_ = publish(event, deadline=deadline)
        fixture = Fixture.objects.select_related("round__event").get(round=round_)
        record_result(fixture, by=alice, record=record_for(fixture))
    with time_machine.travel(deadline - timedelta(hours=1), tick=False):
        assert send_deadline_reminders() == 0
    assert not Notice.objects.filter(kind="deadline_soon").exists()
    assert get_user_model().objects.count() == 4
