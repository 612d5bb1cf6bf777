"""`GET /api/`: the API's root, a JSON index of its parts with absolute links.

The lobby's tables (`gameplay/lobby_api.py`), the league's events, players and ratings
(`league/api/`), the personal token, the OpenAPI schema and its Swagger UI. It lives in config,
above both apps, because it names both. Anyone may read it, logged in or not: it holds links
only (no account, no secret), so it authenticates nobody (a wrong password is not refused here).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import catalogue

# A stand-in the URLconf accepts for a slug, swapped for `{slug}` in the link templates (a
# literal `{` would be percent-encoded on its way through `build_absolute_uri`).
SLUG = "slug-placeholder"
# The per-event parts of the league's API, by their URL names.
EVENT_PARTS = ("event", "entries", "rounds", "fixtures", "standings", "ledger")


def api_index(request: Request) -> dict:
    """The index: every part of the API as an absolute link; `templates` are links with a
    `{slug}` to fill in (RFC 6570 style)."""

    def link(name: str, **kwargs: str) -> str:
        return request.build_absolute_uri(reverse(name, kwargs=kwargs or None))

    spectacular = getattr(settings, "SPECTACULAR_SETTINGS", {})
    return {
        "name": spectacular.get("TITLE", "Mediana API"),
        "version": spectacular.get("VERSION", "1"),
        "schema": link("api-schema"),
        "docs": link("api-docs"),
        "token": link("api-token"),
        "lobby": {"tables": link("tables-api:tables")},
        "league": {
            "events": link("league-api:events"),
            "players": link("league-api:players"),
            "ratings": {g.name: link("league-api:ratings", game=g.name) for g in catalogue.games()},
        },
        "templates": {
            part: link(f"league-api:{part}", slug=SLUG).replace(SLUG, "{slug}")
            for part in EVENT_PARTS
        },
    }


class ApiRoot(APIView):
    """The API's parts, for a client (or a person) that starts at `/api/`."""

    authentication_classes: list = []  # links only: nobody needs to be anybody here
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The API's index",
        description=(
            "Absolute links to every part of the API: the lobby's tables, the league's events, "
            "players and ratings per game, the token endpoint, this schema and its Swagger UI; "
            "`templates` hold links with a `{slug}` to fill in. No log-in needed."
        ),
        responses={200: OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample(
                "index",
                value={
                    "name": "Mediana API",
                    "version": "1",
                    "schema": "https://example.org/api/schema/",
                    "docs": "https://example.org/api/docs/",
                    "token": "https://example.org/api/token/",
                    "lobby": {"tables": "https://example.org/api/tables/"},
                    "league": {
                        "events": "https://example.org/api/events/",
                        "players": "https://example.org/api/players/",
                        "ratings": {"saichugen": "https://example.org/api/ratings/saichugen/"},
                    },
                    "templates": {"standings": "https://example.org/api/events/{slug}/standings/"},
                },
                response_only=True,
            )
        ],
        auth=[],
    )
    def get(self, request: Request) -> Response:
        """The index (see the module)."""
        return Response(api_index(request))
