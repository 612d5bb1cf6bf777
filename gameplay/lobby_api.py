"""/api/tables/…: friendly tables over HTTP (lobby-api.md, "Tables"), for scripts and bots.

Thin views over `gameplay.services.lobby`, which checks every write; a `LobbyError` becomes its
status with `{"detail": message}` and nothing changed. Authentication is the API's usual (HTTP
Basic, `Authorization: Token <key>`, the session), and so are the write throttles. A seat token
appears only in the answer to its owner's own create or join, never in a list or an entry.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import BasePagination
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView, exception_handler

from config.rest import JSONParser
from gameplay.models import Table
from gameplay.paces import PACES
from gameplay.services import lobby, turn_timeouts
from games import bots as bot_registry

# Keyword arguments of `lobby.create_friendly`, as the request body names them.
CREATE_FIELDS = (
    "game",
    "variant",
    "deals",
    "bots",
    "bot_level",
    "seconds_per_move",
    "pace",
    "rated",
    "spectators",
    "private",
    "seats",
)
NULL_MEANS_DEFAULT = ("variant", "deals", "seconds_per_move", "pace", "seats")


def lobby_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """A `LobbyError` answers its own status and message; the rest as DRF does."""
    if isinstance(exc, lobby.LobbyError):
        return Response({"detail": exc.detail}, status=exc.status)
    return exception_handler(exc, context)


class ReadOrAuthenticated(BasePermission):
    """Anyone reads; writing (create, join, leave) needs an account."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


class LobbyPagination(BasePagination):
    """`{"results": [...], "next": url | null}` by `?page=N` (lobby-api.md), without a count:
    one row past the page tells whether there is a next one."""

    page_query_param = "page"

    def paginate(self, request: Request, tables: Any) -> tuple[list[Table], str | None]:
        raw = request.query_params.get(self.page_query_param, "1")
        if not raw.isdigit() or not 0 < int(raw) < 10**9:
            raise lobby.LobbyError(400, gettext("page must be a positive whole number."))
        page = int(raw)
        size = int(settings.REST_FRAMEWORK.get("PAGE_SIZE") or 50)
        rows = list(tables[(page - 1) * size : page * size + 1])
        next_url = None
        if len(rows) > size:
            next_url = replace_query_param(
                request.build_absolute_uri(), self.page_query_param, page + 1
            )
        return rows[:size], next_url


class LobbyAPIView(APIView):
    permission_classes = [ReadOrAuthenticated]
    parser_classes = [JSONParser]

    def get_exception_handler(self) -> Any:
        return lobby_exception_handler


def _secret(response: Response) -> Response:
    """An answer with a seat token: no cache keeps a copy."""
    response["Cache-Control"] = "no-store"
    return response


def seat_answer(joined: lobby.Joined) -> Response:
    """A seat taken (join, rematch): the table, the seat and its token, for its owner only."""
    body = {
        "table": joined.table.id,
        "seat": joined.seat,
        "token": joined.token,
        "status": joined.table.status,
    }
    return _secret(Response(body))


# --- the schema's shapes (documentation; the services build the answers) ---------------------


class TableCreateSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="a registered game, e.g. schieberamsch")
    variant = serializers.DictField(required=False, help_text="flags; default the game's")
    deals = serializers.IntegerField(
        required=False, min_value=1, max_value=lobby.MAX_DEALS, help_text="default: the seats"
    )
    bots = serializers.IntegerField(required=False, min_value=0, help_text="at most seats - 1")
    bot_level = serializers.CharField(
        required=False,
        default=bot_registry.DEFAULT_LEVEL,
        help_text="a level the game's bots have (docs/bots.md); a casual level's bots make "
        "the table casual",
    )
    seconds_per_move = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=lobby.MAX_SECONDS_PER_MOVE,
        help_text="default 30 when rated, 0 (no clock) when casual; rated needs a clock",
    )
    pace = serializers.ChoiceField(
        choices=list(PACES.names()),
        required=False,
        help_text="the clock by name (relaxed 90 s, normal 45 s, fast 20 s a move); with "
        "seconds_per_move as well they must agree",
    )
    rated = serializers.BooleanField(required=False, default=True)
    spectators = serializers.BooleanField(required=False, default=True)
    private = serializers.BooleanField(required=False, default=False)
    seats = serializers.IntegerField(
        required=False,
        help_text="4 seats a three-player game at a table of four, where the dealer sits out "
        "each deal (deals then a multiple of 4); default the game's own number",
    )


class TableCreatedSerializer(serializers.Serializer):
    table = serializers.CharField()
    url = serializers.CharField(help_text="the table page")
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="your seat token (table-protocol.md): keep it secret")
    status = serializers.CharField(help_text="waiting, or playing when no seat was open")
    invite = serializers.CharField(help_text="the invitation page (joins after a confirmation)")


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="null: open (or reserved)")
    bot = serializers.BooleanField()
    guest = serializers.BooleanField(
        help_text="a guest sits here (docs/accounts.md, Guests): the table is then unrated"
    )


class TableEntrySerializer(serializers.Serializer):
    table = serializers.CharField()
    game = serializers.CharField()
    variant = serializers.DictField()
    deals = serializers.IntegerField()
    seconds_per_move = serializers.IntegerField(help_text="0: no clock")
    pace = serializers.CharField(
        allow_null=True, help_text="the pace's name; null: a custom clock (or none)"
    )
    rated = serializers.BooleanField()
    status = serializers.CharField(help_text="waiting, playing, finished or cancelled")
    seats = TableSeatSerializer(many=True)
    open_seats = serializers.ListField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()


