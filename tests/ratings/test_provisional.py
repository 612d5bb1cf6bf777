"""A leaderboard row stays provisional until the player has played enough rated games AND met
enough distinct opponents (`RATING_PROVISIONAL_GAMES`, `RATING_PROVISIONAL_OPPONENTS`).

ann plays the same two bots again and again; ben meets a new person at every table.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.models import Player, Rating
from league.ratings.queries import leaderboard, player_rating_sections
from tests.ratings.conftest import T0, later

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def thresholds(settings):
    settings.RATING_PROVISIONAL_GAMES = 3
    settings.RATING_PROVISIONAL_OPPONENTS = 4


def rating_of(user) -> Rating:
    return Rating.objects.get(player__user=user, game="saichugen")


def test_many_games_against_the_same_opponents_stay_provisional(friendly, users):
    ann, ben, *others = users(6)
    for n in range(5):
        friendly([ann, "Bot A", "Bot B"], [4, -2, -2], at=later(T0, n))
    for n, other in enumerate(others):
        friendly([ben, other, "Bot A"], [4, -2, -2], at=later(T0, 10 + n))
    ann_r, ben_r = rating_of(ann), rating_of(ben)
    assert (ann_r.games, ann_r.opponents) == (5, 2)
    assert (ben_r.games, ben_r.opponents) == (4, 5)
    provisional = {r.player_id for r in leaderboard("saichugen", provisional=True)}
    established = {r.player_id for r in leaderboard("saichugen", provisional=False)}
    assert ann_r.player_id in provisional and ben_r.player_id in established
    assert not provisional & established
    assert provisional | established == set(Rating.objects.values_list("player_id", flat=True))


def test_meeting_new_opponents_ends_the_provisional_time(friendly, users):
    ann, *others = users(4)
    for n in range(3):
        friendly([ann, "Bot A", "Bot B"], [4, -2, -2], at=later(T0, n))
    assert rating_of(ann).opponents == 2
    friendly([ann, others[0], others[1]], [4, -2, -2], at=later(T0, 5))
    assert rating_of(ann).opponents == 4
    assert ann in {r.player.user for r in leaderboard("saichugen", provisional=False)}
    [section] = player_rating_sections(Player.objects.get(user=ann))["ratings"]
    assert section["provisional"] is False


def test_a_late_match_and_a_recompute_count_opponents_as_the_history_says(friendly, users):
    ann, ben, cid = users(3)
    friendly([ann, ben, "Bot A"], [4, -2, -2], at=later(T0, 10))
    friendly([ann, cid, "Bot B"], [4, -2, -2], at=later(T0, 5))  # finished earlier, told later
    counted = {r.player_id: r.opponents for r in Rating.objects.all()}
    assert rating_of(ann).opponents == 4
    call_command("recompute_ratings", "--game", "saichugen", stdout=StringIO())
    assert {r.player_id: r.opponents for r in Rating.objects.all()} == counted


def test_the_api_and_the_page_say_why_a_row_is_provisional(client, friendly, users):
    (ann,) = users(1)
    for n in range(3):
        friendly([ann, "Bot A", "Bot B"], [4, -2, -2], at=later(T0, n))
    rows = client.get("/api/ratings/saichugen/").json()["results"]
    mine = next(r for r in rows if r["player"] == "user0")
    assert (mine["games"], mine["opponents"], mine["provisional"]) == (3, 2, True)
    page = client.get(reverse("league:ratings", args=["saichugen"])).content.decode()
    assert "met fewer than 4 different opponents" in page


@pytest.mark.parametrize("people", [3, 12])
def test_the_leaderboard_split_costs_the_same_queries_whatever_its_size(
    client,
    friendly,
    users,
    people,
    django_assert_max_num_queries,
):
    everyone = users(people)
    for n, person in enumerate(everyone):
        friendly([person, everyone[n - 1], "Bot A"], [4, -2, -2], at=later(T0, n))
    with django_assert_max_num_queries(8):
        response = client.get(reverse("league:ratings", args=["saichugen"]))
    assert response.status_code == 200
