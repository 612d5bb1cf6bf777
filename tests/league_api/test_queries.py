"""Every list and detail endpoint reads a fixed number of queries, however big the event.

Each endpoint is pinned on a small world (1 round of 1 table) and a bigger one (3 rounds of 3
tables, more events and entries): the same ceiling must hold for both, so an N+1 fails here.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from league.models import Player
from league.services.standings import standings_rows
from tests.league_api.builders import client_of, enter, league_with, make_event, seat_round

pytestmark = pytest.mark.django_db

SIZES = [1, 3]


@pytest.fixture(params=SIZES, ids=lambda n: f"size{n}")
def world(request, alice) -> SimpleNamespace:
    size = request.param
    event = league_with(alice, rounds=size, tables=size)
    # A draft round on top (only Alice sees it), with a bye.
    extra = enter(event, [f"late-{n}" for n in range(3 * size + 1)])
    seat_round(
        event,
        [extra[t * 3 : (t + 1) * 3] for t in range(size)],
        byes=[extra[-1]],
        publish=False,
    )
    for n in range(size):  # more events to list, each with entries
        other = make_event(alice, f"Other {n}", published=n % 2 == 0)
        enter(other, [f"o{n}-{k}" for k in range(3)])
    standings_rows(event)  # the snapshot, as the Celery task leaves it after a result
    fixture = event.round_set.get(number=1).fixtures.first()
    return SimpleNamespace(
        size=size,
        event=event,
        url=f"/api/events/{event.slug}/",
        fixture=fixture,
        player=Player.objects.get(name=f"p{size}-00"),
    )


def items(response) -> int:
    """How many things the response holds (to show the bigger world really is bigger)."""
    body = response.json()
    return len(body["results"]) if "results" in body else 1


def read(client, url: str, ceiling: int, assert_max) -> object:
    with assert_max(ceiling):
        response = client.get(url)
    assert response.status_code == 200, response.content
    return response


# Ceilings for an anonymous reader. A logged-in reader adds two (session, user), and one more
# where organizers may see draft rounds (are they an organizer?).
PUBLIC = {
    "events/": 2,  # count, page
    "{event}": 1,
    "{event}entries/": 3,  # event, count, page
    "{event}rounds/": 7,  # event, count, rounds, fixtures, seats+players, results, byes
    "{event}rounds/1/": 6,
    "{event}fixtures/": 5,  # event, count, fixtures+rounds, seats+players, results
    "{event}fixtures/{fixture}/": 4,
    "{event}fixtures/{fixture}/record/": 3,  # event, fixture, result
    "{event}standings/": 2,  # event, snapshot
    "players/": 2,
    "players/{player}/": 4,  # player, totals, entries+events, history
}


@pytest.mark.parametrize("page", PUBLIC)
def test_public_pages_read_a_fixed_number_of_queries(
    anonymous, world, page, django_assert_max_num_queries
):
    url = "/api/" + page.format(
        event=world.url.removeprefix("/api/"), fixture=world.fixture.pk, player=world.player.pk
    )
    read(anonymous, url, PUBLIC[page], django_assert_max_num_queries)


ORGANIZER = {
    "events/": 2 + 2,
    "{event}rounds/": 7 + 3,
    "{event}fixtures/": 5 + 3,
    "{event}rounds/{draft}/": 6 + 3,
}


@pytest.mark.parametrize("page", ORGANIZER)
def test_organizer_pages_read_a_fixed_number_of_queries(
    alice, world, page, django_assert_max_num_queries
):
    url = "/api/" + page.format(event=world.url.removeprefix("/api/"), draft=world.size + 1)
    read(client_of(alice), url, ORGANIZER[page], django_assert_max_num_queries)


def test_the_bigger_world_is_bigger(anonymous, alice, world):
    """The pins above mean something only if the lists grow with the world."""
    as_alice = client_of(alice)
    rounds = as_alice.get(f"{world.url}rounds/").json()["results"]
    assert len(rounds) == world.size + 1
    assert sum(len(r["fixtures"]) for r in rounds) == world.size * world.size + world.size
    assert items(anonymous.get(f"{world.url}fixtures/")) == world.size * world.size
    assert items(anonymous.get(f"{world.url}standings/")) == 3 * world.size + 3 * world.size + 1
    history = anonymous.get(f"/api/players/{world.player.pk}/").json()["history"]
    assert len(history) == world.size
