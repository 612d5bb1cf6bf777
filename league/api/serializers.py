"""Shapes of the API's JSON. Output serializers read prefetched rows; input ones only type-check.

Rules (a variant is legal, a player may enter, a result counts) live in the services: input
serializers check JSON types and nothing else, so an API client and the pages see the same
refusals with the same messages.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django_countries.serializers import CountryFieldMixin
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import catalogue
from league.api.permissions import record_is_public
from league.models import Bye, Entry, Event, Fixture, FixtureProposal, Player, Result, Round, Seat
from league.services import event_end
from league.services.events import bot_level_problem, scoring_problems
from league.services.rounds import loaded_fingerprint
from league.standings import public_values


def _url(context: dict[str, Any], name: str, *args: Any) -> str:
    path = reverse(f"league-api:{name}", args=args)
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


# --- players ----------------------------------------------------------------------------------


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "is_bot"]


class PlayerSerializer(CountryFieldMixin, serializers.ModelSerializer):
    """A player; `country` is its ISO 3166 code ("" when not given)."""

    class Meta:
        model = Player
        fields = ["id", "name", "is_bot", "country", "club"]


class PlayerEventSerializer(serializers.Serializer):
    """One published event the player entered, with their payout total there."""

    slug = serializers.CharField(source="event.slug")
    name = serializers.CharField(source="event.name")
    game = serializers.CharField(source="event.game")
    status = serializers.ChoiceField(choices=Event.Stage.choices, source="event.stage")
    checked_in = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    total_payout = serializers.IntegerField()


class PayoutHistorySerializer(serializers.Serializer):
    """One match of the player (newest first): its payout and the running total."""

    fixture_id = serializers.IntegerField()
    event = serializers.CharField(source="event__slug")
    event_name = serializers.CharField(source="event__name")
    round = serializers.IntegerField(source="round__number")
    table = serializers.IntegerField(source="fixture__number")
    deals = serializers.IntegerField()
    payout = serializers.IntegerField()
    running = serializers.IntegerField()


class PlayerDetailSerializer(PlayerSerializer):
    events = PlayerEventSerializer(source="event_rows", many=True, read_only=True)
    history = PayoutHistorySerializer(source="payout_history", many=True, read_only=True)

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "events", "history"]


# --- events -----------------------------------------------------------------------------------


class EventSerializer(serializers.ModelSerializer):
    game_name = serializers.SerializerMethodField()
    # The event's status as every page shows it (Event.stage: docs/league.md, "The end of an
    # event"); before it, `open` stood for what is now `registration` (or `draft`).
    status = serializers.ChoiceField(choices=Event.Stage.choices, source="stage", read_only=True)
    # Its entries as every page counts them (league.services.entry_counts: an entry withdrawn
    # before it played is not counted).
    entries_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = [
            "slug", "name", "kind", "game", "game_name", "variant", "format", "rounds",
            "deals_per_match", "leftover", "bot_level", "rank_bots", "scoring", "duplicate_rank",
            "bye_match_points", "tiebreaks", "seconds_per_move", "pace", "on_timeout",
            "play_online", "allow_spectators", "allow_bot_accounts", "visibility", "status",
            "table_results",
            "time_zone", "asynchronous", "deadline_policy", "extension_days",
            "signup_open", "capacity", "signup_deadline", "check_in_open",
            "entries_count", "created_at", "url",
        ]  # fmt: skip
        # No `seed`: it would let anyone compute the next rounds' plans and the lot in advance.

    def get_game_name(self, event: Event) -> str:
        return dict(catalogue.game_choices()).get(event.game, event.game)

    def get_url(self, event: Event) -> str:
        return _url(self.context, "event", event.slug)


class WinnerSerializer(serializers.Serializer):
    """One place of an event's podium (league.services.event_end)."""

    place = serializers.IntegerField()
    player = PlayerRefSerializer()
    decided_by = serializers.ChoiceField(
        choices=["result", "total_payouts", "match_points", "lot"],
        allow_null=True,
        help_text="a knockout's champion: how they went on from the final (the result at the "
        "table, a tie-break of the stated order, or the event's draw); null for the others",
    )


class EventDetailSerializer(EventSerializer):
    """An event with its winners: empty until it is finished (or closed under way)."""

    winners = serializers.SerializerMethodField()

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "winners"]

    @extend_schema_field(WinnerSerializer(many=True))
    def get_winners(self, event: Event) -> list[dict[str, Any]]:
        """A knockout's champion, then the final's other players; any other format's first
        three of the standings."""
        return WinnerSerializer(event_end.podium(event), many=True).data


