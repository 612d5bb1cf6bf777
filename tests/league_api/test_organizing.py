"""Running an event through the API: only its organizers (and staff) may, and they go through
the same services (and refusals) as the organizer pages."""

from __future__ import annotations

import base64
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from league.models import Entry, Event, Player, Result, Round, Seat
from tests.league_api.builders import client_of, enter, make_event, record_for, seat_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(alice, cup) -> SimpleNamespace:
    """Alice's cup: round 1 published (Bob, Dora, Emil), round 2 a draft (Fritz, Gus, Hal)."""
    fritz, gus, hal = enter(cup, ["fritz", "gus", "hal"])
    seat_round(cup, [[fritz, gus, hal]], publish=False)
    return SimpleNamespace(
        event=cup,
        url=f"/api/events/{cup.slug}/",
        dora=Entry.objects.get(event=cup, player__name="dora"),
        table_one=cup.round_set.get(number=1).fixtures.get(),
        fritz=fritz,
        gus=gus,
    )


def fresh_league(alice: Any) -> Event:
    """Another of Alice's events, with three checked-in players and no round yet."""
    event = make_event(alice, "Open League")
    enter(event, ["ina", "jo", "kai"])
    return event


Request = tuple[str, str, dict[str, Any] | None]

# Every organizer endpoint: the request Alice may make and everybody else may not.
ORGANIZER_ENDPOINTS: dict[str, Callable[[SimpleNamespace, Any], Request]] = {
    "publish the event": lambda s, a: ("post", f"{s.url}publish/", None),
    # (an event whose tables wait for results cannot close: a fresh one can)
    "close the event": lambda s, a: ("post", f"/api/events/{fresh_league(a).slug}/close/", None),
    "enter a player": lambda s, a: ("post", f"{s.url}entries/", {"player": "zoe"}),
    "check a player in": lambda s, a: (
        "post",
        f"{s.url}entries/{s.dora.pk}/check-in/",
        {"checked_in": False},
    ),
    "withdraw a player": lambda s, a: ("post", f"{s.url}entries/{s.dora.pk}/withdraw/", None),
    "generate a round": lambda s, a: (
        "post",
        f"/api/events/{fresh_league(a).slug}/rounds/",
        None,
    ),
    "swap two players": lambda s, a: (
        "post",
        f"{s.url}rounds/2/swap/",
        {"first": s.fritz.pk, "second": s.gus.pk},
    ),
    "publish a round": lambda s, a: ("post", f"{s.url}rounds/2/publish/", None),
    "discard a draft round": lambda s, a: ("delete", f"{s.url}rounds/2/", None),
    "post a result": lambda s, a: (
        "post",
        f"{s.url}fixtures/{s.table_one.pk}/result/",
        {"record": record_for(s.table_one)},
    ),
}


def call(client: Any, request: Request) -> Any:
    method, url, data = request
    return getattr(client, method)(url, data, format="json")


def snapshot(event: Event) -> tuple:
    """Everything the organizer endpoints could change, to show a refusal changed nothing."""
    event.refresh_from_db()
    return (
        event.visibility,
        event.status,
        sorted(Entry.objects.filter(event=event).values_list("player__name", "checked_in")),
        sorted(Entry.objects.values_list("withdrawn_after_round", flat=True), key=str),
        sorted(Round.objects.values_list("event_id", "number", "status")),
        sorted(Seat.objects.values_list("fixture_id", "number", "player_id")),
        Result.objects.count(),
        Player.objects.count(),
    )


@pytest.mark.parametrize("endpoint", ORGANIZER_ENDPOINTS)
def test_alice_runs_her_event(alice, as_alice, scene, endpoint):
    response = call(as_alice, ORGANIZER_ENDPOINTS[endpoint](scene, alice))
    assert response.status_code in (200, 201, 204), response.content


