"""The home page costs a fixed number of queries, anonymous or logged in, however much it shows."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import catalogue
from league.ratings.services import provisional_games
from tests.home.builders import finish, friendly
from tests.home.conftest import enter_accounts, publish_next_round
from tests.home.page import parse
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

# Anonymous: running, upcoming and finished events (and the players of their podiums), the
# leaders, expiring waiting tables, tables in play and open tables with their seats. Logged in,
# besides: the session and the account, the next fixture with its seats, the last games
# (expiry, tables, seats).
ANONYMOUS_QUERIES = 10
PLAYER_QUERIES = 18  # with the header's bell (one count of unread notices)

_names = itertools.count()


def populate(alice, make_event, rate, bob, *, size: int) -> None:
    """`size` of everything the home page lists: ratings in every game (established and
    provisional), events under way and coming up, tables in play and open, bob's fixture and
    finished games."""
    people = [get_user_model().objects.create_user(f"person{next(_names)}") for _ in range(size)]
    for game in catalogue.games():
        for n in range(size):
            rate(f"{game.name} star {next(_names)}", game.name, 20.0 - n)
            rate(f"{game.name} new {next(_names)}", game.name, 5.0 - n, games=1)
    for _ in range(size):
        running = make_event(f"Running {next(_names)}")
        play_round(running, alice)
        make_event(f"Upcoming {next(_names)}")
        finished = make_event(f"Finished {next(_names)}", rounds=1)
        play_round(finished, alice)  # its only round: finished, with its podium
    for person, game in zip(people, itertools.cycle(catalogue.games())):
        friendly(person, game.name)
        friendly(person, game.name, open_seats=1)
        finish(friendly(bob, game.name), [1] + [0] * (game.seats - 1))
    event = make_event(f"Bob's club {next(_names)}", players=5)
    enter_accounts(event, alice, [bob])
    publish_next_round(event, alice)


def count(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    return len(queries)


def test_the_home_page_costs_the_same_queries_for_one_row_or_many(
    client, alice, bob, make_event, rate
):
    populate(alice, make_event, rate, bob, size=1)
    anonymous_few = count(client)
    client.force_login(bob)
    player_few = count(client)
    client.logout()

    populate(alice, make_event, rate, bob, size=6)
    assert count(client) == anonymous_few
    client.force_login(bob)
    assert count(client) == player_few


def test_the_home_page_query_counts_are_pinned(
    client, alice, bob, make_event, rate, django_assert_max_num_queries
):
    populate(alice, make_event, rate, bob, size=6)
    with django_assert_max_num_queries(ANONYMOUS_QUERIES):
        page = client.get("/")
    assert page.content.count(b'class="card game-card"') == len(catalogue.games())
    assert page.content.count(b"star") >= 5 * len(catalogue.games())  # the leaders are there
    assert len(parse(page.content).find(id="finished-events").find_all("ol")) == 5  # podiums
    client.force_login(bob)
    with django_assert_max_num_queries(PLAYER_QUERIES):
        page = client.get("/")
    assert b'id="next-fixture"' in page.content
    assert len(parse(page.content).find(id="last-games").find_all("li")) == 5  # at most five
    assert provisional_games() > 1  # the "new" ratings are provisional
