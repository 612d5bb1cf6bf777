"""/api/…: a round's schedule (organizers) and an asynchronous fixture's times and table (its
players). The services authorize every write; a `LeagueError` is a 400 with nothing changed."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import serializers as s
from league.api.views import NOT_ALLOWED, REFUSED, EventScopedMixin, RoundMixin, _valid
from league.models import Fixture, FixtureProposal, Round, Seat
from league.services import schedule


class LoggedInToWrite(BasePermission):
    """Anyone may read (the view 404s what they may not see); writing needs an account (401),
    and the service decides who of them may (403: only the table's players)."""

    def has_permission(self, request: Request, view: object) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


class RoundSchedule(RoundMixin, APIView):
    @extend_schema(
        request=s.RoundScheduleSerializer,
        responses={200: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        """Set a round's start and deadline (null clears one)."""
        data = _valid(s.RoundScheduleSerializer, request)
        schedule.set_round_schedule(
            self.round_to_change(),
            by=request.user,
            starts_at=data["starts_at"],
            deadline=data["deadline"],
        )
        return self.round_response(number)


class FixtureScopedMixin(EventScopedMixin):
    permission_classes = [LoggedInToWrite]

    def fixture(self) -> Fixture:
        """A table of a published round (organizers: any), or 404."""
        fixtures = Fixture.objects.filter(round__event=self.readable_event())
        if not self.manager:
            fixtures = fixtures.filter(round__status=Round.Status.PUBLISHED)
        return get_object_or_404(fixtures, pk=self.kwargs["fixture_id"])


def proposals_of(fixture: Fixture) -> list[FixtureProposal]:
    return list(
        FixtureProposal.objects.filter(fixture=fixture)
        .select_related("proposed_by")
        .prefetch_related(Prefetch("acceptances", queryset=Seat.objects.only("pk", "number")))
        .order_by("starts_at", "pk")
    )


class FixtureProposals(FixtureScopedMixin, generics.ListAPIView):
    """The times proposed for an asynchronous table; its players propose one (and accept it)."""

    serializer_class = s.ProposalSerializer
    pagination_class = None

    def get_queryset(self) -> list[FixtureProposal]:  # type: ignore[override]
        if self.fake():
            return []
        return proposals_of(self.fixture())

    @extend_schema(
        request=s.ProposalPostSerializer,
        responses={201: s.ProposalSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, fixture_id: int) -> Response:
        data = _valid(s.ProposalPostSerializer, request)
        proposal = schedule.propose_time(self.fixture(), by=request.user, **data)
        made = next(p for p in proposals_of(proposal.fixture) if p.pk == proposal.pk)
        return Response(s.ProposalSerializer(made).data, status=status.HTTP_201_CREATED)


class ProposalAccept(FixtureScopedMixin, APIView):
    @extend_schema(
        request=None, responses={200: s.ProposalSerializer, 400: REFUSED, 403: NOT_ALLOWED}
    )
    def post(self, request: Request, slug: str, fixture_id: int, proposal_id: int) -> Response:
        """Accept a proposed time; once every person at the table has, it is agreed."""
        fixture = self.fixture()
        proposal = get_object_or_404(FixtureProposal, pk=proposal_id, fixture=fixture)
        schedule.accept_time(proposal, by=request.user)
        made = next(p for p in proposals_of(fixture) if p.pk == proposal.pk)
        return Response(s.ProposalSerializer(made).data)


class FixtureOpen(FixtureScopedMixin, APIView):
    @extend_schema(
        request=None, responses={200: s.OpenedTableSerializer, 400: REFUSED, 403: NOT_ALLOWED}
    )
    def post(self, request: Request, slug: str, fixture_id: int) -> Response:
        """Open an asynchronous table (made on first opening; the others get a notice), or
        join it if it is open; the answer names the table to play at (no token: log in)."""
        table_ref = schedule.open_table(self.fixture(), by=request.user)
        return Response({"table_ref": table_ref, "url": f"/tables/{table_ref}/"})
