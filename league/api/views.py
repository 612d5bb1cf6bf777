"""API views: load rows with a fixed number of queries, call the services, shape the answer.

Reading follows the pages' rules (a draft event, or a draft round, is a 404 for anyone who may
not manage it); every write goes through a service function, whose `LeagueError` becomes a 400
`{"detail": message}` with nothing changed.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, Count, ExpressionWrapper, Prefetch, Q, QuerySet, Sum
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import generics, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from games import catalogue
from league.api import serializers as s
from league.api.event_settings import EventSettingsSerializer, settings_to_save
from league.api.permissions import ManagesEventToWrite, OrganizesToCreate, record_is_public
from league.errors import LeagueConflict, LeagueError
from league.models import (
    Bye,
    Entry,
    Event,
    Fixture,
    LedgerEntry,
    Player,
    Result,
    Round,
    Seat,
    Section,
)
from league.services import actions, duplicate_scoring
from league.services import events as event_services
from league.services import results as result_services
from league.services import rounds as round_services
from league.services import sections as section_services
from league.services.entry_counts import with_entry_counts
from league.services.permissions import can_manage, can_see
from league.services.standings import standings_rows

REFUSED = OpenApiResponse(
    description="refused by the event's rules: `{\"detail\": message}` (a score grid's also "
    '`"problems"`: `[{"deal", "field", "seat", "reason", "message"}]`)'
)
NOT_ALLOWED = OpenApiResponse(description="not logged in (401) or not an organizer (403)")


def league_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """A `LeagueError` is the user's mistake: 400 with its message (the service changed nothing).
    A service's own refusal (Django's `PermissionDenied`) is a 403 that keeps its message, which
    DRF would replace with a generic one."""
    if isinstance(exc, LeagueConflict):  # needs the caller's explicit say-so: nothing changed
        return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, LeagueError):
        body: dict[str, Any] = {"detail": str(exc)}
        if getattr(exc, "problems", None):  # a score grid's or sheet's refusal, cell by cell
            body["problems"] = exc.problems
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, PermissionDenied) and str(exc):
        return Response({"detail": str(exc)}, status=status.HTTP_403_FORBIDDEN)
    return exception_handler(exc, context)


class LeagueAPIMixin:
    """The league's errors as `league_exception_handler` says; authentication (HTTP Basic under
    the log-in lockout, a personal token, the session) and parsers are REST_FRAMEWORK's."""

    def get_exception_handler(self) -> Any:
        return league_exception_handler


class EventScopedMixin(LeagueAPIMixin):
    """A view under /events/<slug>/: readers see what `can_see` allows, writers must manage it."""

    permission_classes = [ManagesEventToWrite]
    request: Request
    kwargs: dict[str, Any]

    @cached_property
    def event(self) -> Event:
        return get_object_or_404(Event, slug=self.kwargs["slug"])

    @cached_property
    def manager(self) -> bool:
        return can_manage(self.request.user, self.event)

    def readable_event(self) -> Event:
        """The event, or 404 if it is a draft this user may not see (its existence is private)."""
        if not can_see(self.request.user, self.event):
            raise NotFound("no such event")
        return self.event

    def fake(self) -> bool:
        """True while drf-spectacular inspects the view for the schema (no request, no slug)."""
        return getattr(self, "swagger_fake_view", False)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()  # type: ignore[misc]
        if not self.fake():
            context["event"] = self.event
            context.update(self.secrecy())
        return context

    def secrecy(self) -> dict[str, Any]:
        """Duplicate events: the tables whose result this reader may not see yet, and those
        whose record waits for the section (every pending one, but for an organizer who plays
        in none of its rounds): league.services.duplicate_scoring. No query otherwise."""
        if not self.event.is_duplicate:
            return {}
        user = self.request.user
        everything = duplicate_scoring.sees_everything(user, self.event)
        return {
            "withheld": set()
            if everything
            else duplicate_scoring.withheld_fixtures(user, self.event),
            "records_withheld": set()
            if everything
            else duplicate_scoring.pending_fixtures(self.event),
        }


# --- loading ----------------------------------------------------------------------------------


