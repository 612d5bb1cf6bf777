"""The leaderboard, the player page and the ratings API: content, filters, fixed query counts."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Player, RatedMatch, Rating, RatingHistory
from tests.ratings.conftest import T0, later

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_games_make_a_regular(settings):
    settings.RATING_PROVISIONAL_GAMES = 2
    settings.RATING_PROVISIONAL_OPPONENTS = 2  # everyone but the last two meets two or more


def grow(friendly, users, n: int, prefix: str = "p") -> list[Player]:
    """n players (with accounts) and a built-in bot: everyone but the last two plays twice or
    more; the last two play once (provisional)."""
    people = users(n, prefix)
    for i in range(n - 2):
        a, b = people[i], people[(i + 1) % (n - 2)]
        friendly([a, b, "Bot A"], [4, -2, -2], at=later(T0, -60 + i))
        friendly([b, a, "Bot A"], [3, 0, -3], at=later(T0, -30 + i))
    friendly([people[-2], people[-1], "Bot A"], [1, 1, -2], at=later(T0, -1))
    return [Player.objects.get(user=u) for u in people]


# --- the leaderboard ------------------------------------------------------------------------------


def test_the_leaderboard_lists_regulars_by_rating_and_provisional_players_apart(
    client, friendly, users
):
    players = grow(friendly, users, 6)
    with time_machine.travel(T0, tick=False):
        response = client.get(reverse("league:ratings", args=["saichugen"]))
    assert response.status_code == 200
    established = list(response.context["established"])
    provisional = list(response.context["provisional"])
    assert [r.ordinal for r in established] == sorted(
        (r.ordinal for r in established), reverse=True
    )
    assert {r.player for r in provisional} == set(players[-2:])
    assert all(r.games >= 2 for r in established)
    assert any(r.player.is_bot for r in established)
    page = response.content.decode()
    assert "🤖" in page
    assert page.index("Provisional") > page.index(established[-1].player.name)


def test_the_leaderboard_filters_by_club_and_country(client, friendly, users):
    players = grow(friendly, users, 6)
    Player.objects.filter(pk=players[0].pk).update(club="Circolo Bari", country="IT")
    Player.objects.filter(pk=players[1].pk).update(club="Circolo Bari", country="CH")
    url = reverse("league:ratings", args=["saichugen"])
    by_club = client.get(url, {"club": "Circolo Bari"}).context["established"]
    assert {r.player_id for r in by_club} == {players[0].pk, players[1].pk}
    by_country = client.get(url, {"country": "it"}).context["established"]
    assert [r.player_id for r in by_country] == [players[0].pk]


def test_the_trend_is_the_change_over_the_last_30_days(client, friendly, users):
    ann, ben = users(2)
    friendly([ann, ben, "Bot A"], [4, -2, -2], at=later(T0, -60 * 24 * 40))  # 40 days ago
    friendly([ann, ben, "Bot A"], [4, -2, -2], at=later(T0, -60 * 24 * 5))  # 5 days ago
    ann_p = Player.objects.get(user=ann)
    old, recent = RatingHistory.objects.filter(player=ann_p).order_by("at")
    with time_machine.travel(T0, tick=False):
        rows = client.get(reverse("league:ratings", args=["saichugen"])).context["established"]
    row = next(r for r in rows if r.player_id == ann_p.pk)
    assert row.trend == pytest.approx(recent.ordinal - old.ordinal)
    with time_machine.travel(later(T0, 60 * 24 * 60), tick=False):  # two months on: no change
        rows = client.get(reverse("league:ratings", args=["saichugen"])).context["established"]
    assert next(r for r in rows if r.player_id == ann_p.pk).trend == 0


def test_the_leaderboard_is_paginated(client, friendly, users, monkeypatch):
    from league.pages import leaderboards

    monkeypatch.setattr(leaderboards, "PAGE_SIZE", 2)
    grow(friendly, users, 6)
    url = reverse("league:ratings", args=["saichugen"])
    first = client.get(url).context["established"]
    second = client.get(url, {"page": 2}).context["established"]
    assert len(first) == 2 and first.has_next()
    assert second.start_index() == 3
    assert not {r.pk for r in first} & {r.pk for r in second}


def pager_links(page: str) -> list[dict[str, list[str]]]:
    """The query of every link in each `<p class="pager">`, pager by pager."""
    return [
        [parse_qs(unescape(href)) for href in re.findall(r'href="\?([^"]*)"', pager)]
        for pager in re.findall(r'<p class="pager">(.*?)</p>', page, re.S)
    ]


def test_each_leaderboard_pager_keeps_the_filters_and_the_other_pagers_page(
    client, friendly, users, monkeypatch
):
    from league.pages import leaderboards

    monkeypatch.setattr(leaderboards, "PAGE_SIZE", 1)
    grow(friendly, users, 6)  # 5 regulars (4 people and the bot), 2 provisional players
    Player.objects.update(club="Circolo Bari", country="IT")
    url = reverse("league:ratings", args=["saichugen"])
    filters = {"club": ["Circolo Bari"], "country": ["IT"]}

    response = client.get(
        url, {"club": "Circolo Bari", "country": "it", "page": 2, "provisional_page": 2}
    )
    established, provisional = pager_links(response.content.decode())
    assert established == [
        {**filters, "provisional_page": ["2"], "page": ["1"]},
        {**filters, "provisional_page": ["2"], "page": ["3"]},
    ]
    assert provisional == [{**filters, "page": ["2"], "provisional_page": ["1"]}]
    # Following a link turns one pager and leaves the other where it was.
    followed = client.get(url, {k: v[0] for k, v in established[1].items()})
    assert followed.context["established"].number == 3
    assert followed.context["provisional"].number == 2

    # On the first page a list needs no `page` in the other's links.
    response = client.get(url, {"provisional_page": 2})
    established, provisional = pager_links(response.content.decode())
    assert established == [{"provisional_page": ["2"], "page": ["2"]}]
    assert provisional == [{"provisional_page": ["1"]}]


def test_an_unknown_game_has_no_leaderboard(client):
    assert client.get(reverse("league:ratings", args=["chess"])).status_code == 404
    assert client.get("/api/ratings/chess/").status_code == 404


@pytest.mark.parametrize("size", [5, 14])
def test_rating_pages_use_a_fixed_number_of_queries(
    client, friendly, users, size, django_assert_max_num_queries
):
    players = grow(friendly, users, size)
    # (url, queries): counts + pages of the two lists, filter choices; the player page's 5
    # queries of its own plus 5 for ratings (ratings, recent history, seat statistics,
    # head-to-head, opponents' names) and 1 for the accuracy of its analysed games.
    urls = [
        (reverse("league:ratings_index"), 1),
        (reverse("league:ratings", args=["saichugen"]), 5),
        (reverse("league:ratings", args=["saichugen"]) + "?club=x&country=IT&page=2", 5),
        (reverse("league:player", args=[players[0].pk]), 11),
        (reverse("league:player", args=[Player.objects.get(name="Bot A").pk]), 11),
        ("/api/ratings/saichugen/", 2),
        (f"/api/players/{players[0].pk}/ratings/", 3),
    ]
    for url, queries in urls:
        with django_assert_max_num_queries(queries):
            response = client.get(url)
        assert response.status_code == 200, url


# --- the player page ------------------------------------------------------------------------------


def test_the_player_page_shows_ratings_matches_opponents_and_seats(
    client, friendly, users, make_event, alice, django_capture_on_commit_callbacks
):
    from tests.league.conftest import play_round

    ann, ben = users(2)
    ref = friendly([ann, ben, "Bot A"], [4, -2, -2])
    friendly([ben, ann, "Bot A"], [3, 0, -3])
    event = make_event("saichugen", players=6)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, alice)
    ann_p = Player.objects.get(user=ann)
    response = client.get(reverse("league:player", args=[ann_p.pk]))
    page = response.content.decode()
    assert "<svg" in page and "<polyline" in page
    assert f'href="/tables/{ref}/"' in page
    [saichugen] = response.context["ratings"]
    assert saichugen["rating"].games == 2 and saichugen["provisional"] is False
    assert saichugen["chart"].matches == 2
    h2h = response.context["head_to_head"]
    [h2h_ben, h2h_bot] = sorted(h2h, key=lambda h: h["opponent"].is_bot)
    assert (h2h_ben["meetings"], h2h_ben["ahead"], h2h_ben["behind"]) == (2, 1, 1)
    assert h2h_bot["opponent"].is_bot
    seats = {(s["seat"], s["matches"], s["wins"]) for s in response.context["seat_stats"]}
    assert seats == {(0, 1, 1), (1, 1, 0)}

    entrant = event.entries.first().player
    response = client.get(reverse("league:player", args=[entrant.pk]))
    page = response.content.decode()
    assert f'href="/events/{event.slug}/rounds/1/"' in page
    [row] = response.context["events"]
    assert row["position"]["of"] == 6


def test_a_long_career_is_read_in_bounded_rows_and_a_fixed_number_of_queries(
    client, friendly, users, monkeypatch, without_fair_play_flags
):
    from league.ratings import chart, queries

    # The real bound draws every point it reads: no thinning on top of it.
    assert queries.CHART_MATCHES + 1 <= chart.MAX_POINTS
    monkeypatch.setattr(queries, "CHART_MATCHES", 8)
    monkeypatch.setattr(queries, "RECENT_MATCHES", 5)
    ann, ben, cid, dan = users(4)
    friendly([ann, ben, "Bot A"], [4, -2, -2], at=later(T0, -1000))
    ann_p = Player.objects.get(user=ann)
    url = reverse("league:player", args=[ann_p.pk])
    with CaptureQueriesContext(connection) as short_career:
        client.get(url)

    for i in range(29):  # 30 Saichugen matches and 12 of Mediatore: more than the bound
        friendly([ann, ben, "Bot A"], [4, -2, -2] if i % 3 else [-2, 4, -2], at=later(T0, i))
    for i in range(12):
        payouts = [36, 36, -36, -36] if i % 2 else [-36, 36, 36, -36]
        friendly([ann, ben, cid, dan], payouts, game="mediatore", at=later(T0, 100 + i))
    assert RatingHistory.objects.filter(player=ann_p).count() == 42

    rows = queries.recent_history(ann_p, 8)
    assert "ROW_NUMBER" in str(rows.query)  # cut in SQL, not after loading every row
    assert len(rows) == 8 + 8
    with CaptureQueriesContext(connection) as long_career:
        response = client.get(url)
    assert response.status_code == 200
    assert len(long_career) == len(short_career)

    for section in response.context["ratings"]:
        rating = section["rating"]
        history = RatingHistory.objects.filter(player=ann_p, game=rating.game).order_by("at")
        ordinals = [h.ordinal for h in history]
        # The last 8 matches, from the rating before the first of them to the current one.
        assert section["series"] == [ordinals[-9], *ordinals[-8:]]
        assert section["series"][-1] == rating.ordinal
        assert section["chart"].matches == 8
    assert [s["rating"].games for s in response.context["ratings"]] == [30, 12]
    page = response.content.decode()
    assert "The last 8 of 30 rated games." in page and "The last 8 of 12 rated games." in page

    newest = RatingHistory.objects.filter(player=ann_p).order_by("-at")[:5]
    assert [m["match_id"] for m in response.context["recent_matches"]] == [
        h.match_id for h in newest
    ]
    # Head-to-head and seats still count the whole career.
    h2h = {h["opponent"].name: h["meetings"] for h in response.context["head_to_head"]}
    assert h2h[ben.username] == 42 and h2h["Bot A"] == 30 and h2h[cid.username] == 12
    assert sum(s["matches"] for s in response.context["seat_stats"]) == 42


# --- the API --------------------------------------------------------------------------------------


def test_the_ratings_api_lists_everyone_with_exact_floats(client, friendly, users):
    players = grow(friendly, users, 6)
    body = client.get("/api/ratings/saichugen/").json()
    assert body["model"] == "PlackettLuce"
    assert body["count"] == Rating.objects.filter(game="saichugen").count() == 7
    assert body["next"] is None
    first = body["results"][0]
    assert set(first) >= {"player", "player_id", "mu", "sigma", "ordinal", "games", "provisional"}
    for row in body["results"]:
        rating = Rating.objects.get(player_id=row["player_id"], game="saichugen")
        assert (row["mu"], row["sigma"], row["ordinal"]) == (
            rating.mu,
            rating.sigma,
            rating.ordinal,
        )
    provisional = {r["player_id"] for r in body["results"] if r["provisional"]}
    assert provisional == {players[-2].pk, players[-1].pk}


def test_the_ratings_api_is_paginated_with_next(client, friendly, users, monkeypatch):
    from league.api.ratings import RatingsPagination

    monkeypatch.setattr(RatingsPagination, "page_size", 3)
    grow(friendly, users, 6)
    body = client.get("/api/ratings/saichugen/").json()
    assert len(body["results"]) == 3 and body["next"]
    assert client.get(body["next"]).json()["model"] == "PlackettLuce"


def test_a_players_rating_history_newest_first(client, friendly, users):
    ann, ben, cid, dan = users(4)
    ref = friendly([ann, ben, cid], [4, -2, -2], at=T0)
    friendly([ann, ben, cid], [-2, 4, -2], at=later(T0, 1))
    friendly([ann, ben, cid, dan], [36, 36, -36, -36], game="mediatore", at=later(T0, 2))
    player = Player.objects.get(user=ann)
    body = client.get(f"/api/players/{player.pk}/ratings/").json()
    assert body["model"] == "PlackettLuce" and body["count"] == 3
    assert [r["game"] for r in body["results"]] == ["mediatore", "saichugen", "saichugen"]
    oldest = body["results"][-1]
    assert oldest["table_ref"] == ref and oldest["rank"] == 1 and oldest["games"] == 1
    # The same three accounts a minute later: that table moved them half of openskill's way.
    assert (oldest["weight"], body["results"][1]["weight"]) == (1, 0.5)
    last = RatingHistory.objects.filter(player=player, game="saichugen").order_by("at").last()
    assert body["results"][1]["mu"] == last.mu
    only = client.get(f"/api/players/{player.pk}/ratings/", {"game": "mediatore"}).json()
    assert only["count"] == 1
    assert client.get("/api/players/999999/ratings/").status_code == 404
    assert RatedMatch.objects.count() == 3