class EventCreateSerializer(serializers.ModelSerializer):
    """A new draft event. The game and its variant are checked against the engine registry."""

    game = serializers.CharField(max_length=32)
    variant = serializers.DictField(required=False, default=dict)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)

    class Meta:
        model = Event
        fields = [
            "name", "kind", "game", "variant", "format", "rounds", "deals_per_match", "leftover",
            "bot_level", "rank_bots", "scoring", "duplicate_rank", "bye_match_points", "tiebreaks",
            "seconds_per_move", "pace", "on_timeout", "play_online", "allow_spectators",
            "allow_bot_accounts", "seed", "table_results",
            "time_zone", "asynchronous", "deadline_policy", "extension_days",
        ]  # fmt: skip

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        # The game's levels (`create_event` checks them too): a level it has not is a field's
        # error, as an unknown deadline policy is. An unknown game is the service's to refuse.
        level, game = data.get("bot_level"), data.get("game")
        known = level is not None and game in dict(catalogue.game_choices())
        if known and (problem := bot_level_problem(game, level)):
            raise serializers.ValidationError({"bot_level": [problem]})
        if game in dict(catalogue.game_choices()) and data.get("scoring"):
            try:  # a bad variant is the service's to refuse, with its own message
                variant = catalogue.validate_variant(game, data.get("variant") or {})
            except catalogue.VariantError:
                return data
            for field, message in scoring_problems({**data, "variant": variant}):
                raise serializers.ValidationError({field: [message]})
        return data


# --- entries ----------------------------------------------------------------------------------


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)
    withdrawn = serializers.BooleanField(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "player", "checked_in", "withdrawn", "withdrawn_after_round", "created_at"]


class EntryCreateSerializer(serializers.Serializer):
    """Enter a player by id, or by name (a new name makes a new player)."""

    player = serializers.CharField(max_length=60, required=False, help_text="a player's name")
    player_id = serializers.IntegerField(required=False)
    checked_in = serializers.BooleanField(
        default=True,
        help_text="checked in unless false, as on the entries page (rounds plan only "
        "checked-in players)",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        name = data.get("player", "").strip()
        if bool(name) == ("player_id" in data):
            raise serializers.ValidationError("give either a player name or a player id")
        if name:
            data["player"] = name
        return data


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True)


# --- rounds, fixtures, results ----------------------------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Seat
        fields = ["number", "player"]


class ByeSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(read_only=True)

    class Meta:
        model = Bye
        fields = ["player", "match_points"]


