"""What may change a rating: every path an ordinary account has to the ratings is closed.

The audit's attack: any logged-in account created an event through the API, entered rated
players by id, published a round and posted a score sheet — and the ratings counted it, even in
a draft event. Now only published events that an organizer holding the role runs are rated
(staff hold it), and the operator's friendly tables unless `--unrated`.

Personas: ben, cleo and dan have rated careers (three friendly tables); alice holds the
organizer role; charlie is an ordinary account; dave organized with the role until staff took it
away.
"""

from __future__ import annotations

import json
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from gameplay.models import Table
from league.models import Entry, Event, Fixture, Player, RatedMatch, Rating, Result, Round
from league.ratings import services
from tests.league.conftest import make_organizer
from tests.ratings.conftest import T0, expected_ratings, later

pytestmark = pytest.mark.django_db

GAME = "saichugen"
SHEET = {"deals": [{"scores": [35, 20, 20]}]}


def ratings_of(game: str = GAME) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(game=game)}


def revoke_role(user: Any) -> Any:
    """What staff do in the admin: take the organizer role away (returns the account afresh)."""
    role = Permission.objects.get(codename="organize_events", content_type__app_label="league")
    user.user_permissions.remove(role)
    return get_user_model().objects.get(pk=user.pk)


def api_client(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def careers(friendly, users) -> SimpleNamespace:
    """ben, cleo and dan after three rated friendly tables (ben: three games), a week and a
    day apart: each counts fully (no repeat weight, league.ratings.compute.repeat_weight)."""
    ben, cleo, dan = users(3, prefix="player-")
    matches = []
    week = 8 * 24 * 60
    for minutes, payouts in ((0, [4, -2, -2]), (week, [-2, 4, -2]), (2 * week, [4, -2, -2])):
        friendly([ben, cleo, dan], payouts, at=later(T0, minutes))
        matches.append((payouts, later(T0, minutes)))
    players = [Player.objects.get(user=u) for u in (ben, cleo, dan)]
    ids = [p.pk for p in players]
    return SimpleNamespace(
        users=[ben, cleo, dan],
        players=players,
        ben=players[0],
        matches=[(ids, payouts) for payouts, _ in matches],
    )


@pytest.fixture
def charlie(db) -> Any:
    """An ordinary account: no role, organizes nothing."""
    return get_user_model().objects.create_user("charlie", password="pw")


@pytest.fixture
def dave(db) -> Any:
    """An organizer with the role (staff take it away in the tests that need it)."""
    return make_organizer(get_user_model().objects.create_user("dave", password="pw"))


def untouched(careers: SimpleNamespace) -> bool:
    """The ratings are exactly the friendly careers': no event match counted."""
    return (
        ratings_of() == expected_ratings(careers.matches)
        and not RatedMatch.objects.filter(fixture__isnull=False).exists()
    )


def swept_and_recomputed_alike(careers: SimpleNamespace) -> bool:
    """The sweep and a full recomputation apply the same rule as the incremental path."""
    services.sweep_ratings(grace_seconds=0)
    swept = ratings_of()
    call_command("recompute_ratings", stdout=StringIO())
    return swept == ratings_of()


def event_match(slug: str) -> tuple[list[int], list[int]]:
    """The (players in seat order, payouts) of the event's one table, for expected_ratings."""
    fixture = Fixture.objects.get(round__event__slug=slug)
    players = [s.player_id for s in fixture.seats.order_by("number")]
    return players, fixture.results.get(current=True).scored["totals"]["payouts"]


# --- the API --------------------------------------------------------------------------------------


def api_event(client: APIClient, name: str, players: list[Player]) -> str:
    """Create an event, enter the players by id, plan and publish round 1; returns the slug."""
    created = client.post(
        "/api/events/",
        {"name": name, "game": GAME, "format": "league", "rounds": 1, "deals_per_match": 1,
         "play_online": False},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    if not players:
        return slug
    for player in players:
        entered = client.post(
            f"/api/events/{slug}/entries/",
            {"player_id": player.pk, "checked_in": True},
            format="json",
        )
        assert entered.status_code == 201, entered.content
    assert client.post(f"/api/events/{slug}/rounds/").status_code == 201
    # In a draft event publishing the round needs `publish_event: true` (409 without it)...
    assert client.post(f"/api/events/{slug}/rounds/1/publish/").status_code == 409
    publish_in_draft(slug)
    return slug


def publish_in_draft(slug: str) -> None:
    """...so a draft with a published round (and results) is what events made before that rule
    can be: the state whose results must wait for the event to be published."""
    Round.objects.filter(event__slug=slug, number=1).update(
        status=Round.Status.PUBLISHED, published_at=timezone.now()
    )


def api_sheet(client: APIClient, slug: str) -> Any:
    fixture = Fixture.objects.get(round__event__slug=slug)
    url = f"/api/events/{slug}/fixtures/{fixture.pk}/result/"
    return client.post(url, {"sheet": SHEET}, format="json")


def test_an_ordinary_account_cannot_create_an_event(careers, charlie):
    response = api_client(charlie).post(
        "/api/events/", {"name": "Ben's bad day", "game": GAME}, format="json"
    )
    assert response.status_code == 403
    assert not Event.objects.exists()
    assert untouched(careers)


def test_entering_existing_players_needs_the_role(careers, dave):
    client = api_client(dave)
    slug = api_event(client, "Dave's cup", [])  # made while dave held the role
    revoke_role(dave)
    for body in ({"player_id": careers.ben.pk}, {"player": careers.ben.name}):
        response = client.post(f"/api/events/{slug}/entries/", body, format="json")
        assert response.status_code == 403, body
        assert "organizer role" in response.json()["detail"]
    assert not Entry.objects.filter(player=careers.ben).exists()
    # Managing his own event he still may: a new name has no rating to reach.
    newcomer = client.post(f"/api/events/{slug}/entries/", {"player": "newcomer"}, format="json")
    assert newcomer.status_code == 201, newcomer.content


def test_a_score_sheet_for_an_event_one_does_not_manage_is_refused(
    careers, alice, charlie, django_capture_on_commit_callbacks
):
    slug = api_event(api_client(alice), "Alice's cup", careers.players)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_sheet(api_client(charlie), slug)
    assert response.status_code == 403
    assert not Result.objects.exists()
    assert untouched(careers)


def test_a_draft_events_results_are_not_rated(careers, alice, django_capture_on_commit_callbacks):
    client = api_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        slug = api_event(client, "Alice's draft", careers.players)
        assert api_sheet(client, slug).status_code == 201
    assert Event.objects.get(slug=slug).visibility == Event.Visibility.DRAFT
    assert untouched(careers)
    assert swept_and_recomputed_alike(careers) and untouched(careers)


def test_an_event_whose_only_organizer_lost_the_role_is_not_rated(
    careers, dave, django_capture_on_commit_callbacks
):
    client = api_client(dave)
    with django_capture_on_commit_callbacks(execute=True):
        slug = api_event(client, "Dave's cup", careers.players)
        assert client.post(f"/api/events/{slug}/publish/").status_code == 200
    revoke_role(dave)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_sheet(client, slug).status_code == 201  # he still runs his event
    assert untouched(careers)
    assert swept_and_recomputed_alike(careers) and untouched(careers)


def test_an_organizer_with_the_role_publishes_posts_and_it_is_rated(
    careers, alice, django_capture_on_commit_callbacks
):
    client = api_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        slug = api_event(client, "Alice's cup", careers.players)
        assert client.post(f"/api/events/{slug}/publish/").status_code == 200
        assert api_sheet(client, slug).status_code == 201
    assert Rating.objects.get(player=careers.ben, game=GAME).games == 4
    assert ratings_of() == expected_ratings([*careers.matches, event_match(slug)])
    assert swept_and_recomputed_alike(careers)
    assert ratings_of() == expected_ratings([*careers.matches, event_match(slug)])


def test_a_draft_events_results_are_rated_in_finish_order_once_it_is_published(
    careers, alice, friendly, django_capture_on_commit_callbacks
):
    client = api_client(alice)
    with django_capture_on_commit_callbacks(execute=True):
        slug = api_event(client, "Alice's draft", careers.players)
        assert api_sheet(client, slug).status_code == 201
    ids = [p.pk for p in careers.players]
    friendly(careers.users, [-2, -2, 4], at=later(timezone.now(), 60))
    afterwards = (ids, [-2, -2, 4])
    assert ratings_of() == expected_ratings([*careers.matches, afterwards])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/events/{slug}/publish/").status_code == 200
    # The draft's match finished before the later friendly: it is rated in its place.
    expected = expected_ratings([*careers.matches, event_match(slug), afterwards])
    assert ratings_of() == expected
    assert swept_and_recomputed_alike(careers)
    assert ratings_of() == expected


def test_taking_the_role_away_takes_the_events_matches_out_at_the_next_sweep(
    careers, dave, django_capture_on_commit_callbacks
):
    client = api_client(dave)
    with django_capture_on_commit_callbacks(execute=True):
        slug = api_event(client, "Dave's cup", careers.players)
        assert client.post(f"/api/events/{slug}/publish/").status_code == 200
        assert api_sheet(client, slug).status_code == 201
    assert not untouched(careers)
    revoke_role(dave)
    services.sweep_ratings(grace_seconds=0)
    assert untouched(careers)
    call_command("recompute_ratings", stdout=StringIO())
    assert untouched(careers)


# --- the organizer pages --------------------------------------------------------------------------

EVENT_FORM = {
    "game": GAME,
    "kind": "tournament",
    "format": "league",
    "rounds": 1,
    "deals_per_match": 1,
    "leftover": "bye",
    "bye_match_points": 1,
    "seconds_per_move": 60,
    "on_timeout": "default",
    "seed": 1,
    "variant__payout": "zero_sum",
}


def page_event(client: Any, name: str, players: list[Player]) -> str:
    """The same as `api_event`, through the organizer pages (players entered by name)."""
    created = client.post(reverse("league:event_create"), {**EVENT_FORM, "name": name})
    assert created.status_code == 302, created.content.decode()[:2000]
    slug = Event.objects.get(name=name).slug
    if not players:
        return slug
    for player in players:
        entered = client.post(
            reverse("league:entries", args=[slug]), {"player": player.name, "checked_in": "on"}
        )
        assert entered.status_code == 302
    assert client.post(reverse("league:round_generate", args=[slug])).status_code == 302
    asked = client.post(reverse("league:round_action", args=[slug, 1]), {"action": "publish"})
    assert asked.status_code == 200 and "publishes the event too" in asked.content.decode()
    publish_in_draft(slug)
    return slug


def page_sheet(client: Any, slug: str) -> Any:
    fixture = Fixture.objects.get(round__event__slug=slug)
    url = reverse("league:result", args=[slug, fixture.pk])
    return client.post(url, {"sheet_text": json.dumps(SHEET), "version": 0})


def test_the_create_page_refuses_an_ordinary_account(client, careers, charlie):
    client.force_login(charlie)
    assert client.get(reverse("league:event_create") + f"?game={GAME}").status_code == 403
    refused = client.post(reverse("league:event_create"), {**EVENT_FORM, "name": "Ben's day"})
    assert refused.status_code == 403
    assert not Event.objects.exists()
    assert "Create an event" not in client.get(reverse("league:events")).content.decode()


def test_the_entries_page_enters_existing_players_only_with_the_role(client, careers, dave):
    client.force_login(dave)
    slug = page_event(client, "Dave's cup", [])
    revoke_role(dave)
    url = reverse("league:entries", args=[slug])
    assert client.post(url, {"player": careers.ben.name, "checked_in": "on"}).status_code == 403
    assert not Entry.objects.filter(player=careers.ben).exists()
    assert client.post(url, {"player": "newcomer"}).status_code == 302
    assert Entry.objects.filter(event__slug=slug, player__name="newcomer").exists()


def test_the_result_page_refuses_an_ordinary_account(
    client, careers, alice, charlie, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    slug = page_event(client, "Alice's cup", careers.players)
    client.force_login(charlie)
    with django_capture_on_commit_callbacks(execute=True):
        assert page_sheet(client, slug).status_code == 403
    assert not Result.objects.exists()
    assert untouched(careers)


def test_through_the_pages_a_draft_is_rated_once_published_and_only_then(
    client, careers, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        slug = page_event(client, "Alice's draft", careers.players)
        assert page_sheet(client, slug).status_code == 302
    assert Result.objects.filter(fixture__round__event__slug=slug).exists()
    assert untouched(careers)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("league:event_publish", args=[slug]))
    assert ratings_of() == expected_ratings([*careers.matches, event_match(slug)])


def test_through_the_pages_a_role_taken_away_stops_the_rating(
    client, careers, dave, django_capture_on_commit_callbacks
):
    client.force_login(dave)
    with django_capture_on_commit_callbacks(execute=True):
        slug = page_event(client, "Dave's cup", careers.players)
        client.post(reverse("league:event_publish", args=[slug]))
    revoke_role(dave)
    with django_capture_on_commit_callbacks(execute=True):
        assert page_sheet(client, slug).status_code == 302
    assert untouched(careers)


# --- the operator's friendly tables ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_create_table_tables_are_rated_unless_unrated():
    def create(*extra: str) -> str:
        out = StringIO()
        call_command(
            "create_table",
            "--game=three_five_eight",
            "--players=Bot A,Bot B,Bot C",
            "--bots=3",
            *extra,
            stdout=out,
        )
        return json.loads(out.getvalue())["table"]

    rated = create()
    assert Table.objects.get(pk=rated).rated
    assert Table.objects.get(pk=rated).status == Table.Status.FINISHED  # the bots played it
    assert RatedMatch.objects.get(table_ref=rated).rated_at is not None
    assert Rating.objects.filter(game="three_five_eight", player__is_bot=True).count() == 3
    unrated = create("--unrated")
    assert not Table.objects.get(pk=unrated).rated
    assert not RatedMatch.objects.filter(table_ref=unrated).exists()
    assert set(Rating.objects.values_list("games", flat=True)) == {1}
