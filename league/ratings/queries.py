"""Read side of ratings for pages and the API: each function is a fixed number of queries."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from gameplay import api as gameplay
from league.models import Event, Player, Rating, RatingHistory
from league.ratings.chart import line_chart
from league.ratings.services import provisional_games

TREND_DAYS = 30


def leaderboard(
    game: str, *, club: str = "", country: str = "", provisional: bool | None = None
) -> QuerySet[Rating]:
    """The game's ratings, best first, with `trend` (change over the last 30 days) — one query.

    `provisional`: None for everybody, True / False for only those under / at or over
    `RATING_PROVISIONAL_GAMES` rated games.
    """
    since = timezone.now() - timedelta(days=TREND_DAYS)
    start = (
        RatingHistory.objects.filter(player_id=OuterRef("player_id"), game=game, at__gte=since)
        .order_by("at", "match_id")
        .values("ordinal_before")[:1]
    )
    ratings = (
        Rating.objects.filter(game=game)
        .select_related("player")
        .annotate(trend=F("ordinal") - Coalesce(Subquery(start), F("ordinal")))
        .order_by("-ordinal", "-mu", "player__name", "player_id")
    )
    if club:
        ratings = ratings.filter(player__club=club)
    if country:
        ratings = ratings.filter(player__country=country.upper())
    if provisional is True:
        ratings = ratings.filter(games__lt=provisional_games())
    elif provisional is False:
        ratings = ratings.filter(games__gte=provisional_games())
    return ratings


def filter_choices(game: str) -> tuple[list[str], list[str]]:
    """The clubs and countries of the game's rated players (one query)."""
    pairs = set(
        Rating.objects.filter(game=game).values_list("player__club", "player__country").distinct()
    )
    return sorted({c for c, _ in pairs if c}), sorted({c for _, c in pairs if c})


def match_link(row: dict[str, Any]) -> tuple[str, str]:
    """(label, url) of a rated match's record: its round page, or its friendly table."""
    if row["match__fixture_id"]:
        if row["match__fixture__round__event__visibility"] != Event.Visibility.PUBLISHED:
            return "an unpublished event", ""
        slug, number = (
            row["match__fixture__round__event__slug"],
            row["match__fixture__round__number"],
        )
        label = f"{row['match__fixture__round__event__name']} · round {number}"
        return label, reverse("league:round", args=[slug, number])
    ref = row["match__table_ref"]
    return "friendly table", reverse("gameplay:table", args=[ref])


HISTORY_FIELDS = (
    "match_id",
    "game",
    "at",
    "seat",
    "rank",
    "payout",
    "ordinal",
    "ordinal_before",
    "match__players",
    "match__ranks",
    "match__table_ref",
    "match__fixture_id",
    "match__fixture__round__number",
    "match__fixture__round__event__slug",
    "match__fixture__round__event__name",
    "match__fixture__round__event__visibility",
)


def player_rating_sections(
    player: Player, *, recent: int = 20, opponents: int = 10
) -> dict[str, Any]:
    """Everything the player page shows about ratings, in three queries: current ratings per
    game with a chart of their history, recent matches, head-to-head and seat statistics."""
    ratings = list(Rating.objects.filter(player=player).order_by("-games", "game"))
    rows = list(
        RatingHistory.objects.filter(player=player)
        .order_by("at", "match_id")
        .values(*HISTORY_FIELDS)
    )
    series: dict[str, list[float]] = defaultdict(list)
    meetings: Counter[int] = Counter()
    ahead: Counter[int] = Counter()
    behind: Counter[int] = Counter()
    seats: dict[tuple[str, int], dict[str, Any]] = {}
    for row in rows:
        line = series[row["game"]]
        if not line:  # the chart starts from the rating before the first match
            line.append(row["ordinal_before"])
        line.append(row["ordinal"])
        for seat, other in enumerate(row["match__players"]):
            if other == player.pk:
                continue
            meetings[other] += 1
            theirs = row["match__ranks"][seat]
            ahead[other] += row["rank"] < theirs
            behind[other] += row["rank"] > theirs
        stat = seats.setdefault(
            (row["game"], row["seat"]),
            {"game": row["game"], "seat": row["seat"], "matches": 0, "wins": 0, "places": 0,
             "payout": 0},
        )  # fmt: skip
        stat["matches"] += 1
        stat["wins"] += row["rank"] == 1
        stat["places"] += row["rank"]
        stat["payout"] += row["payout"]
    frequent = [pid for pid, _ in meetings.most_common(opponents)]
    latest = rows[-recent:][::-1]
    wanted = set(frequent) | {p for row in latest for p in row["match__players"]}
    names = {p.pk: p for p in Player.objects.filter(pk__in=wanted)} if wanted else {}
    threshold = provisional_games()
    game_names = dict(gameplay.game_choices())
    per_game = [
        {
            "rating": r,
            "game_name": game_names.get(r.game, r.game),
            "provisional": r.games < threshold,
            "chart": line_chart(series.get(r.game, [])),
        }
        for r in ratings
    ]
    matches = []
    for row in latest:
        label, url = match_link(row)
        matches.append(
            {
                **row,
                "game_name": game_names.get(row["game"], row["game"]),
                "label": label,
                "url": url,
                "delta": row["ordinal"] - row["ordinal_before"],
                "size": len(row["match__players"]),
                "opponents": [
                    names.get(p) for p in row["match__players"] if p != player.pk and p in names
                ],
            }
        )
    head_to_head = [
        {
            "opponent": names[pid],
            "meetings": meetings[pid],
            "ahead": ahead[pid],
            "behind": behind[pid],
            "level": meetings[pid] - ahead[pid] - behind[pid],
        }
        for pid in frequent
        if pid in names
    ]
    seat_stats = [
        {
            **stat,
            "game_name": game_names.get(stat["game"], stat["game"]),
            "win_rate": stat["wins"] / stat["matches"],
            "average_place": stat["places"] / stat["matches"],
            "average_payout": stat["payout"] / stat["matches"],
        }
        for _, stat in sorted(seats.items())
    ]
    return {
        "ratings": per_game,
        "recent_matches": matches,
        "head_to_head": head_to_head,
        "seat_stats": seat_stats,
    }
