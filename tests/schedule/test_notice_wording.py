"""The notices of a round and its deadline read properly whether the round has a deadline or
not (never "play by : …"), a deadline set, moved or taken away after publishing is told to the
players still to play, and the notices and a table's result history show their times on the
event's clocks, labelled with its zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games import catalogue
from league.models import Notice, Round
from league.services import results as result_services
from league.services.notice_kinds import words
from league.services.schedule import set_round_schedule
from tests.schedule.conftest import T0

DEADLINE = datetime(2026, 1, 12, 17, 30, tzinfo=UTC)  # 18:30 in Berlin (CET)
SHOWN = "Jan. 12, 2026, 6:30 p.m. CET"


def round_published(**context) -> str:
    base = {"event": "Winter league", "round": 1, "table": 2, "seat": 0}
    base["time_zone"] = "Europe/Berlin"
    return words("round_published", {**base, **context}, "en")[1]


@pytest.mark.parametrize("deadline", ["", None])
def test_an_asynchronous_round_without_a_deadline_says_so(deadline):
    context = {"asynchronous": True, "online": False}
    if deadline is not None:
        context["deadline"] = deadline
    text = round_published(**context)
    assert "play by" not in text and " :" not in text and "?" not in text
    assert "any of you opens the table" in text
    assert "no deadline for now" in text


def test_an_asynchronous_round_with_a_deadline_names_it_in_the_events_zone():
    text = round_published(asynchronous=True, online=False, deadline=DEADLINE.isoformat())
    assert f"play by {SHOWN}: any of you opens the table." in text
    assert "no deadline" not in text


def test_a_table_over_the_table_gets_its_deadline_or_nothing():
    with_one = round_published(asynchronous=False, online=False, deadline=DEADLINE.isoformat())
    without = round_published(asynchronous=False, online=False, deadline="")
    assert with_one.endswith(f"Deadline: {SHOWN}.")
    assert without.endswith("seat 0.") and "Deadline" not in without


@pytest.fixture
def berlin(make_event, publish, players):
    """An asynchronous Europe/Berlin league whose round 1 was published without a deadline."""
    with time_machine.travel(T0, tick=False):
        event = make_event(time_zone="Europe/Berlin", asynchronous=True)
        round_ = publish(event)
    return event, round_


def notices_of(user, kind: str) -> list[Notice]:
    return list(Notice.objects.filter(user=user, kind=kind).order_by("pk"))


def test_a_round_published_without_a_deadline_reads_properly_then_tells_the_one_set(
    berlin, alice, players, mailoutbox, django_capture_on_commit_callbacks
):
    event, round_ = berlin
    bob = players[0]
    (published,) = notices_of(bob, "round_published")
    title, text = words(published.kind, published.context, "en")
    assert "play by :" not in text and "no deadline for now" in text

    with (
        time_machine.travel(T0 + timedelta(hours=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        set_round_schedule(round_, by=alice, starts_at=None, deadline=DEADLINE)
    for user in players:
        (told,) = notices_of(user, "deadline_changed")
        assert told.event_id == event.pk
        title, text = words(told.kind, told.context, "en")
        assert title == f"Deadline {SHOWN}: round 1 of Winter league"
        assert text == f"Round 1 of Winter league now ends at {SHOWN}: play your table 1 by then."
    mailed = [m for m in mailoutbox if SHOWN in m.body]
    assert sorted(m.to[0] for m in mailed) == sorted(u.email for u in players)

    # saving the same deadline again tells nobody twice; taking it away is told
    set_round_schedule(round_, by=alice, starts_at=None, deadline=DEADLINE)
    assert len(notices_of(bob, "deadline_changed")) == 1
    set_round_schedule(round_, by=alice, starts_at=None, deadline=None)
    taken = notices_of(bob, "deadline_changed")[-1]
    title, text = words(taken.kind, taken.context, "en")
    assert text == "Round 1 of Winter league has no deadline any more."
    assert title == "No deadline any more: round 1 of Winter league"


def test_a_table_with_a_result_and_a_draft_round_are_told_nothing(
    make_event, publish, alice, players
):
    with time_machine.travel(T0, tick=False):
        event = make_event(time_zone="Europe/Berlin", play_online=False)
        round_ = publish(event)
    fixture = round_.fixtures.get()
    names = [s.player.name for s in fixture.seats.select_related("player")]
    record = catalogue.random_record(
        event.game, players=names, variant=event.variant, n_deals=event.deals_per_match, seed=1
    )
    result_services.record_result(fixture, by=alice, record=record)
    draft = Round.objects.create(event=event, number=2)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        set_round_schedule(round_, by=alice, starts_at=None, deadline=DEADLINE)
        set_round_schedule(draft, by=alice, starts_at=None, deadline=DEADLINE)
    assert not Notice.objects.filter(kind="deadline_changed").exists()


def test_the_notices_page_dates_each_notice_on_the_events_clocks(client, berlin, players):
    client.force_login(players[0])
    page = client.get(reverse("league:notices")).content.decode()
    assert "Jan. 5, 2026, 1 p.m. CET" in page  # made at noon UTC
    assert "UTC" not in page


def test_a_tables_result_history_is_on_the_events_clocks(client, make_event, publish, alice):
    with time_machine.travel(T0, tick=False):
        event = make_event(time_zone="Europe/Berlin", play_online=False)
        fixture = publish(event).fixtures.get()
    names = [s.player.name for s in fixture.seats.select_related("player")]
    record = catalogue.random_record(
        event.game, players=names, variant=event.variant, n_deals=event.deals_per_match, seed=1
    )
    with time_machine.travel(DEADLINE, tick=False):
        result_services.record_result(fixture, by=alice, record=record)
    client.force_login(alice)
    page = client.get(reverse("league:result", args=[event.slug, fixture.pk])).content.decode()
    history = page[page.index(">History</h2>") :]
    assert SHOWN in history
    assert "UTC" not in history
