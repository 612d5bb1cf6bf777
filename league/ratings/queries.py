"""Read side of ratings for pages and the API: each function is a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import Any

from django.db.models import Count, F, Min, OuterRef, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Coalesce, RowNumber
from django.urls import reverse
from django.utils import timezone

from games import catalogue
from league.models import Event, Player, Rating, RatingHistory
from league.ratings.chart import MAX_POINTS, line_chart
from league.ratings.services import established, is_provisional

TREND_DAYS = 30


def leaderboard(
    game: str, *, club: str = "", country: str = "", provisional: bool | None = None
) -> QuerySet[Rating]:
    """The game's ratings, best first, with `trend` (change over the last 30 days) — one query.

    `provisional`: None for everybody, True / False for only the provisional / established
    ones (`established`: enough rated games and enough distinct opponents, both stored on the
    row, so the split costs no join).
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
        ratings = ratings.exclude(established())
    elif provisional is False:
        ratings = ratings.filter(established())
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


# The player page reads at most this many of a player's most recent rated matches per game (the
# chart) and this many overall (the recent-matches table); read at call time so tests can lower it.
CHART_MATCHES = MAX_POINTS - 1  # plus the rating before the first of them: never thinned
RECENT_MATCHES = 20
HEAD_TO_HEAD = 10


def recent_history(player: Player, per_game: int) -> QuerySet[RatingHistory, dict[str, Any]]:
    """The player's `per_game` most recent history rows in each game, oldest first, as
    `HISTORY_FIELDS` dicts — one query whose row count is bounded in SQL (a ROW_NUMBER window
    per game, filtered in the database), however long the career."""
    newest_first = Window(
        RowNumber(), partition_by=[F("game")], order_by=[F("at").desc(), F("match_id").desc()]
    )
    return (
        RatingHistory.objects.filter(player=player)
        .annotate(recency=newest_first)
        .filter(recency__lte=per_game)
        .order_by("at", "match_id")
        .values(*HISTORY_FIELDS)
    )


def player_rating_sections(player: Player) -> dict[str, Any]:
    """Everything the player page shows about ratings, in five queries whose rows are bounded
    whatever the length of the player's career: current ratings per game with a chart, recent
    matches, seat statistics, head-to-head, the opponents' names.

    The chart shows each game's `CHART_MATCHES` most recent matches (and the rating before the
    first of them), not a downsample of the whole career: it is exact for the form a reader
    looks at, its last point is the current rating, and SQL can cut it with one window
    function. A downsample keeping the first, last, lowest and highest points would need
    per-bucket aggregates in SQL, or every row loaded to pick them in Python. The whole
    history stays readable, paginated, at `/api/players/<id>/ratings/`. Seat statistics and
    head-to-head cover the whole career, aggregated in the database.
    """
    chart_size, recent = CHART_MATCHES, RECENT_MATCHES
    ratings = list(Rating.objects.filter(player=player).order_by("-games", "game"))
    # The `recent` most recent matches overall are among the `recent` most recent of their
    # game, so one bounded read serves both the charts and the table.
    rows = list(recent_history(player, max(chart_size, recent)))
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_game[row["game"]].append(row)
    series: dict[str, list[float]] = {}
    for game, game_rows in by_game.items():
        shown = game_rows[-chart_size:]  # the chart starts from the rating before the first
        series[game] = [shown[0]["ordinal_before"], *(row["ordinal"] for row in shown)]
    seats = list(
        RatingHistory.objects.filter(player=player)
        .values("game", "seat")
        .annotate(
            matches=Count("id"),
            wins=Count("id", filter=Q(rank=1)),
            places=Sum("rank"),
            payout=Sum("payout"),
        )
        .order_by("game", "seat")
    )
    # Every other history row of the player's matches, against the player's own row of the
    # same match (the filter's join is the one the annotations compare with).
    together = (
        RatingHistory.objects.filter(match__changes__player=player)
        .exclude(player=player)
        .values("player_id")
        .annotate(
            meetings=Count("id"),
            ahead=Count("id", filter=Q(match__changes__rank__lt=F("rank"))),
            behind=Count("id", filter=Q(match__changes__rank__gt=F("rank"))),
            first=Min("at"),
        )
        .order_by("-meetings", "first", "player_id")[:HEAD_TO_HEAD]
    )
    frequent = list(together)
    latest = rows[-recent:][::-1]
    wanted = {h["player_id"] for h in frequent}
    wanted |= {p for row in latest for p in row["match__players"]}
    names = {p.pk: p for p in Player.objects.filter(pk__in=wanted)} if wanted else {}
    game_names = dict(catalogue.game_choices())
    per_game = [
        {
            "rating": r,
            "game_name": game_names.get(r.game, r.game),
            "provisional": is_provisional(r),
            "series": series.get(r.game, []),
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
            "opponent": names[h["player_id"]],
            "meetings": h["meetings"],
            "ahead": h["ahead"],
            "behind": h["behind"],
            "level": h["meetings"] - h["ahead"] - h["behind"],
        }
        for h in frequent
        if h["player_id"] in names
    ]
    seat_stats = [
        {
            **stat,
            "game_name": game_names.get(stat["game"], stat["game"]),
            "win_rate": stat["wins"] / stat["matches"],
            "average_place": stat["places"] / stat["matches"],
            "average_payout": stat["payout"] / stat["matches"],
        }
        for stat in seats
    ]
    return {
        "ratings": per_game,
        "recent_matches": matches,
        "head_to_head": head_to_head,
        "seat_stats": seat_stats,
    }
