"""`GET /api/events/<slug>/rounds/<n>/deals/`: a duplicate round's travellers, exactly the
shape of shared/spec/duplicate.md ("What is published"); 404 for an event that is not
duplicate. A section still being played is `{"tables": [...], "deals": null}` for everyone but
an organizer who plays in none of the event's rounds. A fixed number of queries."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api.views import EventScopedMixin
from league.models import Round
from league.services import duplicate_scoring
from league.standings import deals_payload, section_payload, withheld_section_payload


class RoundDeals(EventScopedMixin, APIView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description='`{"sections": [{"tables": [<fixture id>], "deals": [{"deal": k, '
                '"datum": [...], "tables": [{"fixture", "completed", "payouts", "differences", '
                '"matchpoints", "percentages"}]}]}]}`; `deals` is null for a section still '
                "being played; numbers rounded half to even to 6 places",
            ),
            404: OpenApiResponse(description="no such round, or the event is not duplicate"),
        }
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        """Every section of the round: per deal the datum per seat and each table's payouts,
        differences, matchpoints and percentages (deals from 0, as records count)."""
        event = self.readable_event()
        if not event.is_duplicate:
            raise NotFound("this event is not scored in duplicate")
        round_ = get_object_or_404(Round, event=event, number=number)
        if round_.status != Round.Status.PUBLISHED and not self.manager:
            raise NotFound("this round is not published yet")
        sections = duplicate_scoring.load_sections(event, round_=round_)
        visible = duplicate_scoring.visible_sections(request.user, event, sections)
        return Response(
            deals_payload(
                section_payload(s.scores)
                if shown and s.scores is not None
                else (
                    {"tables": [], "deals": []}
                    if shown
                    else withheld_section_payload(s.fixture_ids)
                )
                for s, shown in zip(sections, visible, strict=True)
            )
        )