class TableDetailSerializer(TableEntrySerializer):
    seq = serializers.IntegerField(help_text="actions applied so far")
    result = serializers.DictField(allow_null=True, help_text="score_record's output once finished")
    withheld = serializers.BooleanField(
        required=False,
        help_text="only on an embargoed (duplicate) table: its result waits for its section",
    )
    rematch = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="a finished lobby table's rematch (its id) while it waits or plays; else null",
    )


class TableListSerializer(serializers.Serializer):
    results = TableEntrySerializer(many=True)
    next = serializers.CharField(allow_null=True)


class TableJoinedSerializer(serializers.Serializer):
    table = serializers.CharField()
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="your seat token: keep it secret")
    status = serializers.CharField(help_text="waiting, or playing once the last seat is taken")


DETAIL = OpenApiResponse(description='`{"detail": message}`')
NO_ACCOUNT = OpenApiResponse(description="no credentials (401) or refused (403)")
TABLES = ["tables"]


# --- the views ----------------------------------------------------------------------------------


class TableList(LobbyAPIView):
    """The lobby's tables (GET) and a new friendly table (POST)."""

    @extend_schema(
        tags=TABLES,
        summary="List friendly tables",
        operation_id="tables_list",
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                enum=list(lobby.LISTED_STATUSES),
                description="waiting (default): public tables with an open seat; playing, "
                "finished: public tables that allow spectators, plus your own",
            ),
            OpenApiParameter("page", OpenApiTypes.INT, description="page number, from 1"),
        ],
        responses={200: TableListSerializer, 400: DETAIL},
    )
    def get(self, request: Request) -> Response:
        tables = lobby.list_tables(request.user, request.query_params.get("status", "waiting"))
        rows, next_url = LobbyPagination().paginate(request, tables.prefetch_related("seats"))
        return Response({"results": [lobby.entry(t) for t in rows], "next": next_url})

    @extend_schema(
        tags=TABLES,
        summary="Create a friendly table (you sit at seat 0)",
        operation_id="tables_create",
        request=TableCreateSerializer,
        responses={201: TableCreatedSerializer, 400: DETAIL, 401: NO_ACCOUNT, 403: NO_ACCOUNT},
    )
    def post(self, request: Request) -> Response:
        data = request.data
        if not isinstance(data, dict):
            raise lobby.LobbyError(400, gettext("Send a JSON object."))
        if "game" not in data:
            raise lobby.LobbyError(400, gettext("game is required."))
        given = {
            k: data[k]
            for k in CREATE_FIELDS
            if k in data and not (k in NULL_MEANS_DEFAULT and data[k] is None)
        }
        joined = lobby.create_friendly(request.user, **given)
        table = joined.table
        body = {
            "table": table.id,
            "url": table.get_absolute_url(),
            "seat": joined.seat,
            "token": joined.token,
            "status": table.status,
            "invite": f"/tables/{table.id}/join/",
        }
        return _secret(Response(body, status=status.HTTP_201_CREATED))


class TableDetail(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="One friendly table: the entry, its seq and its result (never a card)",
        operation_id="tables_retrieve",
        responses={200: TableDetailSerializer, 404: DETAIL},
    )
    def get(self, request: Request, table_id: str) -> Response:
        return Response(lobby.detail(lobby.readable_table(request.user, table_id)))


class TableJoin(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="Take a seat (your own again if you sit there already)",
        operation_id="tables_join",
        request=None,
        responses={
            200: TableJoinedSerializer,
            401: NO_ACCOUNT,
            403: NO_ACCOUNT,
            404: DETAIL,
            409: OpenApiResponse(description="no open seat, or the table is not waiting"),
        },
    )
    def post(self, request: Request, table_id: str) -> Response:
        return seat_answer(lobby.join(request.user, table_id))


class TableLeave(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="Leave a waiting table, or resign a playing one (a bot plays your seat out)",
        operation_id="tables_leave",
        request=None,
        responses={
            200: TableEntrySerializer,
            401: NO_ACCOUNT,
            403: OpenApiResponse(description="you do not sit at this table"),
            404: DETAIL,
            409: OpenApiResponse(description="the table is over"),
        },
    )
    def post(self, request: Request, table_id: str) -> Response:
        table = lobby.leave(request.user, table_id)
        return Response(lobby.entry(table))


class TableTimeoutClaimedSerializer(serializers.Serializer):
    table = serializers.CharField()
    timed_out = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seats handed to a bot"
    )
    entry = TableEntrySerializer()


class TableClaimTimeout(LobbyAPIView):
    @extend_schema(
        tags=TABLES,
        summary="At a turn-based table, claim the timeout of the players whose deadline passed",
        description=(
            "Their seats go to a built-in bot (a forfeit for them, as a resignation) and the match"
            " plays on; docs/tables.md, 'Turn-based tables'."
        ),
        operation_id="tables_claim_timeout",
        request=None,
        responses={
            200: TableTimeoutClaimedSerializer,
            401: NO_ACCOUNT,
            403: OpenApiResponse(description="you do not sit at this table"),
            404: DETAIL,
            409: OpenApiResponse(
                description="not a turn-based friendly table, over, nobody late, or you are late"
            ),
        },
    )
    def post(self, request: Request, table_id: str) -> Response:
        seats = turn_timeouts.claim_timeout(request.user, table_id)
        table = lobby.readable_table(request.user, table_id)
        return Response({"table": table.id, "timed_out": seats, "entry": lobby.entry(table)})
