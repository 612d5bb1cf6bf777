"""/api/ratings/<game>/ (the leaderboard as exact floats) and /api/players/<id>/ratings/.

`model` names the openskill class used with its default parameters, so anyone can recompute a
rating from the history: start at `model().rating()`, rate each match's players (one-person
teams, in seat order) with `ranks` = finishing places by total payout.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from games import catalogue
from league.api.views import LeagueAPIMixin
from league.models import Player, Rating, RatingHistory
from league.ratings.compute import MODEL_NAME
from league.ratings.queries import leaderboard
from league.ratings.services import is_provisional


class RatingsPagination(PageNumberPagination):
    """The usual page, plus the name of the rating model."""

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        response.data = {"model": MODEL_NAME, **response.data}
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"] = {
            "model": {"type": "string", "example": MODEL_NAME},
            **paginated["properties"],
        }
        paginated["required"] = ["model", *paginated.get("required", [])]
        return paginated


class LeaderboardRowSerializer(serializers.Serializer):
    player = serializers.CharField(source="player.name")
    player_id = serializers.IntegerField()
    is_bot = serializers.BooleanField(source="player.is_bot")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 * sigma, the displayed rating")
    games = serializers.IntegerField()
    opponents = serializers.IntegerField(help_text="distinct players met in rated games")
    provisional = serializers.SerializerMethodField(
        help_text="too few rated games or too few distinct opponents yet"
    )
    trend = serializers.FloatField(help_text="change of the ordinal over the last 30 days")

    def get_provisional(self, rating: Rating) -> bool:
        return is_provisional(rating)


class RatingChangeSerializer(serializers.Serializer):
    """The player's rating right after one match (newest first)."""

    game = serializers.CharField()
    at = serializers.DateTimeField(help_text="when the match finished")
    match_id = serializers.IntegerField()
    fixture_id = serializers.IntegerField(source="match.fixture_id", allow_null=True)
    table_ref = serializers.CharField(source="match.table_ref")
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="finishing place, 1 = best; ties share a place")
    payout = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    ordinal_before = serializers.FloatField()
    games = serializers.IntegerField(help_text="rated games in this game so far")
    weight = serializers.FloatField(
        source="match.weight",
        help_text="the share of openskill's change this match made: 1, or 1/2, 1/4, … for the "
        "same accounts' repeated friendly tables (docs/ratings.md)",
    )


@extend_schema(
    parameters=[
        OpenApiParameter("club", str, description="only players of this club"),
        OpenApiParameter("country", str, description="only players of this country (ISO code)"),
    ]
)
class GameRatings(LeagueAPIMixin, generics.ListAPIView):
    """Every rated player of a game, best first, provisional ones included (flagged)."""

    serializer_class = LeaderboardRowSerializer
    pagination_class = RatingsPagination

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return Rating.objects.none()
        game = self.kwargs["game"]
        try:
            catalogue.game(game)
        except KeyError:
            raise Http404("no such game") from None
        params = self.request.query_params
        return leaderboard(
            game, club=params.get("club", "").strip(), country=params.get("country", "").strip()
        )


@extend_schema(parameters=[OpenApiParameter("game", str, description="only this game")])
class PlayerRatings(LeagueAPIMixin, generics.ListAPIView):
    """A player's rating history: their rating after every rated match, newest first."""

    serializer_class = RatingChangeSerializer
    pagination_class = RatingsPagination

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return RatingHistory.objects.none()
        player = get_object_or_404(Player, pk=self.kwargs["player_id"])
        history = (
            RatingHistory.objects.filter(player=player)
            .select_related("match")
            .defer("match__players", "match__payouts", "match__ranks", "match__forfeited_seats")
            .order_by("-at", "-match_id")
        )
        game = self.request.query_params.get("game", "").strip()
        return history.filter(game=game) if game else history
