"""Asynchronous events: players agree on a time, any of them opens the table (made on first
opening), and after the deadline the organizer's policy applies once (frozen time)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from gameplay.models import Seat as TableSeat
from gameplay.models import Table
from league.errors import LeagueError
from league.models import Fixture, FixtureProposal, Notice, Result
from league.services import schedule
from league.services.standings import standings_rows
from tests.schedule.conftest import T0

START = T0  # Monday noon UTC
DEADLINE = T0 + timedelta(days=7)


@pytest.fixture
def league(make_event, publish):
    """An asynchronous Europe/Rome league with round 1 published (window: one week)."""

    def make(policy: str = "forfeit", **fields):
        with time_machine.travel(START - timedelta(hours=1), tick=False):
            event = make_event(
                asynchronous=True, deadline_policy=policy, time_zone="Europe/Rome", **fields
            )
            round_ = publish(event, starts_at=START, deadline=DEADLINE)
        fixture = Fixture.objects.select_related("round__event").get(round=round_)
        return event, fixture

    return make


def seat_user(fixture: Fixture, number: int):
    return fixture.seats.select_related("player__user").get(number=number).player.user


def test_publishing_opens_no_table_and_points_players_to_the_fixture_page(league, players):
    event, fixture = league()
    assert fixture.table_ref == ""
    page = reverse("league:fixture", args=[event.slug, fixture.pk])
    for user in players:
        notice = Notice.objects.get(user=user, kind="round_published")
        assert notice.url == page
        assert notice.context["asynchronous"] is True


def test_players_propose_and_accept_a_time_on_the_fixture_page(client, league, players, erin):
    event, fixture = league()
    bob, carol, dave = (seat_user(fixture, n) for n in range(3))
    page = reverse("league:fixture", args=[event.slug, fixture.pk])
    action = reverse("league:fixture_action", args=[event.slug, fixture.pk])
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        client.force_login(bob)
        response = client.post(action, {"action": "propose", "starts_at": "2026-01-06T18:00"})
        assert response.status_code == 302
        proposal = FixtureProposal.objects.get(fixture=fixture)
        # typed on the event's clocks: 18:00 in Rome is 17:00 UTC in January
        assert proposal.starts_at == datetime(2026, 1, 6, 17, 0, tzinfo=UTC)
        for other in (carol, dave):
            assert Notice.objects.filter(user=other, kind="time_proposed").count() == 1
        assert not Notice.objects.filter(user=bob, kind="time_proposed").exists()
        # too late: after the round's deadline
        client.post(action, {"action": "propose", "starts_at": "2026-01-20T18:00"})
        assert FixtureProposal.objects.count() == 1
        assert "Jan. 6, 2026, 6 p.m. CET" in client.get(page).content.decode()

        client.force_login(erin)
        assert client.post(action, {"action": "accept", "proposal": proposal.pk}).status_code == 403
        client.force_login(carol)
        client.post(action, {"action": "accept", "proposal": proposal.pk})
        assert FixtureProposal.objects.get().agreed_at is None
        client.force_login(dave)
        client.post(action, {"action": "accept", "proposal": proposal.pk})
        assert FixtureProposal.objects.get().agreed_at is not None
    for user in (bob, carol, dave):
        assert Notice.objects.filter(user=user, kind="time_agreed").count() == 1
    assert fixture.seats.filter(showed_up_at__isnull=False).count() == 3


def test_the_table_is_made_when_a_player_first_opens_it(client, league, players):
    event, fixture = league()
    bob, carol, dave = (seat_user(fixture, n) for n in range(3))
    action = reverse("league:fixture_action", args=[event.slug, fixture.pk])
    client.force_login(bob)
    with time_machine.travel(START - timedelta(minutes=30), tick=False):
        client.post(action, {"action": "open"})  # before the round starts: refused
        assert Fixture.objects.get(pk=fixture.pk).table_ref == ""
    with time_machine.travel(START + timedelta(days=1), tick=False):
        response = client.post(action, {"action": "open"})
        fixture.refresh_from_db()
        assert fixture.table_ref and fixture.opened_at is not None
        assert response.status_code == 302
        assert response["Location"] == f"/tables/{fixture.table_ref}/"
        assert Table.objects.filter(pk=fixture.table_ref).count() == 1
        seated = set(
            TableSeat.objects.filter(table_id=fixture.table_ref).values_list("user_id", flat=True)
        )
        assert seated == {bob.pk, carol.pk, dave.pk}
        client.force_login(carol)
        again = client.post(action, {"action": "open"})
        assert again["Location"] == f"/tables/{fixture.table_ref}/"
    assert Table.objects.count() == 1
    assert Notice.objects.filter(kind="table_opened", user__in=[carol, dave]).count() == 2
    assert not Notice.objects.filter(kind="table_opened", user=bob).exists()
    assert Notice.objects.get(kind="table_opened", user=dave).url == f"/tables/{fixture.table_ref}/"


def test_only_the_tables_players_open_it(league, erin):
    _event, fixture = league()
    with (
        time_machine.travel(START + timedelta(hours=1), tick=False),
        pytest.raises(PermissionDenied),
    ):
        schedule.open_table(fixture, by=erin)
    assert Fixture.objects.get(pk=fixture.pk).table_ref == ""


def test_forfeit_policy_the_absent_seats_forfeit_once(league, players):
    event, fixture = league("forfeit")
    bob = seat_user(fixture, 0)
    with time_machine.travel(START + timedelta(days=1), tick=False):
        schedule.propose_time(fixture, by=bob, starts_at=START + timedelta(days=2))
    with time_machine.travel(DEADLINE - timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 0
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
        assert schedule.apply_deadline_policies() == 0  # beat runs it again: nothing
        with pytest.raises(LeagueError):
            schedule.open_table(fixture, by=bob)
    result = Result.objects.get(fixture=fixture, current=True)
    assert result.forfeited_seats == [1, 2]
    fixture.refresh_from_db()
    assert fixture.deadline_outcome == "forfeit"
    rows = standings_rows(event)
    assert rows[0]["player_id"] == bob.player.pk
    told = Notice.objects.filter(kind="deadline_passed")
    assert told.count() == 3
    assert "forfeit" in told.first().context["outcome"]


def test_when_nobody_showed_up_every_person_forfeits(league):
    _event, fixture = league("forfeit")
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
    assert Result.objects.get(fixture=fixture).forfeited_seats == [0, 1, 2]


def test_bot_policy_bots_play_the_absent_seats(league):
    _event, fixture = league("bot")
    bob = seat_user(fixture, 0)
    with time_machine.travel(START + timedelta(days=1), tick=False):
        schedule.propose_time(fixture, by=bob, starts_at=START + timedelta(days=2))
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
        assert schedule.apply_deadline_policies() == 0
    fixture.refresh_from_db()
    assert fixture.deadline_outcome == "bot" and fixture.table_ref
    seats = {s.number: s for s in TableSeat.objects.filter(table_id=fixture.table_ref)}
    assert seats[0].user_id == bob.pk and not seats[0].bot
    assert seats[1].bot and seats[1].user_id is None
    assert seats[2].bot and seats[2].user_id is None
    # the seats keep their players' names: the record counts for them
    assert [seats[n].name for n in range(3)] == [
        s.player.name for s in fixture.seats.select_related("player").order_by("number")
    ]
    assert Table.objects.count() == 1


def test_the_bots_playing_the_absent_seats_play_at_the_events_level(league):
    _event, fixture = league("bot", bot_level="strong")
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
    fixture.refresh_from_db()
    seats = TableSeat.objects.filter(table_id=fixture.table_ref)
    assert sorted(seats.values_list("bot_level", flat=True)) == ["strong"] * 3


def test_extend_policy_extends_once_then_the_absent_forfeit(league, players):
    _event, fixture = league("extend", extension_days=3)
    bob = seat_user(fixture, 0)
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
        assert schedule.apply_deadline_policies() == 0
        fixture.refresh_from_db()
        assert fixture.deadline_outcome == "extended"
        assert fixture.extended_until == DEADLINE + timedelta(days=3)
        # still playable until the new deadline
        schedule.propose_time(fixture, by=bob, starts_at=DEADLINE + timedelta(days=1))
    with time_machine.travel(DEADLINE + timedelta(days=3, minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 1
        assert schedule.apply_deadline_policies() == 0
    assert Result.objects.get(fixture=fixture).forfeited_seats == [1, 2]
    fixture.refresh_from_db()
    assert fixture.deadline_outcome == "forfeit"
    outcomes = Notice.objects.filter(kind="deadline_passed", user=bob).values_list(
        "context__outcome", flat=True
    )
    assert sorted(outcomes) == ["extended", "forfeit"]


def test_an_opened_table_is_left_to_play_out(league):
    _event, fixture = league("forfeit")
    bob = seat_user(fixture, 0)
    with time_machine.travel(START + timedelta(days=1), tick=False):
        schedule.open_table(fixture, by=bob)
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        assert schedule.apply_deadline_policies() == 0
    assert not Result.objects.filter(fixture=fixture).exists()


def test_the_round_page_shows_the_window_and_the_outcome(client, league):
    event, _fixture = league("extend")
    with time_machine.travel(DEADLINE + timedelta(minutes=1), tick=False):
        schedule.apply_deadline_policies()
        page = client.get(reverse("league:round", args=[event.slug, 1])).content.decode()
    assert "Jan. 5, 2026, 1 p.m. CET" in page  # the start, on Rome's clocks
    assert "Jan. 12, 2026, 1 p.m. CET" in page  # the deadline
    assert "deadline extended" in page
    assert "Jan. 15, 2026, 1 p.m. CET" in page  # the new deadline of the table


def test_the_api_proposes_accepts_and_opens(client, league, erin):
    event, fixture = league()
    bob, carol, dave = (seat_user(fixture, n) for n in range(3))
    base = f"/api/events/{event.slug}/fixtures/{fixture.pk}/"
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        assert client.post(
            base + "proposals/", {"starts_at": "2026-01-07T20:00:00Z"}
        ).status_code in (401, 403)
        client.force_login(bob)
        made = client.post(
            base + "proposals/",
            {"starts_at": "2026-01-07T20:00:00Z"},
            content_type="application/json",
        )
        assert made.status_code == 201, made.content
        proposal = made.json()
        assert proposal["accepted_by"] == [0]
        bad = client.post(
            base + "proposals/",
            {"starts_at": "2027-01-07T20:00:00Z"},
            content_type="application/json",
        )
        assert bad.status_code == 400 and "deadline" in bad.json()["detail"]
        for user in (carol, dave):
            client.force_login(user)
            client.post(base + f"proposals/{proposal['id']}/accept/")
        listed = client.get(base + "proposals/").json()
        assert listed[0]["agreed_at"] is not None and listed[0]["accepted_by"] == [0, 1, 2]
        client.force_login(erin)
        assert client.post(base + "open/").status_code == 403
        client.force_login(carol)
        opened = client.post(base + "open/")
        assert opened.status_code == 200
        ref = opened.json()["table_ref"]
        assert opened.json()["url"] == f"/tables/{ref}/"
        fixture_json = client.get(base).json()
        assert fixture_json["table_ref"] == ref
        assert fixture_json["deadline"].startswith("2026-01-12T12:00")


def test_the_organizer_sets_the_window_through_the_api(client, alice, make_event, publish, players):
    event = make_event(asynchronous=True, time_zone="Europe/Rome")
    with time_machine.travel(START, tick=False):
        publish(event)
        url = f"/api/events/{event.slug}/rounds/1/schedule/"
        body = {"starts_at": "2026-01-06T08:00:00+01:00", "deadline": "2026-01-10T20:00:00+01:00"}
        client.force_login(players[0])
        assert client.post(url, body, content_type="application/json").status_code == 403
        client.force_login(alice)
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["deadline"].startswith("2026-01-10T19:00")
        past = {"deadline": "2026-01-01T20:00:00Z"}
        assert client.post(url, past, content_type="application/json").status_code == 400
