"""Rating pages: the games' index and each game's leaderboard. Fixed number of queries."""

from __future__ import annotations

from operator import itemgetter
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django_countries.fields import Country

from accounts.collation import sorted_by_name
from games import catalogue
from league.models import Rating
from league.ratings.compute import MODEL_NAME
from league.ratings.queries import TREND_DAYS, filter_choices, leaderboard
from league.ratings.services import provisional_games, provisional_opponents

PAGE_SIZE = 50


def ratings_index(request: HttpRequest) -> HttpResponse:
    counts = dict(Rating.objects.values("game").annotate(n=Count("id")).values_list("game", "n"))
    games = [
        {"name": name, "display_name": display, "players": counts.get(name, 0)}
        for name, display in catalogue.game_choices()
    ]
    return render(request, "league/ratings_index.html", {"games": games})


def ratings_leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        info = catalogue.game(game)
    except KeyError:
        raise Http404("no such game") from None
    club = request.GET.get("club", "").strip()
    country = request.GET.get("country", "").strip().upper()
    established = Paginator(
        leaderboard(game, club=club, country=country, provisional=False), PAGE_SIZE
    ).get_page(request.GET.get("page"))
    provisional = Paginator(
        leaderboard(game, club=club, country=country, provisional=True), PAGE_SIZE
    ).get_page(request.GET.get("provisional_page"))
    clubs, codes = filter_choices(game)
    language = get_language()
    clubs = sorted_by_name(clubs, str, language)
    # (code, name): the names in the reader's language and alphabet (django-countries).
    countries = sorted_by_name(
        [(code, Country(code).name or code) for code in codes], itemgetter(1), language
    )
    query = {k: v for k, v in (("club", club), ("country", country)) if v}
    # Each pager's links keep the filters and the other list's page (omitted when it is 1).
    keep_provisional = {"provisional_page": provisional.number} if provisional.number > 1 else {}
    keep_established = {"page": established.number} if established.number > 1 else {}
    context = {
        "game": info,
        "established": established,
        "provisional": provisional,
        "rank_offset": established.start_index() - 1 if established.object_list else 0,
        "clubs": clubs,
        "countries": countries,
        "club": club,
        "country": country,
        "established_query": urlencode({**query, **keep_provisional}),
        "provisional_query": urlencode({**query, **keep_established}),
        "threshold": provisional_games(),
        "opponents_threshold": provisional_opponents(),
        "trend_days": TREND_DAYS,
        "model_name": MODEL_NAME,
    }
    return render(request, "league/ratings.html", context)
