"""`POST /api/token/` (lobby-api.md "API tokens"): the account's personal API token.

`Authorization: Token <key>` then works on every API endpoint (REST_FRAMEWORK's
DEFAULT_AUTHENTICATION_CLASSES). Wrong credentials count towards the log-in lockout like the
form's (accounts/lockout.py), and requests are throttled per address (`token` rate).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import BasicAuthentication, LockedOut, TokenThrottle, locked_out


class BasicScheme(OpenApiAuthenticationExtension):
    """The schema shows our Basic as drf-spectacular shows DRF's (it matches no subclass)."""

    target_class = BasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "basic"}


# --- POST /api/token/ -----------------------------------------------------------------------


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, write_only=True, style={"input_type": "password"}
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <key>`")


@method_decorator(sensitive_post_parameters("password"), name="dispatch")
class ObtainToken(APIView):
    """The account's personal API token, the same key on every call until it is replaced."""

    # The credentials are in the body; a session cookie would only bring a CSRF check.
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [TokenThrottle]

    @extend_schema(
        summary="Your personal API token",
        request=TokenRequestSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(description="a missing field, or a wrong user name or password"),
            429: OpenApiResponse(
                description="too many requests from this address, or too many failed log-ins "
                "for this user name from it; `Retry-After` says when to try again"
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        given = TokenRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = authenticate(
            request=request,
            username=given.validated_data["username"],
            password=given.validated_data["password"],
        )
        if locked_out(request):
            raise LockedOut()
        if user is None:
            detail = _("Unable to log in with this user name and password.")
            return Response({"detail": detail}, status=status.HTTP_400_BAD_REQUEST)
        # get_or_create retries the read when a parallel first call inserted the row first.
        token, _created = Token.objects.get_or_create(user=user)
        response = Response(TokenSerializer({"token": token.key}).data)
        response["Cache-Control"] = "no-store"  # a secret: no cache keeps a copy
        return response
