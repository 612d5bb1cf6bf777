"""/api/tables/…: rematches over HTTP (docs/lobby.md, "Live"), what the lobby socket says live.

- `GET /api/tables/offers/`: the waiting rematches that keep a seat for you (`rematch_offered`);
- `POST /api/tables/<id>/rematch/`: offer (or accept) a rematch of a finished table;
- `POST /api/tables/<id>/decline/`: decline a rematch waiting for you (it is cancelled).

Accepting an offer is joining its table (`POST /api/tables/<new>/join/`). Thin over
`gameplay.services.lobby`, which authorizes every write; a seat token appears only in the
answer to its owner's own rematch, never in the list.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from gameplay.lobby_api import (
    DETAIL,
    NO_ACCOUNT,
    TABLES,
    LobbyAPIView,
    LobbyPagination,
    TableEntrySerializer,
    TableJoinedSerializer,
    seat_answer,
)
from gameplay.services import lobby


class OfferSerializer(TableEntrySerializer):
    of = serializers.CharField(help_text="the finished table it is a rematch of")
    by = serializers.ListField(
        child=serializers.CharField(), help_text="the people already seated at it"
    )
    seat = serializers.IntegerField(help_text="the seat kept for you")


class OfferListSerializer(serializers.Serializer):
    results = OfferSerializer(many=True)
    next = serializers.CharField(allow_null=True)


class RematchOffers(LobbyAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TABLES,
        summary="The rematches waiting for you (a seat kept for you)",
        operation_id="tables_offers",
        responses={200: OfferListSerializer, 401: NO_ACCOUNT, 403: NO_ACCOUNT},
    )
    def get(self, request: Request) -> Response:
        lobby.expire_waiting()
        tables = lobby.rematch_offers(request.user).prefetch_related("seats")
        rows, next_url = LobbyPagination().paginate(request, tables)
        results = []
        for table in rows:
            seats = sorted(table.seats.all(), key=lambda s: s.number)
            results.append(
                {
                    **lobby.entry(table),
                    "of": table.rematch_of_id,
                    "by": [s.name for s in seats if s.user_id is not None and not s.bot],
                    "seat": next(s.number for s in seats if s.reserved_for_id == request.user.pk),
                }
            )
        return Response({"results": results, "next": next_url})


class TableRematch(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="Offer a rematch of a finished table (or join the one offered)",
        operation_id="tables_rematch",
        request=None,
        responses={
            200: TableJoinedSerializer,
            401: NO_ACCOUNT,
            403: OpenApiResponse(description="you did not play at this table"),
            404: DETAIL,
            409: OpenApiResponse(description="the table has not finished, or is an event's"),
        },
    )
    def post(self, request: Request, table_id: str) -> Response:
        return seat_answer(lobby.rematch(request.user, table_id))


class TableDecline(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="Decline a rematch waiting for you: it is cancelled, its players are told",
        operation_id="tables_decline",
        request=None,
        responses={
            200: TableEntrySerializer,
            401: NO_ACCOUNT,
            403: OpenApiResponse(description="the rematch is not waiting for you"),
            404: DETAIL,
            409: OpenApiResponse(description="not a rematch, or it no longer waits"),
        },
    )
    def post(self, request: Request, table_id: str) -> Response:
        table = lobby.decline_rematch(request.user, table_id)
        return Response(lobby.entry(table))