@pytest.mark.parametrize("endpoint", ORGANIZER_ENDPOINTS)
def test_staff_may_run_any_event(alice, staff, scene, endpoint):
    response = call(client_of(staff), ORGANIZER_ENDPOINTS[endpoint](scene, alice))
    assert response.status_code in (200, 201, 204), response.content


@pytest.mark.parametrize("endpoint", ORGANIZER_ENDPOINTS)
def test_charlie_may_change_nothing(alice, as_charlie, scene, endpoint):
    request = ORGANIZER_ENDPOINTS[endpoint](scene, alice)
    before = snapshot(scene.event)
    response = call(as_charlie, request)
    assert response.status_code == 403
    assert response.json() == {"detail": "only this event's organizers may do that"}
    assert snapshot(scene.event) == before


@pytest.mark.parametrize("endpoint", ORGANIZER_ENDPOINTS)
def test_bob_playing_in_the_event_does_not_make_him_an_organizer(alice, as_bob, scene, endpoint):
    assert call(as_bob, ORGANIZER_ENDPOINTS[endpoint](scene, alice)).status_code == 403


@pytest.mark.parametrize("endpoint", ORGANIZER_ENDPOINTS)
def test_anonymous_is_asked_to_log_in(alice, anonymous, scene, endpoint):
    request = ORGANIZER_ENDPOINTS[endpoint](scene, alice)
    before = snapshot(scene.event)
    response = call(anonymous, request)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Basic")
    assert snapshot(scene.event) == before


def test_an_outsider_is_refused_on_a_draft_event_too(as_charlie, draft):
    assert as_charlie.post(f"/api/events/{draft.slug}/publish/").status_code == 403
    draft.refresh_from_db()
    assert draft.visibility == "draft"


