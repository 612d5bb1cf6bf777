"""/api/seeks/… and /api/challenges/…: quick pairing and challenges over HTTP (docs/lobby.md,
"Additions to mediana.lobby/1"), so a program — a third-party bot — can meet people too.

Thin views over `gameplay.services.seeks` and `.challenges`, which check every write; a
`LobbyError` answers its status with `{"detail": message}` and nothing changed, as at
/api/tables/. A seek names its table once matched: the seeker then takes its seat's token with
`POST /api/tables/<id>/join/` (its own seat, whatever the table's status).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from gameplay import paces
from gameplay.lobby_api import DETAIL, NO_ACCOUNT, LobbyAPIView, LobbyPagination
from gameplay.services import challenges, seeks
from gameplay.services.lobby import LobbyError

SEEK_FIELDS = ("game", "pace", "bots_after", "rated")
CHALLENGE_FIELDS = ("player", "game", "pace", "rated", "bots")
SEEKS = ["seeks"]
CHALLENGES = ["challenges"]


def _body(request: Request, fields: tuple[str, ...], required: tuple[str, ...]) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise LobbyError(400, gettext("Send a JSON object."))
    for name in required:
        if name not in data:
            raise LobbyError(400, gettext("%(field)s is required.") % {"field": name})
    return {k: data[k] for k in fields if k in data}


# --- the schema's shapes (documentation; the services build the answers) ---------------------


class SeekCreateSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="a registered game")
    pace = serializers.ChoiceField(
        choices=paces.PACES.names(), required=False, default=paces.DEFAULT_PACE
    )
    bots_after = serializers.ChoiceField(
        choices=[w for w in seeks.BOT_WAITS if w is not None],
        allow_null=True,
        required=False,
        default=None,
        help_text="seconds before basic bots fill the table; null: never (people only)",
    )
    rated = serializers.BooleanField(required=False, default=True)


class SeekSerializer(serializers.Serializer):
    seek = serializers.CharField()
    player = serializers.CharField()
    game = serializers.CharField()
    pace = serializers.CharField()
    seconds_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    bots_after = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="open, matched, cancelled or expired")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class MySeekSerializer(SeekSerializer):
    table = serializers.CharField(allow_null=True, help_text="the table once matched")
    url = serializers.CharField(allow_null=True, help_text="the table page once matched")
    seats = serializers.IntegerField(help_text="the game's seats")
    waiting = serializers.IntegerField(help_text="people in this seek's pool now, you too")


class SeekListSerializer(serializers.Serializer):
    results = SeekSerializer(many=True)
    next = serializers.CharField(allow_null=True)


class ChallengeCreateSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="the account's name, in any case")
    game = serializers.CharField()
    pace = serializers.ChoiceField(
        choices=paces.PACES.names(), required=False, default=paces.DEFAULT_PACE
    )
    rated = serializers.BooleanField(required=False, default=True)
    bots = serializers.BooleanField(
        required=False, default=True, help_text="basic bots take the other seats; false: open"
    )


class ChallengeSerializer(serializers.Serializer):
    challenge = serializers.CharField()
    challenger = serializers.CharField()
    challenged = serializers.CharField()
    incoming = serializers.BooleanField(help_text="true: it is yours to answer")
    game = serializers.CharField()
    pace = serializers.CharField()
    seconds_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    bots = serializers.BooleanField()
    status = serializers.CharField(help_text="pending, accepted, declined, withdrawn or expired")
    table = serializers.CharField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class ChallengeListSerializer(serializers.Serializer):
    results = ChallengeSerializer(many=True)


CHALLENGE_REFUSALS = {
    401: NO_ACCOUNT,
    403: OpenApiResponse(description="not yours to answer (or to withdraw)"),
    404: DETAIL,
    409: OpenApiResponse(description="answered, withdrawn or expired already"),
}


# --- seeks --------------------------------------------------------------------------------------


class SeekList(LobbyAPIView):
    """The open seeks (GET, anyone) and a new seek (POST)."""

    @extend_schema(
        tags=SEEKS,
        summary="Open seeks: who waits for which game at which pace",
        operation_id="seeks_list",
        responses={200: SeekListSerializer, 400: DETAIL},
    )
    def get(self, request: Request) -> Response:
        rows, next_url = LobbyPagination().paginate(request, seeks.open_seeks())
        return Response({"results": [seeks.entry(s) for s in rows], "next": next_url})

    @extend_schema(
        tags=SEEKS,
        summary="Seek a table with people (replaces your open seek)",
        operation_id="seeks_create",
        request=SeekCreateSerializer,
        responses={201: MySeekSerializer, 400: DETAIL, 401: NO_ACCOUNT, 403: NO_ACCOUNT},
    )
    def post(self, request: Request) -> Response:
        made = seeks.seek(request.user, **_body(request, SEEK_FIELDS, ("game",)))
        return Response(seeks.entry(made, mine=True), status=status.HTTP_201_CREATED)


class SeekDetail(LobbyAPIView):
    """Your seek: poll it until it names its table; DELETE withdraws it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=SEEKS,
        summary="Your seek, with its table once matched",
        operation_id="seeks_retrieve",
        responses={200: MySeekSerializer, 401: NO_ACCOUNT, 404: DETAIL},
    )
    def get(self, request: Request, seek_id: str) -> Response:
        return Response(seeks.entry(seeks.readable_seek(request.user, seek_id), mine=True))

    @extend_schema(
        tags=SEEKS,
        summary="Withdraw your open seek",
        operation_id="seeks_destroy",
        responses={
            200: MySeekSerializer,
            401: NO_ACCOUNT,
            404: DETAIL,
            409: OpenApiResponse(description="matched or closed already"),
        },
    )
    def delete(self, request: Request, seek_id: str) -> Response:
        return Response(seeks.entry(seeks.cancel(request.user, seek_id), mine=True))