class ResultSerializer(serializers.ModelSerializer):
    """A fixture's counting result: totals per seat (seat order), winning seats, version."""

    complete = serializers.SerializerMethodField()
    scores = serializers.SerializerMethodField()
    payouts = serializers.SerializerMethodField()
    winners = serializers.SerializerMethodField()
    record_url = serializers.SerializerMethodField()
    absent_seats = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="the seats marked absent (they forfeited: a no-show, a player who left, or "
        "the deadline policy's absent seats); empty for a match played out",
    )
    after_deal = serializers.SerializerMethodField(
        help_text="with absent seats: the deals played before the absence, which count (0: "
        "before the first deal); null without absent seats"
    )

    class Meta:
        model = Result
        fields = [
            "version", "source", "complete", "scores", "payouts", "winners", "forfeited_seats",
            "absent_seats", "after_deal", "reason", "entered_at", "record_url",
        ]  # fmt: skip

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_after_deal(self, result: Result) -> int | None:
        return len(result.scored["deals"]) if result.absent_seats else None

    def get_complete(self, result: Result) -> bool:
        return bool(result.scored.get("complete"))

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_scores(self, result: Result) -> list[int]:
        return result.scored["totals"]["scores"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_payouts(self, result: Result) -> list[int]:
        return result.scored["totals"]["payouts"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_winners(self, result: Result) -> list[int]:
        return result.scored["winners"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_record_url(self, result: Result) -> str | None:
        """Where to download the game record; null while the match is on or without a record
        (and, in a duplicate event, until its section is complete)."""
        if not record_is_public(result) or result.fixture_id in self.context.get(
            "records_withheld", ()
        ):
            return None
        return _url(self.context, "fixture-record", self.context["event"].slug, result.fixture_id)


class FixtureSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    result = serializers.SerializerMethodField()
    deadline = serializers.SerializerMethodField(
        help_text="the table's deadline: its round's, or the 'extend' policy's (null: none)"
    )

    class Meta:
        model = Fixture
        fields = [
            "id", "round", "number", "table_ref", "seats", "result",
            "deadline", "opened_at", "deadline_outcome",
        ]  # fmt: skip

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_deadline(self, fixture: Fixture) -> str | None:
        moment = fixture.extended_until or fixture.round.deadline
        return serializers.DateTimeField().to_representation(moment) if moment else None

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, fixture: Fixture) -> dict[str, Any] | None:
        """Null too for a table of a duplicate section still being played, for anyone not
        seated there (league.services.duplicate_scoring.withheld_fixtures)."""
        if fixture.pk in self.context.get("withheld", ()):
            return None
        counting = fixture.counting  # prefetched: the current result, if any
        return ResultSerializer(counting[0], context=self.context).data if counting else None


class SectionSerializer(serializers.Serializer):
    """A duplicate round's section: its tables play the same deals. Never its seed."""

    number = serializers.IntegerField()
    tables = serializers.ListField(child=serializers.IntegerField(), help_text="fixture ids")
    uploaded_deals = serializers.BooleanField(
        help_text="its tables play the organizer's deal set (else deals from a secret seed)"
    )
    completed_at = serializers.DateTimeField(allow_null=True)


class RoundSerializer(serializers.ModelSerializer):
    fixtures = FixtureSerializer(many=True, read_only=True)
    byes = ByeSerializer(many=True, read_only=True)
    draft = serializers.SerializerMethodField(
        help_text="a draft's fingerprint, to send with a swap (null once published)"
    )
    sections = serializers.SerializerMethodField(
        help_text="duplicate events: the round's sections (an empty list otherwise)"
    )

    class Meta:
        model = Round
        fields = [
            "number", "status", "published_at", "starts_at", "deadline", "fixtures", "byes",
            "draft", "sections",
        ]  # fmt: skip

    @extend_schema_field(SectionSerializer(many=True))
    def get_sections(self, round_: Round) -> list[dict[str, Any]]:
        event = self.context.get("event") or round_.event
        if not event.is_duplicate:
            return []  # no query: a match-points round has no sections
        tables: dict[int, list[int]] = {}
        for fixture in round_.fixtures.all():  # prefetched, in table order
            if fixture.section_id is not None:
                tables.setdefault(fixture.section_id, []).append(fixture.pk)
        rows = [
            {
                "number": section.number,
                "tables": tables.get(section.pk, []),
                "uploaded_deals": bool(getattr(section, "uploaded", False)),
                "completed_at": section.completed_at,
            }
            for section in round_.sections.all()  # prefetched without seed or deals
        ]
        return SectionSerializer(rows, many=True).data

    def get_draft(self, round_: Round) -> str | None:
        if round_.status != Round.Status.DRAFT:
            return None
        return loaded_fingerprint(round_.fixtures.all(), round_.byes.all())


ID_MAX = 2**63 - 1  # a BigAutoField: a larger id is no player (and overflows SQLite)


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="a player id (seated or on a bye)"
    )
    second = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="another player id of the same round"
    )
    draft = serializers.CharField(
        required=False,
        max_length=64,
        help_text="the round's `draft` as you read it: refused if the draft changed since "
        "(the same swap sent twice would undo it)",
    )


class SectionsSerializer(serializers.Serializer):
    sections = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=32767), min_length=1
        ),
        min_length=1,
        help_text="each section's table numbers, e.g. [[1, 2], [3, 4, 5]]: every table once, "
        "at least two in each",
    )


class DealSetSerializer(serializers.Serializer):
    deals = serializers.JSONField(
        help_text="one deal per deal of the match, in order: "
        '[{"hands": [[card codes of seat 0], ...], "stock": [card codes]}, ...] '
        "(or a game record holding them)"
    )


class RoundPublishSerializer(serializers.Serializer):
    publish_event = serializers.BooleanField(
        default=False,
        help_text="publish the event too if it is a draft (required then: else 409)",
    )


def sheet_help() -> str:
    """The score sheet's format, game by game, from each game's sheet rules (gameplay.api)."""
    games = " ".join(
        f"**{g['display_name']}** (`{g['game']}`): {g['description']}"
        for g in catalogue.sheet_examples()
    )
    return (
        'a score sheet of over-the-table play: `{"deals": [DEAL, ...]}`, one DEAL per deal in '
        'play order (errors name deals from 0); any deal may also give `"payouts"`, which must '
        "equal what the rules give. What a DEAL holds is the game's own. " + games
    )