def basic(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_a_script_runs_the_event_with_http_basic(alice, anonymous, scene):
    response = anonymous.post(
        f"{scene.url}entries/", {"player": "zoe"}, **basic("alice", "alice-password")
    )
    assert response.status_code == 201, response.content
    wrong = anonymous.post(f"{scene.url}entries/", {"player": "yan"}, **basic("alice", "nope"))
    assert wrong.status_code == 401


# --- creating events --------------------------------------------------------------------------


def test_an_organizer_creates_a_draft_they_organize(alice, as_alice):
    response = as_alice.post(
        "/api/events/",
        {"name": "Alice's Cup", "game": "schieberamsch", "variant": {"jacks_in_skat": True}},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["visibility"] == "draft"
    assert body["variant"]["jacks_in_skat"] is True
    assert body["variant"]["score_divisor"] == 10  # defaults filled in by the engine
    event = Event.objects.get(slug=body["slug"])
    assert list(event.organizers.all()) == [alice]


def test_an_account_without_the_organizer_role_cannot_create_an_event(as_charlie):
    response = as_charlie.post(
        "/api/events/", {"name": "Charlie's Cup", "game": "saichugen"}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {
        "detail": "creating an event needs the organizer role (staff grant it)"
    }
    assert not Event.objects.exists()


def test_staff_create_events_without_being_granted_the_role(staff):
    response = client_of(staff).post(
        "/api/events/", {"name": "Staff Cup", "game": "saichugen"}, format="json"
    )
    assert response.status_code == 201, response.content


def test_anonymous_cannot_create_an_event(anonymous):
    response = anonymous.post("/api/events/", {"name": "X", "game": "saichugen"}, format="json")
    assert response.status_code == 401
    assert not Event.objects.exists()


def test_an_unknown_game_is_refused_with_the_reason(as_alice):
    response = as_alice.post("/api/events/", {"name": "X", "game": "bridge"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "unknown game 'bridge'"}


def test_a_variant_flag_the_game_does_not_know_is_refused(as_alice):
    response = as_alice.post(
        "/api/events/", {"name": "X", "game": "saichugen", "variant": {"nope": 1}}, format="json"
    )
    assert response.status_code == 400
    assert "nope" in response.json()["detail"]
    assert not Event.objects.exists()


def test_an_unknown_tiebreak_is_refused(as_alice):
    response = as_alice.post(
        "/api/events/", {"name": "X", "game": "saichugen", "tiebreaks": ["luck"]}, format="json"
    )
    assert response.status_code == 400
    assert "luck" in response.json()["detail"]


# --- entries ----------------------------------------------------------------------------------


def test_entering_a_new_name_creates_the_player(as_alice, scene):
    response = as_alice.post(
        f"{scene.url}entries/", {"player": "  zoe ", "checked_in": True}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["player"]["name"] == "zoe"
    assert response.json()["checked_in"] is True
    assert Player.objects.filter(name="zoe").count() == 1


def test_entering_an_existing_player_by_id(as_alice, bob, draft):
    response = as_alice.post(
        f"/api/events/{draft.slug}/entries/", {"player_id": bob.player.pk}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["player"] == {"id": bob.player.pk, "name": "bob", "is_bot": False}


def test_entering_an_existing_player_needs_the_organizer_role(alice, as_alice, bob, scene):
    """Alice still runs her cup after staff take her role away, but only with new names."""
    alice.user_permissions.clear()
    for body in ({"player_id": bob.player.pk}, {"player": "fritz"}):
        response = as_alice.post(f"{scene.url}entries/", body, format="json")
        assert response.status_code == 403, body
        assert response.json() == {
            "detail": "entering a player who exists already needs the organizer role "
            "(staff grant it)"
        }
    assert as_alice.post(f"{scene.url}entries/", {"player": "zoe"}).status_code == 201
    entered = Entry.objects.filter(event=scene.event).values_list("player__name", flat=True)
    assert sorted(entered) == ["bob", "dora", "emil", "fritz", "gus", "hal", "zoe"]


def test_entering_a_player_twice_is_refused(as_alice, scene):
    response = as_alice.post(f"{scene.url}entries/", {"player": "bob"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "bob has already entered"}


def test_a_refused_entry_leaves_no_new_player_behind(as_alice, alice, scene):
    Event.objects.filter(pk=scene.event.pk).update(status=Event.Status.CLOSED)
    response = as_alice.post(f"{scene.url}entries/", {"player": "newcomer"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "this event is closed"}
    assert not Player.objects.filter(name="newcomer").exists()


def test_an_entry_needs_a_name_or_an_id(as_alice, scene):
    assert as_alice.post(f"{scene.url}entries/", {}, format="json").status_code == 400
    both = {"player": "zoe", "player_id": 1}
    assert as_alice.post(f"{scene.url}entries/", both, format="json").status_code == 400
    unknown = as_alice.post(f"{scene.url}entries/", {"player_id": 999999}, format="json")
    assert unknown.status_code == 400
    assert unknown.json() == {"detail": "there is no player 999999"}


def test_check_in_and_out(as_alice, scene):
    url = f"{scene.url}entries/{scene.dora.pk}/check-in/"
    assert as_alice.post(url, {"checked_in": False}, format="json").json()["checked_in"] is False
    assert as_alice.post(url, {}, format="json").json()["checked_in"] is True


def test_a_withdrawn_player_keeps_the_rounds_played(as_alice, scene):
    url = f"{scene.url}entries/{scene.dora.pk}/withdraw/"
    body = as_alice.post(url).json()
    # round 2 is still a draft: the last round dora was part of is round 1
    assert (body["withdrawn"], body["withdrawn_after_round"]) == (True, 1)
    again = as_alice.post(url)
    assert again.status_code == 400
    assert again.json() == {"detail": "dora has already withdrawn"}


def test_an_entry_of_another_event_is_404(as_alice, alice, scene):
    other = fresh_league(alice)
    ina = Entry.objects.get(event=other, player__name="ina")
    assert as_alice.post(f"{scene.url}entries/{ina.pk}/withdraw/").status_code == 404


# --- rounds -----------------------------------------------------------------------------------


def test_alice_plans_a_round_and_it_starts_as_a_draft(alice, as_alice, anonymous):
    event = fresh_league(alice)
    response = as_alice.post(f"/api/events/{event.slug}/rounds/")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["status"]) == (1, "draft")
    seated = sorted(s["player"]["name"] for f in body["fixtures"] for s in f["seats"])
    assert seated == ["ina", "jo", "kai"]
    assert anonymous.get(f"/api/events/{event.slug}/rounds/1/").status_code == 404


def test_a_second_draft_round_is_refused(as_alice, scene):
    response = as_alice.post(f"{scene.url}rounds/")
    assert response.status_code == 400
    assert response.json() == {"detail": "round 2 is still a draft: publish or discard it first"}


def test_swapping_two_players_of_a_draft(as_alice, scene):
    response = as_alice.post(
        f"{scene.url}rounds/2/swap/", {"first": scene.fritz.pk, "second": scene.gus.pk}
    )
    assert response.status_code == 200, response.content
    seats = response.json()["fixtures"][0]["seats"]
    assert [s["player"]["name"] for s in seats] == ["gus", "fritz", "hal"]


def test_a_swap_sent_twice_with_the_draft_it_saw_is_done_once(as_alice, scene):
    draft = as_alice.get(f"{scene.url}rounds/2/").json()["draft"]
    assert draft
    swap = {"first": scene.fritz.pk, "second": scene.gus.pk, "draft": draft}
    first = as_alice.post(f"{scene.url}rounds/2/swap/", swap)
    assert first.status_code == 200 and first.json()["draft"] != draft
    again = as_alice.post(f"{scene.url}rounds/2/swap/", swap)
    assert again.status_code == 400 and "changed since" in again.json()["detail"]
    seats = as_alice.get(f"{scene.url}rounds/2/").json()["fixtures"][0]["seats"]
    assert [s["player"]["name"] for s in seats] == ["gus", "fritz", "hal"]


def test_a_published_round_cannot_be_changed(as_alice, scene, bob):
    dora = scene.dora.player
    response = as_alice.post(
        f"{scene.url}rounds/1/swap/", {"first": bob.player.pk, "second": dora.pk}
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "only a draft round can be changed"}
    assert as_alice.delete(f"{scene.url}rounds/1/").status_code == 400


def test_a_swap_needs_two_player_ids(as_alice, scene):
    assert as_alice.post(f"{scene.url}rounds/2/swap/", {"first": "x"}).status_code == 400


def test_publishing_a_round_shows_it_to_everyone(as_alice, anonymous, scene):
    response = as_alice.post(f"{scene.url}rounds/2/publish/")
    assert response.status_code == 200
    assert response.json()["status"] == "published"
    assert anonymous.get(f"{scene.url}rounds/2/").status_code == 200
    again = as_alice.post(f"{scene.url}rounds/2/publish/")
    assert again.status_code == 400
    assert again.json() == {"detail": "round 2 is already published"}


def test_discarding_a_draft_round(as_alice, scene):
    assert as_alice.delete(f"{scene.url}rounds/2/").status_code == 204
    assert not Round.objects.filter(event=scene.event, number=2).exists()


def test_a_missing_round_is_404(as_alice, scene):
    assert as_alice.post(f"{scene.url}rounds/9/publish/").status_code == 404


def test_publishing_and_closing_the_event(as_alice, draft, anonymous):
    assert as_alice.post(f"/api/events/{draft.slug}/publish/").json()["visibility"] == "published"
    assert anonymous.get(f"/api/events/{draft.slug}/").status_code == 200
    assert as_alice.post(f"/api/events/{draft.slug}/close/").json()["status"] == "closed"
    refused = as_alice.post(f"/api/events/{draft.slug}/rounds/")
    assert refused.json() == {"detail": "this event is closed"}
