"""/api/…/fixtures/<id>/absent/: an organizer marks seats of a table absent (POST) or takes a
no-show's absence back when the player arrives late (DELETE). The service authorizes and
refuses with the reason, nothing changed: a `LeagueError` is a 400, a table that has a result
(or whose online match has ended) a 409 (`league.services.absences`)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import serializers as s
from league.api.views import NOT_ALLOWED, REFUSED, EventScopedMixin, _valid, fixture_rows
from league.models import Fixture
from league.services import absences

HAS_RESULT = OpenApiResponse(
    description="the table has a result already, or its online match has ended: correct the "
    "result instead"
)


class FixtureAbsence(EventScopedMixin, APIView):
    def fixture(self) -> Fixture:
        return get_object_or_404(Fixture, pk=self.kwargs["fixture_id"], round__event=self.event)

    @extend_schema(
        request=s.AbsencePostSerializer,
        responses={201: s.ResultSerializer, 400: REFUSED, 403: NOT_ALLOWED, 409: HAS_RESULT},
        examples=[
            OpenApiExample("A no-show at seat 2", value={"seats": [2], "after_deal": None}),
            OpenApiExample("Seat 1 left after deal 3", value={"seats": [1], "after_deal": 3}),
        ],
    )
    def post(self, request: Request, slug: str, fixture_id: int) -> Response:
        """Mark seats of a published table absent: the table's result is counted at once — the
        absent seats forfeit, the others win, the deals played before the absence count — and
        an online table is stopped. Answers the fixture's counting result."""
        data = _valid(s.AbsencePostSerializer, request)
        result = absences.mark_absent(
            self.fixture(),
            by=request.user,
            seats=data["seats"],
            after_deal=data["after_deal"],
            grid=data.get("grid"),
            sheet=data.get("sheet"),
        )
        context = {"request": request, "event": self.event}
        return Response(
            s.ResultSerializer(result, context=context).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(responses={200: s.FixtureSerializer, 400: REFUSED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str, fixture_id: int) -> Response:
        """Take back an absence marked before the first deal (the player arrived late): the
        result no longer counts and the table is open again (a synchronous event's online
        table starts afresh). Refused once a deal was played, or once the next round was made
        from this round's results. Answers the fixture."""
        fixture = absences.undo_absence(self.fixture(), by=request.user)
        context = {"request": request, "event": self.event, **self.secrecy()}
        fresh = fixture_rows().select_related("round").get(pk=fixture.pk)
        return Response(s.FixtureSerializer(fresh, context=context).data)