# --- challenges ---------------------------------------------------------------------------------


class ChallengeList(LobbyAPIView):
    """Your challenges, both directions (GET), and a new one (POST)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=CHALLENGES,
        summary="Your challenges, made and received: pending, and answered in the last hour",
        operation_id="challenges_list",
        responses={200: ChallengeListSerializer, 401: NO_ACCOUNT},
    )
    def get(self, request: Request) -> Response:
        rows = challenges.my_challenges(request.user)[:100]
        return Response({"results": [challenges.entry(c, request.user) for c in rows]})

    @extend_schema(
        tags=CHALLENGES,
        summary="Challenge a player by name",
        operation_id="challenges_create",
        request=ChallengeCreateSerializer,
        responses={
            201: ChallengeSerializer,
            400: DETAIL,
            401: NO_ACCOUNT,
            404: OpenApiResponse(description="nobody of that name"),
            409: OpenApiResponse(description="you have challenged them already"),
        },
    )
    def post(self, request: Request) -> Response:
        made = challenges.challenge(
            request.user, **_body(request, CHALLENGE_FIELDS, ("player", "game"))
        )
        return Response(challenges.entry(made, request.user), status=status.HTTP_201_CREATED)


class ChallengeDetail(LobbyAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=CHALLENGES,
        summary="One of your challenges",
        operation_id="challenges_retrieve",
        responses={200: ChallengeSerializer, 401: NO_ACCOUNT, 404: DETAIL},
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        found = challenges.readable_challenge(request.user, challenge_id)
        return Response(challenges.entry(found, request.user))

    @extend_schema(
        tags=CHALLENGES,
        summary="Withdraw a challenge you made",
        operation_id="challenges_destroy",
        responses={200: ChallengeSerializer, **CHALLENGE_REFUSALS},
    )
    def delete(self, request: Request, challenge_id: str) -> Response:
        done = challenges.withdraw(request.user, challenge_id)
        return Response(challenges.entry(done, request.user))


class ChallengeAccept(LobbyAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=CHALLENGES,
        summary="Accept a challenge made to you: the table is made (join it for your token)",
        operation_id="challenges_accept",
        request=None,
        responses={200: ChallengeSerializer, **CHALLENGE_REFUSALS},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        done = challenges.accept(request.user, challenge_id)
        return Response(challenges.entry(done, request.user))


class ChallengeDecline(LobbyAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=CHALLENGES,
        summary="Decline a challenge made to you (the challenger is told)",
        operation_id="challenges_decline",
        request=None,
        responses={200: ChallengeSerializer, **CHALLENGE_REFUSALS},
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        done = challenges.decline(request.user, challenge_id)
        return Response(challenges.entry(done, request.user))
