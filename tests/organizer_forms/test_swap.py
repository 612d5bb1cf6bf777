"""A draft round's swap offers the round's players by name (two selects, seats and byes), and
bad input is refused with a clear reason and changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from league.errors import LeagueError
from league.models import Fixture, Player, Round, Seat
from league.services import rounds as round_services
from tests.home.page import parse


def places(round_: Round) -> list[tuple[int, int, int]]:
    return sorted(
        Seat.objects.filter(fixture__round=round_).values_list(
            "fixture__number", "number", "player_id"
        )
    )


def page(client, scene):
    return client.get(reverse("league:round", args=[scene.slug, scene.draft.number])).content


def test_both_sides_offer_every_player_of_the_round_by_name(client, scene):
    client.force_login(scene.olga)
    html = parse(page(client, scene))
    names = {p.pk: p.name for p in Player.objects.all()}
    seated = {pid for _t, _s, pid in places(scene.draft)}
    for side in ("first", "second"):
        select = html.find(tag="select", name=side)
        options = [o for o in select.walk() if o.tag == "option" and o.attrs["value"]]
        assert {int(o.attrs["value"]) for o in options} == seated
        for option in options:
            assert option.text.startswith(names[int(option.attrs["value"])] + " (seat ")
    assert html.find(tag="input", name="first") is None  # no more typing ids


def test_a_swap_chosen_by_name_swaps_the_two(client, scene):
    client.force_login(scene.olga)
    html = page(client, scene).decode()
    draft = html.split('name="draft" value="')[1].split('"')[0]
    before = places(scene.draft)
    url = reverse("league:round_action", args=[scene.slug, scene.draft.number])
    data = {"action": "swap", "first": scene.fritz.pk, "second": scene.event.entries.get(
        player__name="pat").player_id, "draft": draft}  # fmt: skip
    response = client.post(url, data)
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Players swapped."]
    after = places(scene.draft)
    assert after != before
    where = {pid: (t, s) for t, s, pid in before}
    now = {pid: (t, s) for t, s, pid in after}
    assert now[scene.fritz.pk] == where[data["second"]]
    assert now[data["second"]] == where[scene.fritz.pk]


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("fritz", "fritz", "choose two different players (fritz is chosen twice)"),
        ("fritz", "ivy", "ivy is not in this round"),  # entered, but not in round 2
        ("fritz", "", "choose the two players to swap"),
        ("fritz", "x", "choose the two players to swap"),
        ("fritz", "-3", "choose two players of this round"),
        ("fritz", str(2**70), "choose two players of this round"),
    ],
)
def test_bad_input_is_refused_clearly_and_changes_nothing(client, scene, first, second, message):
    client.force_login(scene.olga)
    ids = {p.name: str(p.pk) for p in Player.objects.all()}
    before = places(scene.draft)
    url = reverse("league:round_action", args=[scene.slug, scene.draft.number])
    data = {"action": "swap", "first": ids.get(first, first), "second": ids.get(second, second)}
    response = client.post(url, data)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [message]
    assert places(scene.draft) == before


def test_a_published_rounds_tables_cannot_be_swapped(scene):
    a, b = (s.player_id for s in Seat.objects.filter(fixture__round=scene.first)[:2])
    with pytest.raises(LeagueError, match="only a draft round can be changed"):
        round_services.swap_players(scene.first, a, b, by=scene.olga)


def test_a_table_already_played_is_refused(scene):
    """Not reachable through a draft today; the service refuses it all the same."""
    table = scene.draft.fixtures.order_by("number").first()
    Fixture.objects.filter(pk=table.pk).update(table_ref="played-elsewhere")
    a = table.seats.first().player_id
    b = scene.draft.fixtures.order_by("number").last().seats.first().player_id
    before = places(scene.draft)
    with pytest.raises(LeagueError, match=f"table {table.number} has been played"):
        round_services.swap_players(scene.draft, a, b, by=scene.olga)
    assert places(scene.draft) == before
