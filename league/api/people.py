"""/api/…: the people of an event — co-organizers, entries (import, reinstate, remove, claim
invitations), sign-up rules and the invitation link, the check-in window (its organizers), and a
player's own sign-up, withdrawal and check-in.

Every write goes through a service that authorizes its caller; a `LeagueError` is a 400, a
`LeagueConflict` (an import naming existing players) a 409, with nothing changed.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any
from urllib.parse import urlencode

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import serializers as s
from league.api.views import (
    NOT_ALLOWED,
    REFUSED,
    EntryActionMixin,
    EventScopedMixin,
    LeagueAPIMixin,
    _entry_data,
    _valid,
)
from league.errors import LeagueError
from league.models import Event
from league.services import claim_mail, claims, entry_import, registration, waiting_list
from league.services import events as event_services
from league.services import organizers as organizer_services
from league.services.entry_import import DuplicateNames, ImportProblems, ImportRow
from league.services.permissions import can_see

CONFLICT = OpenApiResponse(
    description='players with these names exist: `{"detail": …, "matches": [...]}`'
)

# --- entries ----------------------------------------------------------------------------------


class EntryDetail(EntryActionMixin, APIView):
    @extend_schema(responses={200: s.EntrySerializer})
    def get(self, request: Request, slug: str, entry_id: int) -> Response:
        self.readable_event()
        return Response(_entry_data(self.entry.pk))

    @extend_schema(responses={204: None, 400: REFUSED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str, entry_id: int) -> Response:
        """Remove an entry that has never been in a round (else 400: withdraw it)."""
        event_services.remove_entry(self.entry, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryReinstate(EntryActionMixin, APIView):
    @extend_schema(request=None, responses={200: s.EntrySerializer, 400: REFUSED, 403: NOT_ALLOWED})
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        """Undo a withdrawal."""
        event_services.reinstate(self.entry, by=request.user)
        return Response(_entry_data(entry_id))


ClaimInvitationSerializer = inline_serializer(
    "ClaimInvitation",
    {
        "mailed_to": serializers.EmailField(required=False),
        "link": serializers.URLField(required=False),
        "expires_at": serializers.DateTimeField(required=False),
    },
)


class EntryClaimInvitation(EntryActionMixin, APIView):
    @extend_schema(
        request=inline_serializer(
            "ClaimInvitationRequest", {"email": serializers.BooleanField(default=True)}
        ),
        responses={201: ClaimInvitationSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str, entry_id: int) -> Response:
        """Invite a person to claim this entry's player (who has no account): e-mailed once to
        the address the import gave (`email`, default), else a one-time link, returned once."""
        wants_mail = request.data.get("email", True) not in (False, "false", "0", 0)
        claim_url = request.build_absolute_uri(reverse("claim"))
        if wants_mail and self.entry.email:
            address = claim_mail.mail_claim_invitation(
                self.entry, by=request.user, claim_url=claim_url
            )
            return Response({"mailed_to": address}, status=status.HTTP_201_CREATED)
        made = claims.invite_to_claim(self.entry.player, by=request.user)
        link = f"{claim_url}?{urlencode({'token': made.token})}"
        body = {"link": link, "expires_at": made.invitation.expires_at}
        return Response(body, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"})


class ImportRowSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    country = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    email = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")
    use_existing = serializers.BooleanField(
        default=False,
        help_text="a player of this name (in any case) exists: enter them (else 409)",
    )


class ImportSerializer(serializers.Serializer):
    rows = ImportRowSerializer(many=True, required=False)
    csv = serializers.CharField(
        required=False,
        help_text="or the list as CSV text: one player a line, name[,club[,country[,email]]], "
        "or a header line naming the columns",
    )
    checked_in = serializers.BooleanField(default=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("rows" in data) == ("csv" in data):
            raise serializers.ValidationError("give either rows or csv")
        return data


def _match_data(match: entry_import.Match) -> dict[str, Any]:
    return {
        "line": match.row.line,
        "name": match.row.name,
        "player": {"id": match.player.pk, "name": match.player.name, "is_bot": match.player.is_bot},
        "entered": match.entered,
    }


class EntryImport(EventScopedMixin, APIView):
    @extend_schema(
        request=ImportSerializer,
        responses={
            201: s.EntrySerializer(many=True),
            400: REFUSED,
            403: NOT_ALLOWED,
            409: CONFLICT,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        """Enter many players at once (all or none). A row naming an existing player (in any
        case) needs `use_existing: true`, or is renamed: otherwise 409 listing the matches."""
        data = _valid(ImportSerializer, request)
        try:
            if "csv" in data:
                rows = entry_import.parse_text(data["csv"])
            else:
                rows = [ImportRow(line=i, **row) for i, row in enumerate(data["rows"], start=1)]
            entries = entry_import.import_entries(
                self.event, rows, by=request.user, checked_in=data["checked_in"]
            )
        except DuplicateNames as exc:
            body = {"detail": str(exc), "matches": [_match_data(m) for m in exc.matches]}
            return Response(body, status=status.HTTP_409_CONFLICT)
        except ImportProblems as exc:
            return Response(
                {"detail": str(exc), "problems": exc.problems}, status=status.HTTP_400_BAD_REQUEST
            )
        # The entries as made (their players attached): no query a row.
        data = s.EntrySerializer(entries, many=True).data
        return Response(data, status=status.HTTP_201_CREATED)


# --- co-organizers ----------------------------------------------------------------------------


class OrganizerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the account's id")
    name = serializers.CharField(help_text="its player's name (else its user name)")
    owner = serializers.BooleanField()


def _organizers(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "id": user.pk,
            "name": organizer_services.display_name(user),
            "owner": user.pk == event.owner_id,
        }
        for user in organizer_services.organizers(event)
    ]


class OrganizerList(EventScopedMixin, APIView):
    @extend_schema(responses={200: OrganizerSerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        """The event's organizers: the owner first, then its co-organizers."""
        return Response(_organizers(self.readable_event()))

    @extend_schema(
        request=inline_serializer("CoOrganizer", {"name": serializers.CharField(max_length=150)}),
        responses={201: OrganizerSerializer(many=True), 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Add a co-organizer by account or player name (same rights on this event)."""
        name = request.data.get("name") if isinstance(request.data, dict) else None
        if not isinstance(name, str):
            raise LeagueError("give the account's name")
        organizer_services.add_co_organizer(self.event, name, by=request.user)
        return Response(_organizers(self.event), status=status.HTTP_201_CREATED)


class OrganizerDetail(EventScopedMixin, APIView):
    @extend_schema(responses={204: None, 400: REFUSED, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str, user_id: int) -> Response:
        """Take a co-organizer off the event (never its owner)."""
        organizer_services.remove_co_organizer(self.event, user_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- registration (organizers) ----------------------------------------------------------------


class RegistrationSerializer(serializers.Serializer):
    signup_open = serializers.BooleanField(required=False)
    capacity = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    signup_deadline = serializers.DateTimeField(required=False, allow_null=True)


RegistrationStateSerializer = inline_serializer(
    "RegistrationState",
    {
        "signup_open": serializers.BooleanField(),
        "capacity": serializers.IntegerField(allow_null=True),
        "signup_deadline": serializers.DateTimeField(allow_null=True),
        "check_in_open": serializers.BooleanField(),
        "entered": serializers.IntegerField(),
        "waiting": serializers.IntegerField(),
        "invitation": serializers.BooleanField(help_text="an invitation link works (organizers)"),
        "waiting_list": serializers.ListField(
            child=serializers.CharField(), help_text="names, first first (organizers only)"
        ),
    },
)


def _registration(event: Event, manager: bool) -> dict[str, Any]:
    event.refresh_from_db()
    places = waiting_list.waiting(event)
    return {
        "signup_open": event.signup_open,
        "capacity": event.capacity,
        "signup_deadline": event.signup_deadline,
        "check_in_open": event.check_in_open,
        "entered": waiting_list.entered_count(event),
        "waiting": len(places),
        "invitation": bool(event.invitation_hash) if manager else False,
        "waiting_list": [p.player.name for p in places] if manager else [],
    }


class Registration(EventScopedMixin, APIView):
    @extend_schema(responses={200: RegistrationStateSerializer})
    def get(self, request: Request, slug: str) -> Response:
        """The sign-up rules and counts (the waiting list's names: organizers only)."""
        return Response(_registration(self.readable_event(), self.manager))

    @extend_schema(
        request=RegistrationSerializer,
        responses={200: RegistrationStateSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def patch(self, request: Request, slug: str) -> Response:
        """Change the sign-up rules (fields left out keep their value)."""
        data = _valid(RegistrationSerializer, request)
        fields = {
            "signup_open": data.get("signup_open", self.event.signup_open),
            "capacity": data.get("capacity", self.event.capacity),
            "signup_deadline": data.get("signup_deadline", self.event.signup_deadline),
        }
        registration.configure(self.event, by=request.user, **fields)
        return Response(_registration(self.event, True))


class RegistrationInvitation(EventScopedMixin, APIView):
    @extend_schema(
        request=None,
        responses={
            201: inline_serializer("InvitationLink", {"link": serializers.URLField()}),
            403: NOT_ALLOWED,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        """A new invitation link (returned once); the previous one stops working."""
        token = registration.new_invitation(self.event, by=request.user)
        path = reverse("league:signup", args=[self.event.slug])
        link = request.build_absolute_uri(f"{path}?{urlencode({'token': token})}")
        return Response(
            {"link": link}, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"}
        )

    @extend_schema(responses={204: None, 403: NOT_ALLOWED})
    def delete(self, request: Request, slug: str) -> Response:
        """The invitation link stops working."""
        registration.drop_invitation(self.event, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CheckInWindow(EventScopedMixin, APIView):
    @extend_schema(
        request=inline_serializer("CheckInWindow", {"open": serializers.BooleanField()}),
        responses={200: RegistrationStateSerializer, 400: REFUSED, 403: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Open self check-in for the next round (every entrant is checked out until they check
        in) or close it (the round then plans whoever checked in)."""
        value = request.data.get("open") if isinstance(request.data, dict) else None
        if not isinstance(value, bool):
            raise LeagueError("give open: true or false")
        if value:
            registration.open_check_in(self.event, by=request.user)
        else:
            registration.close_check_in(self.event, by=request.user)
        return Response(_registration(self.event, True))


# --- the player's own sign-up -----------------------------------------------------------------


class LoggedInToWrite(BasePermission):
    """Anyone may read; writing needs an account (401); the service decides the rest."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


StandingSerializer = inline_serializer(
    "SignUpStanding",
    {
        "status": serializers.ChoiceField(["entered", "withdrawn", "waiting", "none"]),
        "waiting_position": serializers.IntegerField(allow_null=True),
        "checked_in": serializers.BooleanField(allow_null=True),
        "can_sign_up": serializers.BooleanField(),
        "problem": serializers.CharField(allow_null=True),
        "full": serializers.BooleanField(),
        "check_in_open": serializers.BooleanField(),
    },
)


class PlayerSignUpMixin(LeagueAPIMixin):
    permission_classes = [LoggedInToWrite]
    request: Request
    kwargs: dict[str, Any]

    @cached_property
    def event(self) -> Event:
        event = get_object_or_404(Event, slug=self.kwargs["slug"])
        token = self.request.data.get("token") if isinstance(self.request.data, dict) else None
        token = token or self.request.query_params.get("token")
        visible = can_see(self.request.user, event) or registration.has_place(
            event, self.request.user
        )
        if not visible and not registration.invitation_matches(event, token):
            raise NotFound("no such event")
        return event

    def standing_data(self, token: str | None = None) -> dict[str, Any]:
        found = registration.standing(self.event, self.request.user, token)
        if found.entry is not None:
            state = "withdrawn" if found.entry.withdrawn else "entered"
        else:
            state = "waiting" if found.waiting_position is not None else "none"
        return {
            "status": state,
            "waiting_position": found.waiting_position,
            "checked_in": found.entry.checked_in if found.entry is not None else None,
            "can_sign_up": found.can_sign_up,
            "problem": found.problem,
            "full": found.full,
            "check_in_open": found.check_in_open,
        }


class SignUp(PlayerSignUpMixin, APIView):
    @extend_schema(responses={200: StandingSerializer})
    def get(self, request: Request, slug: str) -> Response:
        """Where your account stands: entered, waiting (and where), or why it may not sign up."""
        return Response(self.standing_data(request.query_params.get("token")))

    @extend_schema(
        request=inline_serializer(
            "SignUpRequest",
            {"token": serializers.CharField(required=False, help_text="an invitation link's")},
        ),
        responses={201: StandingSerializer, 400: REFUSED, 401: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Sign your player up: entered while places are free, else on the waiting list."""
        token = request.data.get("token") if isinstance(request.data, dict) else None
        token = token if isinstance(token, str) else None
        registration.sign_up(self.event, request.user, token=token)
        return Response(self.standing_data(), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: StandingSerializer, 400: REFUSED, 401: NOT_ALLOWED})
    def delete(self, request: Request, slug: str) -> Response:
        """Withdraw (your results stay; only the organizers can undo it) or leave the waiting
        list."""
        registration.leave(self.event, request.user)
        return Response(self.standing_data())


class SelfCheckIn(PlayerSignUpMixin, APIView):
    @extend_schema(
        request=s.CheckInSerializer,
        responses={200: StandingSerializer, 400: REFUSED, 401: NOT_ALLOWED},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Check yourself in (or out) while the organizers hold check-in open."""
        data = _valid(s.CheckInSerializer, request)
        registration.check_in_self(self.event, request.user, data["checked_in"])
        return Response(self.standing_data())
