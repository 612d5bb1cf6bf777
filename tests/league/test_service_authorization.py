"""Every organizer service authorizes its caller itself, so no page, API view, command or task
that forgets to check lets an outsider's write through."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from league.errors import LeagueError
from league.models import Entry, Event, Player, Result, Round, Seat
from league.services import events as event_services
from league.services import rounds as round_services
from league.services import sections as section_services
from league.services.permissions import can_organize, organizer_role_holders
from league.services.results import record_result
from tests.league.conftest import make_organizer, record_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(make_event, alice) -> SimpleNamespace:
    """Alice's league: round 1 published (no results yet), round 2 a draft."""
    event = make_event("saichugen", players=6, format="league")
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    second = round_services.generate_round(event, by=alice)
    seated = list(Seat.objects.filter(fixture__round=second).values_list("player_id", flat=True))
    return SimpleNamespace(
        event=event,
        fixture=first.fixtures.first(),
        draft=second,
        pair=seated[:2],
        entry=Entry.objects.filter(event=event).first(),
    )


SERVICES: dict[str, Callable[[SimpleNamespace, Any], Any]] = {
    "create_event": lambda s, by: event_services.create_event(by, name="X", game="saichugen"),
    "update_event": lambda s, by: event_services.update_event(s.event, by=by, name="Mine"),
    "publish_event": lambda s, by: event_services.publish_event(s.event, by=by),
    "close_event": lambda s, by: event_services.close_event(s.event, by=by),
    "add_entry": lambda s, by: event_services.add_entry(
        s.event, Player.objects.create(name="zoe"), by=by
    ),
    "enter_player": lambda s, by: event_services.enter_player(s.event, by=by, name="newcomer"),
    "check_in": lambda s, by: event_services.check_in(s.entry, False, by=by),
    "withdraw": lambda s, by: event_services.withdraw(s.entry, by=by),
    "generate_round": lambda s, by: round_services.generate_round(s.event, by=by),
    "swap_players": lambda s, by: round_services.swap_players(s.draft, *s.pair, by=by),
    "publish_round": lambda s, by: round_services.publish_round(s.draft, by=by),
    "discard_draft": lambda s, by: round_services.discard_draft(s.draft, by=by),
    "split_sections": lambda s, by: section_services.split_sections(s.draft, [[1, 2]], by=by),
    "record_result": lambda s, by: record_result(s.fixture, by=by, record=record_for(s.fixture)),
}


def snapshot(event: Event) -> tuple:
    event.refresh_from_db()
    return (
        Event.objects.count(),
        event.name,
        event.status,
        sorted(Entry.objects.values_list("player__name", "checked_in", "withdrawn_after_round")),
        sorted(Round.objects.values_list("number", "status")),
        sorted(Seat.objects.values_list("fixture_id", "number", "player_id")),
        Result.objects.count(),
        Player.objects.filter(name="newcomer").exists(),
    )


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("who", ["charlie", "anonymous"])
def test_an_outsider_is_refused_by_the_service_itself(scene, charlie, service, who):
    by = charlie if who == "charlie" else AnonymousUser()
    before = snapshot(scene.event)
    with pytest.raises(PermissionDenied):
        SERVICES[service](scene, by)
    assert snapshot(scene.event) == before


@pytest.mark.parametrize("service", SERVICES)
def test_the_organizer_gets_past_every_check(scene, alice, service):
    """Alice is let through: the service works, or refuses by the event's rules (closing with
    tables waiting, a second draft round), never for want of permission."""
    with contextlib.suppress(LeagueError):
        SERVICES[service](scene, alice)


def test_an_organizer_who_lost_the_role_runs_their_event_but_enters_no_existing_player(
    scene, alice
):
    alice.user_permissions.clear()
    alice = get_user_model().objects.get(pk=alice.pk)
    assert not can_organize(alice)
    event_services.check_in(scene.entry, False, by=alice)
    event_services.enter_player(scene.event, by=alice, name="newcomer")
    existing = Player.objects.create(name="rated-elsewhere")
    for enter in (
        lambda: event_services.add_entry(scene.event, existing, by=alice),
        lambda: event_services.enter_player(scene.event, by=alice, name="rated-elsewhere"),
        lambda: event_services.enter_player(scene.event, by=alice, player_id=existing.pk),
    ):
        with pytest.raises(PermissionDenied, match="organizer role"):
            enter()
    assert not Entry.objects.filter(player=existing).exists()
    with pytest.raises(PermissionDenied):
        event_services.create_event(alice, name="Another", game="saichugen")


def test_the_role_through_a_group_staff_and_superusers(db):
    from django.contrib.auth.models import Group

    from league.services.permissions import organizer_role

    users = get_user_model().objects
    grouped = users.create_user("grouped")
    group = Group.objects.create(name="Organizers")
    group.permissions.add(organizer_role())
    grouped.groups.add(group)
    users.create_user("staff", is_staff=True)
    users.create_superuser("root", password="pw")
    make_organizer(users.create_user("direct"))
    nobody = users.create_user("nobody")
    gone = make_organizer(users.create_user("gone"))
    gone.is_active = False
    gone.save()
    holders = {u.username for u in organizer_role_holders()}
    assert holders == {"grouped", "staff", "root", "direct"}
    for user in users.all():
        assert can_organize(users.get(pk=user.pk)) == (user.username in holders), user
    assert not can_organize(nobody) and not can_organize(AnonymousUser())


def test_grant_organizer_gives_and_takes_the_role(db):
    from io import StringIO

    from django.core.management import CommandError, call_command

    get_user_model().objects.create_user("erin")

    def run(*args: str) -> str:
        out = StringIO()
        call_command("grant_organizer", *args, stdout=out)
        return out.getvalue().strip()

    assert run("erin") == "erin holds the organizer role"
    assert can_organize(get_user_model().objects.get(username="erin"))
    assert run("erin", "--revoke") == "erin does not hold the organizer role"
    assert not can_organize(get_user_model().objects.get(username="erin"))
    with pytest.raises(CommandError, match="no account 'nobody'"):
        run("nobody")
