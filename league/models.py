"""The league's data: players, events, entries, rounds, fixtures, results and the ledger.

Rows are written by the service functions in `league/services/`, which validate and keep the
invariants (one counting result per fixture, a zero-sum ledger); views never `.save()` them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy

from league.scheduling.formats import formats as registered_formats


class Player(models.Model):
    """A person (linked to a user account) or a bot, as the league knows them."""

    name = models.CharField(max_length=60, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    is_bot = models.BooleanField(default=False)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 code, e.g. IT")
    club = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True), name="bot_has_no_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} (bot)" if self.is_bot else self.name

    def get_absolute_url(self) -> str:
        return reverse("league:player", args=[self.pk])


def format_choices() -> list[tuple[str, Any]]:
    """(name, translated label) of every registered format, in the order forms offer them."""
    return [(fmt.name, gettext_lazy(fmt.label)) for fmt in registered_formats()]


class Event(models.Model):
    """A tournament or a league season for one game, with its rules of play and scheduling."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", "Tournament"
        LEAGUE = "league", "League season"

    class Leftover(models.TextChoices):
        BYE = "bye", "Bye"
        BOT = "bot", "A bot fills the seat"

    class Visibility(models.TextChoices):
        DRAFT = "draft", "Draft (organizers only)"
        PUBLISHED = "published", "Published"

    class Status(models.TextChoices):
        OPEN = "open", "Open for entries"
        RUNNING = "running", "Running"
        CLOSED = "closed", "Closed"

    class Timeout(models.TextChoices):
        DEFAULT_ACTION = "default", "Play a legal default action"
        FORFEIT = "forfeit", "Forfeit the match"

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TOURNAMENT)
    game = models.CharField(max_length=32)
    variant = models.JSONField(default=dict, blank=True)
    # The registry's formats (league/scheduling/formats/), read on use: a new format needs no
    # migration.
    format = models.CharField(max_length=12, choices=format_choices, default="swiss")
    rounds = models.PositiveSmallIntegerField(default=3)
    deals_per_match = models.PositiveSmallIntegerField(default=3)
    leftover = models.CharField(max_length=4, choices=Leftover.choices, default=Leftover.BYE)
    bye_match_points = models.SmallIntegerField(default=1)
    tiebreaks = models.JSONField(default=list, blank=True)
    seconds_per_move = models.PositiveIntegerField(default=60)
    on_timeout = models.CharField(
        max_length=8, choices=Timeout.choices, default=Timeout.DEFAULT_ACTION
    )
    play_online = models.BooleanField(
        default=True, help_text="publishing a round opens an online table for each fixture"
    )
    allow_spectators = models.BooleanField(default=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.DRAFT
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    seed = models.BigIntegerField(default=0, help_text="makes round plans and the lot repeatable")
    standings_version = models.PositiveIntegerField(
        default=0, help_text="bumped by every change the standings depend on"
    )
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        # The organizer role (league/services/permissions.py): staff grant it.
        permissions = [("organize_events", "Can organize events")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:event", args=[self.slug])


class Entry(models.Model):
    """A player's place in an event; withdrawal keeps results but skips later rounds."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the last round the player was scheduled in"
    )
    rating_at_entry = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None


class Round(models.Model):
    """One round of an event: a draft plan the organizer previews, then publishes."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} · round {self.number}"


class Fixture(models.Model):
    """One table of a round. `table_ref` names its online table in gameplay, if any."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    number = models.PositiveSmallIntegerField()
    table_ref = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_fixture_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class Seat(models.Model):
    """A player at a fixture; `number` is the play order, seat 0 deals first."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["fixture", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number}: {self.player}"


class Bye(models.Model):
    """A player who sits a round out: the event's bye match points, no ledger rows."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="byes")
    match_points = models.SmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_bye_per_round")
        ]

    def __str__(self) -> str:
        return f"bye: {self.player} in {self.round}"


class Result(models.Model):
    """One version of a fixture's result. Exactly one version per fixture counts (`current`)."""

    class Source(models.TextChoices):
        ONLINE = "online", "Online match"
        RECORD = "record", "Uploaded game record"
        SHEET = "sheet", "Score sheet"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveSmallIntegerField()
    current = models.BooleanField(default=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    record = models.JSONField(null=True, blank=True)
    sheet = models.JSONField(null=True, blank=True)
    scored = models.JSONField(help_text="score_record output: deals, totals, winners")
    forfeited_seats = models.JSONField(default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["fixture", "version"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "version"], name="result_version_unique"),
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(current=True), name="one_current_result"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.fixture} v{self.version}"


class LedgerEntry(models.Model):
    """One player's payout (and score) in one deal of a counting result. Zero-sum per deal."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="ledger")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="ledger")
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="ledger")
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    deal = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    payout = models.IntegerField()

    class Meta:
        ordering = ["fixture", "deal", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["result", "deal", "seat"], name="one_ledger_row_per_seat_and_deal"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} deal {self.deal}: {self.payout:+d}"


class StandingsSnapshot(models.Model):
    """The standings table as last computed, so pages read one row instead of every result."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings")
    rows = models.JSONField(default=list)
    version = models.PositiveIntegerField(help_text="the event's standings_version it reflects")
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standings of {self.event}"


# --- ratings (see docs/ratings.md) -------------------------------------------------------------


class RatingGame(models.Model):
    """One row per rated game: the lock that keeps a game's rating updates in finish order.

    Every writer of a game's ratings holds this row `SELECT … FOR UPDATE` for its transaction,
    so two workers never rate two matches of the same game from the same stale ratings.
    """

    game = models.CharField(max_length=32, primary_key=True)

    def __str__(self) -> str:
        return self.game


class RatedMatch(models.Model):
    """One finished match as the ratings see it: an event fixture's counting result, or a
    friendly table. Written by `league.ratings`; `rated_at` is set by the claim that rates it."""

    game = models.CharField(max_length=32)
    finished_at = models.DateTimeField()
    fixture = models.OneToOneField(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="rated_match"
    )
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    table_ref = models.CharField(max_length=64, blank=True)
    players = models.JSONField(help_text="player ids in seat order")
    payouts = models.JSONField(help_text="total payouts in seat order")
    forfeited_seats = models.JSONField(default=list, blank=True)
    ranks = models.JSONField(help_text="finishing place per seat, 1 = best, ties share")
    counts = models.BooleanField(default=True, help_text="false: no deal was completed")
    revision = models.PositiveIntegerField(default=0, help_text="bumped when the input changes")
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "finished_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_ref"],
                condition=Q(fixture__isnull=True) & ~Q(table_ref=""),
                name="one_rated_match_per_friendly_table",
            )
        ]
        indexes = [
            models.Index(fields=["game", "finished_at", "id"], name="rated_match_order"),
            models.Index(fields=["game", "rated_at"], name="rated_match_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.game} match {self.pk} at {self.finished_at:%Y-%m-%d %H:%M}"


class Rating(models.Model):
    """A player's current rating in one game (variants share it)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3*sigma, the displayed rating")
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")
        ]
        indexes = [models.Index(fields=["game", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating right after one rated match, with their seat and place in it."""

    match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.CharField(max_length=32)
    at = models.DateTimeField(help_text="the match's finish time")
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    payout = models.IntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    ordinal_before = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "game", "at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_change_per_match")
        ]
        indexes = [
            models.Index(fields=["player", "game", "at"], name="rating_history_player"),
            models.Index(fields=["game", "at"], name="rating_history_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.game} after match {self.match_id}: {self.ordinal:.2f}"