def grid_help() -> str:
    """The score grid's format and each game's layouts (from each game's sheet rules)."""
    layouts = " ".join(
        f"**{g.display_name}** (`{g.name}`): "
        + ", ".join(f"`{c['name']}`" for c in catalogue.grid_layout_choices(g.name, {}))
        + "."
        for g in catalogue.games()
    )
    return (
        "a score grid, as the result page types it: a list of rows, one per deal in play "
        "order, each `{field: value}` for a field asked once per deal and `{field: [v0, v1, "
        "…]}` for one asked per seat (null: blank), the fields those of the game's grid in "
        "`grid_layout`. The `scores` layout is each seat's score for the deal: "
        '`[{"scores": [20, 20, 35]}]`. A refused grid is a 400 whose `problems` name each '
        "cell: `deal` (from 0), `field`, `seat`, `reason`. Layouts per game: " + layouts
    )


class ResultPostSerializer(serializers.Serializer):
    """A game record, a score sheet or a score grid (exactly one), for the fixture's counting
    result."""

    record = serializers.JSONField(required=False, help_text="a mediana.record/1 game record")
    sheet = serializers.JSONField(required=False, help_text=sheet_help())
    grid = serializers.JSONField(required=False, help_text=grid_help())
    grid_layout = serializers.CharField(
        required=False,
        default="full",
        max_length=16,
        help_text="the grid's layout: `full` (every field written on paper), or `scores` (each "
        "seat's score for the deal) where the game offers it",
    )
    forfeited_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=0), required=False, default=list
    )
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    correction = serializers.BooleanField(
        default=False, help_text="replace the counting result (needs a reason)"
    )
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="the version you are correcting (0: none yet); refused if it has changed",
    )


class AbsencePostSerializer(serializers.Serializer):
    """Seats of a published table marked absent: before the first deal, or after deal k."""

    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the absent seats' numbers at the table (0 deals first); not every seat, "
        "never a bot's",
    )
    after_deal = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="the deals played before the absence, which count (null or 0: before the "
        "first deal, a no-show); at most the deals played at the table",
    )
    grid = serializers.JSONField(
        required=False,
        help_text="over the table only: the score grid of the deals played so far (rows as "
        "the result page posts them); needed for an absence after a deal",
    )
    sheet = serializers.JSONField(
        required=False,
        help_text="over the table only, instead of `grid`: the score sheet of the deals "
        "played so far",
    )


class RoundScheduleSerializer(serializers.Serializer):
    """A round's window; null clears a time. ISO 8601 with an offset (or Z)."""

    starts_at = serializers.DateTimeField(allow_null=True, required=False, default=None)
    deadline = serializers.DateTimeField(allow_null=True, required=False, default=None)


class ProposalSerializer(serializers.ModelSerializer):
    proposed_by = PlayerRefSerializer(read_only=True)
    accepted_by = serializers.SerializerMethodField()

    class Meta:
        model = FixtureProposal
        fields = ["id", "starts_at", "proposed_by", "accepted_by", "agreed_at", "created_at"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_accepted_by(self, proposal: FixtureProposal) -> list[int]:
        """Seat numbers whose players accept this time."""
        return sorted(s.number for s in proposal.acceptances.all())


class ProposalPostSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField(help_text="ISO 8601 with an offset (or Z)")


class OpenedTableSerializer(serializers.Serializer):
    table_ref = serializers.CharField()
    url = serializers.CharField(help_text="the table's page (log in to play your seat)")


# --- standings --------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A number passed through as stored (an int stays an int)."""

    def to_representation(self, value: Any) -> Any:
        return value


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="the place, 1 = best; ties share a place; null: a bot that filled seats, "
        "listed after the people without a place (unless the event's rank_bots is on)",
    )
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    is_bot = serializers.BooleanField()
    withdrawn_after = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="the round after which the player withdrew (ranked on what they played); null "
        "while entered",
    )
    matches_played = serializers.IntegerField()
    match_points = NumberField()
    total_payouts = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    absences = serializers.IntegerField(
        default=0, help_text="the matches the player was marked absent from (forfeited)"
    )
    tiebreaks = serializers.SerializerMethodField(
        help_text="values of the event's tiebreaks, in their order; null for the drawing of "
        "lots, whose numbers are secret (the ranks it decides are shown)"
    )
    tied = serializers.BooleanField()
    # duplicate events only (absent otherwise): exact figures rounded half to even, 6 places
    duplicate_total = NumberField(
        required=False, help_text="duplicate events: the sum of the player's differences"
    )
    matchpoint_pct = NumberField(
        required=False,
        help_text="duplicate events: the mean of the player's percentages (null: no deal yet)",
    )

    @extend_schema_field(serializers.ListField(child=NumberField(allow_null=True)))
    def get_tiebreaks(self, row: dict[str, Any]) -> list[Any]:
        """The row's values as computed, a secret tie-break's hidden (`public_values`, the rule
        the page and the CSV leave its column out by): the list keeps its places."""
        return public_values(self.context["event"].tiebreaks, row["tiebreaks"])