def visible_events(user: Any) -> QuerySet[Event]:
    """Published events, plus the drafts this user organizes (staff: every draft)."""
    events = Event.objects.all()
    if not user.is_staff:
        visible = Q(visibility=Event.Visibility.PUBLISHED)
        if user.is_authenticated:
            # A subquery, not a join on organizers: no duplicate rows, no DISTINCT needed.
            organized = Event.organizers.through.objects.filter(user_id=user.pk)
            visible |= Q(pk__in=organized.values("event_id"))
        events = events.filter(visible)
    return with_entry_counts(events, "entries_count").order_by("-created_at", "-pk")


def counting_results() -> Prefetch:
    """Each fixture's counting result as `fixture.counting`, without the (large) record."""
    has_record = ExpressionWrapper(Q(record__isnull=False), output_field=BooleanField())
    return Prefetch(
        "results",
        queryset=Result.objects.filter(current=True)
        .defer("record", "sheet")
        .annotate(has_record=has_record),
        to_attr="counting",
    )


def fixture_rows() -> QuerySet[Fixture]:
    return Fixture.objects.prefetch_related(seats_and_players(), counting_results())


def seats_and_players() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player"))


def section_rows() -> QuerySet[Section]:
    """A round's sections without their secrets (the seed, the deal set): whether a deal set
    was uploaded is all the API says of it."""
    uploaded = ExpressionWrapper(Q(deals__isnull=False), output_field=BooleanField())
    return Section.objects.defer("seed", "deals").annotate(uploaded=uploaded)


def round_rows(event: Event, *, with_drafts: bool) -> QuerySet[Round]:
    rounds = Round.objects.filter(event=event).prefetch_related(
        Prefetch("fixtures", queryset=fixture_rows()),
        Prefetch("byes", queryset=Bye.objects.select_related("player")),
    )
    if event.is_duplicate:
        rounds = rounds.prefetch_related(Prefetch("sections", queryset=section_rows()))
    if not with_drafts:
        rounds = rounds.filter(status=Round.Status.PUBLISHED)
    return rounds.order_by("number")


# --- events -----------------------------------------------------------------------------------


class EventList(LeagueAPIMixin, generics.ListCreateAPIView):
    """Events you may see. An organizer (the organizer role) may create one: a draft they run."""

    serializer_class = s.EventSerializer
    permission_classes = [OrganizesToCreate]

    def get_queryset(self) -> QuerySet[Event]:
        return visible_events(self.request.user)

    @extend_schema(
        request=s.EventCreateSerializer,
        responses={201: s.EventSerializer, 400: REFUSED, 401: NOT_ALLOWED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.EventCreateSerializer, request)
        event = event_services.create_event(request.user, **data)
        created = self.get_queryset().get(pk=event.pk)
        return Response(self.get_serializer(created).data, status=status.HTTP_201_CREATED)


class EventDetail(LeagueAPIMixin, generics.RetrieveDestroyAPIView):
    """An event you may see, with its winners once it is over; its organizers may change its
    settings, and delete it while it is a draft."""

    serializer_class = s.EventDetailSerializer
    lookup_field = "slug"
    permission_classes = [ManagesEventToWrite]

    @cached_property
    def event(self) -> Event:
        return get_object_or_404(Event, slug=self.kwargs["slug"])

    def get_queryset(self) -> QuerySet[Event]:
        return visible_events(self.request.user)

    @extend_schema(
        request=EventSettingsSerializer,
        responses={
            200: s.EventSerializer,
            400: OpenApiResponse(
                description="a field that is not a setting, a wrong type, a value the event "
                "form refuses (a setting a planned round has used: `this cannot change once "
                'rounds exist`), by field: `{"<field>": [message]}`; or refused by the '
                'event\'s rules (closed): `{"detail": message}`. Nothing is changed.'
            ),
            401: NOT_ALLOWED,
            403: NOT_ALLOWED,
        },
    )
    def patch(self, request: Request, slug: str) -> Response:
        """Change the event's settings by the rules of its edit form: only the fields given
        change; what a planned round has used (format, variant, deals per match, bot level,
        seed, scoring) is fixed once a round exists, and a closed event changes no more."""
        event = self.event
        read_only = not actions.may(request.user, event, "edit")
        fields = settings_to_save(event, request.data, read_only=read_only)
        event_services.update_event(Event.objects.get(pk=event.pk), by=request.user, **fields)
        return _event_response(request, event)

    @extend_schema(responses={204: None, 400: REFUSED, 401: NOT_ALLOWED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str) -> Response:
        """Delete a draft event with its entries and draft rounds (a published one: 400)."""
        event_services.delete_event(self.event, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventPublish(EventScopedMixin, APIView):
    @extend_schema(request=None, responses={200: s.EventDetailSerializer, 403: NOT_ALLOWED})
    def post(self, request: Request, slug: str) -> Response:
        event_services.publish_event(self.event, by=request.user)
        return _event_response(request, self.event)


class EventClose(EventScopedMixin, APIView):
    @extend_schema(request=None, responses={200: s.EventDetailSerializer, 403: NOT_ALLOWED})
    def post(self, request: Request, slug: str) -> Response:
        event_services.close_event(self.event, by=request.user)
        return _event_response(request, self.event)


def _event_response(request: Request, event: Event) -> Response:
    fresh = visible_events(request.user).get(pk=event.pk)
    return Response(s.EventDetailSerializer(fresh, context={"request": request}).data)


def _valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- entries ----------------------------------------------------------------------------------


class EntryList(EventScopedMixin, generics.ListCreateAPIView):
    """The event's entries; organizers enter players (by name: a new name makes a new player; an
    existing player, by name or id, needs the organizer role)."""

    serializer_class = s.EntrySerializer

    def get_queryset(self) -> QuerySet[Entry]:
        if self.fake():
            return Entry.objects.none()
        return Entry.objects.filter(event=self.readable_event()).select_related("player")

    @extend_schema(
        request=s.EntryCreateSerializer,
        responses={201: s.EntrySerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str) -> Response:
        data = _valid(s.EntryCreateSerializer, request)
        entry = event_services.enter_player(
            self.event,
            by=request.user,
            name=data.get("player"),
            player_id=data.get("player_id"),
            checked_in=data["checked_in"],
        )
        return Response(_entry_data(entry.pk), status=status.HTTP_201_CREATED)


class EntryActionMixin(EventScopedMixin):
    @cached_property
    def entry(self) -> Entry:
        return get_object_or_404(
            Entry.objects.select_related("player", "event"),
            pk=self.kwargs["entry_id"],
            event=self.event,
        )


class EntryCheckIn(EntryActionMixin, APIView):
    @extend_schema(
        request=s.CheckInSerializer,
        responses={200: s.EntrySerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        data = _valid(s.CheckInSerializer, request)
        event_services.check_in(self.entry, data["checked_in"], by=request.user)
        return Response(_entry_data(entry_id))


class EntryWithdraw(EntryActionMixin, APIView):
    @extend_schema(request=None, responses={200: s.EntrySerializer, 400: REFUSED, 403: NOT_ALLOWED})
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        event_services.withdraw(self.entry, by=request.user)
        return Response(_entry_data(entry_id))


def _entry_data(entry_id: int) -> dict[str, Any]:
    return s.EntrySerializer(Entry.objects.select_related("player").get(pk=entry_id)).data


# --- rounds -----------------------------------------------------------------------------------


class RoundMixin(EventScopedMixin):
    def get_queryset(self) -> QuerySet[Round]:
        if self.fake():
            return Round.objects.none()
        return round_rows(self.readable_event(), with_drafts=self.manager)

    def round_to_change(self) -> Round:
        return get_object_or_404(Round, event=self.event, number=self.kwargs["number"])

    def round_response(self, number: int, code: int = status.HTTP_200_OK) -> Response:
        round_ = round_rows(self.event, with_drafts=True).get(number=number)
        context = {"request": self.request, "event": self.event, **self.secrecy()}
        return Response(s.RoundSerializer(round_, context=context).data, status=code)


class RoundList(RoundMixin, generics.ListCreateAPIView):
    """The event's rounds with their tables; draft rounds only for organizers."""

    serializer_class = s.RoundSerializer

    @extend_schema(request=None, responses={201: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED})
    def post(self, request: Request, slug: str) -> Response:
        """Plan the next round as a draft (preview it, swap players, then publish it)."""
        round_ = round_services.generate_round(self.event, by=request.user)
        return self.round_response(round_.number, status.HTTP_201_CREATED)


class RoundDetail(RoundMixin, generics.RetrieveDestroyAPIView):
    serializer_class = s.RoundSerializer
    lookup_field = "number"

    @extend_schema(responses={204: None, 400: REFUSED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str, number: int) -> Response:
        """Discard a draft round."""
        round_services.discard_draft(self.round_to_change(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundSwap(RoundMixin, APIView):
    @extend_schema(
        request=s.SwapSerializer,
        responses={200: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        """Swap two players (seats or byes) of a draft round."""
        data = _valid(s.SwapSerializer, request)
        round_services.swap_players(
            self.round_to_change(),
            data["first"],
            data["second"],
            by=request.user,
            seen=data.get("draft"),
        )
        return self.round_response(number)


class RoundSections(RoundMixin, APIView):
    @extend_schema(
        request=s.SectionsSerializer,
        responses={200: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        """Split a duplicate draft round into sections (lists of table numbers, each of at
        least two tables, every table once)."""
        data = _valid(s.SectionsSerializer, request)
        section_services.split_sections(self.round_to_change(), data["sections"], by=request.user)
        return self.round_response(number)


class SectionDeals(RoundMixin, APIView):
    def section_to_change(self) -> Section:
        return get_object_or_404(
            Section, round=self.round_to_change(), number=self.kwargs["section"]
        )

    @extend_schema(
        request=s.DealSetSerializer,
        responses={200: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def put(self, request: Request, slug: str, number: int, section: int) -> Response:
        """Give a section of a duplicate draft round your deal set (one deal per deal of the
        match: records' `hands` and `stock`); refused with the reason, nothing changed."""
        data = _valid(s.DealSetSerializer, request)
        section_services.upload_deals(self.section_to_change(), data["deals"], by=request.user)
        return self.round_response(number)

    @extend_schema(responses={200: s.RoundSerializer, 400: REFUSED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str, number: int, section: int) -> Response:
        """Take the section's deal set back: its deals come from a secret seed again."""
        section_services.clear_deals(self.section_to_change(), by=request.user)
        return self.round_response(number)


class RoundPublish(RoundMixin, APIView):
    @extend_schema(
        request=s.RoundPublishSerializer,
        responses={
            200: s.RoundSerializer,
            400: REFUSED,
            403: NOT_ALLOWED,
            409: OpenApiResponse(
                description="the event is a draft: send `publish_event: true` to publish both"
            ),
        },
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        """Publish a draft round. In a draft event this publishes the event too, and only when
        asked (`publish_event: true`): otherwise 409, nothing changed."""
        data = _valid(s.RoundPublishSerializer, request)
        round_services.publish_round(
            self.round_to_change(), by=request.user, publish_event=data["publish_event"]
        )
        return self.round_response(number)


# --- fixtures, results, records ---------------------------------------------------------------


class FixtureMixin(EventScopedMixin):
    def visible_fixtures(self) -> QuerySet[Fixture]:
        """The event's tables this user may see: of published rounds, or any for organizers."""
        fixtures = Fixture.objects.filter(round__event=self.readable_event())
        if not self.manager:
            fixtures = fixtures.filter(round__status=Round.Status.PUBLISHED)
        return fixtures.select_related("round")

    def get_queryset(self) -> QuerySet[Fixture]:
        if self.fake():
            return Fixture.objects.none()
        return (
            self.visible_fixtures()
            .prefetch_related(seats_and_players(), counting_results())
            .order_by("round__number", "number")
        )


@extend_schema(
    parameters=[OpenApiParameter("round", int, description="only the tables of this round")]
)
class FixtureList(FixtureMixin, generics.ListAPIView):
    """Every table of the event (of published rounds, for the public), with seats and result."""

    serializer_class = s.FixtureSerializer

    def get_queryset(self) -> QuerySet[Fixture]:
        fixtures = super().get_queryset()
        number = self.request.query_params.get("round") if not self.fake() else None
        if number is not None:
            if not (number.isascii() and number.isdigit()):
                raise ValidationError({"round": "a round number"})
            fixtures = fixtures.filter(round__number=int(number))
        return fixtures


class FixtureDetail(FixtureMixin, generics.RetrieveAPIView):
    serializer_class = s.FixtureSerializer
    lookup_url_kwarg = "fixture_id"


class FixtureRecord(FixtureMixin, APIView):
    """The game record of a finished match, as a JSON download."""

    @extend_schema(
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="a mediana.record/1 record"),
            404: OpenApiResponse(description="no such table, or its match is not finished"),
        }
    )
    def get(self, request: Request, slug: str, fixture_id: int) -> Response:
        fixture = get_object_or_404(self.visible_fixtures(), pk=fixture_id)
        if fixture.pk in self.secrecy().get("records_withheld", ()):
            raise NotFound(
                f"table {fixture.number} plays the deals of a duplicate section that other "
                f"tables are still playing: its record is published when the section is complete"
            )
        result = Result.objects.filter(fixture=fixture, current=True).first()
        if result is None:
            raise NotFound(
                f"table {fixture.number} has no result yet: its record is published once the "
                f"match is finished, since before that it would show hidden cards"
            )
        if result.record is None:
            raise NotFound(
                f"the result of table {fixture.number} was entered as a score sheet; "
                f"there is no game record"
            )
        if not record_is_public(result):
            raise NotFound(
                f"the match at table {fixture.number} is not finished: its record would show "
                f"hidden cards"
            )
        name = f"{self.event.slug}-round{fixture.round.number}-table{fixture.number}.json"
        return Response(
            result.record, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )


def sheet_examples() -> list[OpenApiExample]:
    """One example request per game: its score sheet, described by its own sheet rules."""
    return [
        OpenApiExample(
            f"{g['display_name']} score sheet",
            value={"sheet": g["example"]},
            description=g["description"],
            request_only=True,
        )
        for g in catalogue.sheet_examples()
    ]


class FixtureResult(EventScopedMixin, APIView):
    @extend_schema(
        request=s.ResultPostSerializer,
        responses={201: s.ResultSerializer, 400: REFUSED, 403: NOT_ALLOWED},
        examples=sheet_examples(),
    )
    def post(self, request: Request, slug: str, fixture_id: int) -> Response:
        """Count a result: a game record, a score sheet or a score grid (in one of the game's
        layouts), forfeits, and for a correction a reason. A table that has a result refuses a
        second one unless `correction` is true."""
        data = _valid(s.ResultPostSerializer, request)
        fixture = get_object_or_404(Fixture, pk=fixture_id, round__event=self.event)
        result = result_services.record_result(
            fixture,
            by=request.user,
            record=data.get("record"),
            sheet=data.get("sheet"),
            grid=data.get("grid"),
            grid_layout=data["grid_layout"],
            forfeited_seats=data["forfeited_seats"],
            reason=data["reason"],
            correction=data["correction"],
            expected_version=data.get("expected_version"),
        )
        context = {"request": request, "event": self.event}
        return Response(s.ResultSerializer(result, context=context).data, status=201)


# --- standings --------------------------------------------------------------------------------


class Standings(EventScopedMixin, generics.ListAPIView):
    """The standings table, best first (rows follow the event's tiebreaks)."""

    serializer_class = s.StandingsRowSerializer

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        if self.fake():
            return []
        return standings_rows(self.readable_event())


# --- players ----------------------------------------------------------------------------------


@extend_schema(
    parameters=[OpenApiParameter("search", str, description="part of the player's name")]
)
class PlayerList(LeagueAPIMixin, generics.ListAPIView):
    serializer_class = s.PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        players = Player.objects.order_by("name", "pk")
        search = self.request.query_params.get("search", "").replace("\x00", "").strip()
        return players.filter(name__icontains=search) if search else players


class PlayerDetail(LeagueAPIMixin, generics.RetrieveAPIView):
    """A player with their published events and their last 50 matches' payouts."""

    serializer_class = s.PlayerDetailSerializer
    queryset = Player.objects.all()
    lookup_url_kwarg = "player_id"
    HISTORY = 50

    def get_object(self) -> Player:
        player = super().get_object()
        published = Q(event__visibility=Event.Visibility.PUBLISHED)
        # a duplicate section's tables count here once the section is complete
        shown = published & duplicate_scoring.published("fixture__")
        totals = dict(
            LedgerEntry.objects.filter(shown, player=player)
            .values("event_id")
            .annotate(total=Sum("payout"))
            .values_list("event_id", "total")
        )
        entries = Entry.objects.filter(published, player=player).select_related("event")
        player.event_rows = [
            {"event": e.event, "checked_in": e.checked_in, "withdrawn": e.withdrawn,
             "total_payout": totals.get(e.event_id, 0)}
            for e in entries.order_by("-event__created_at", "-event_id")
        ]  # fmt: skip
        matches = list(
            LedgerEntry.objects.filter(shown, player=player)
            .values("fixture_id", "event__slug", "event__name", "round__number", "fixture__number")
            .annotate(payout=Sum("payout"), deals=Count("id"))
            .order_by("-fixture_id")[: self.HISTORY]
        )
        running = sum(totals.values()) - sum(m["payout"] for m in matches)
        for match in reversed(matches):
            running += match["payout"]
            match["running"] = running
        player.payout_history = matches
        return player
