"""The league's data: players, events, entries, rounds, fixtures, results and the ledger.

Rows are written by the service functions in `league/services/`, which validate and keep the
invariants (one counting result per fixture, a zero-sum ledger); views never `.save()` them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

from accounts.names import nfc, validate_typed_name
from accounts.skeleton import name_skeleton
from games import catalogue
from league.scheduling.errors import SchedulingError
from league.scheduling.formats import formats as registered_formats
from league.scheduling.formats import get_format


class Player(models.Model):
    """Someone who plays, as the league knows them. Four kinds (docs/accounts.md):

    - a **person**: `is_bot` false; `user` their account, or none (an organizer entered them; an
      organizer's invitation lets an account claim them, league.services.claims);
    - a **bot account**: `is_bot` true and `user` an account with `is_bot_account` — a program
      that plays through the API like a person and is seated like one, shown with the bot mark;
    - a **built-in bot**: `bot_level` set (the level that plays it), `is_bot` true, no user —
      the site's own program, seated as a bot seat at a table (`is_builtin_bot`);
    - a **deleted account's** player: `deleted_at` set, no user, an anonymous name; its results
      and ratings stay, nobody can claim it.
    """

    name = models.CharField(max_length=60, unique=True, validators=[validate_typed_name])
    # accounts.skeleton.name_skeleton(name), kept by `save`: a new or renamed player whose name
    # looks like another's is refused in one query (league.services.players.lookalike).
    name_skeleton = models.TextField(default="", editable=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    # The bot mark: a program plays this player (a built-in bot or a bot account). For an account
    # it follows `User.is_bot_account` (set together by league.profile.services).
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="a built-in bot: the level that plays its seats (docs/bots.md); blank for "
        "people and bot accounts",
    )
    # An ISO 3166 code ("IT"), shown by its translated name (`player.country.name`); the
    # services refuse any other text (league.services.players.country_code).
    country = CountryField(blank=True, help_text="ISO 3166 code, e.g. IT")
    club = models.CharField(max_length=80, blank=True, validators=[validate_typed_name])
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(
        null=True, blank=True, help_text="when its account was deleted (the name is anonymous)"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(bot_level="") | Q(is_bot=True, user__isnull=True),
                name="builtin_bot_has_no_user",
            ),
            models.CheckConstraint(
                condition=Q(deleted_at__isnull=True) | Q(user__isnull=True),
                name="deleted_player_has_no_user",
            ),
            # lobby-api.md: names are unique without regard to case ("Ana" is "ana").
            models.UniqueConstraint(Lower("name"), name="player_name_unique_without_case"),
        ]
        indexes = [models.Index(fields=["name_skeleton"], name="player_name_skeleton")]

    def __str__(self) -> str:
        return f"{self.name} (bot)" if self.is_bot else self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keep the name in NFC (the services do already: this catches the admin and scripts)
        and `name_skeleton` with it (a save of the name saves it too)."""
        self.name = nfc(self.name)
        self.name_skeleton = name_skeleton(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields:
            kwargs["update_fields"] = {*fields, "name_skeleton"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("league:player", args=[self.pk])

    @property
    def is_builtin_bot(self) -> bool:
        """The site's own bot (keyed by its level): seated as a bot seat, never an entrant."""
        return bool(self.bot_level)

    @property
    def is_bot_account(self) -> bool:
        """A program with an account (or one whose account was deleted): seated as a person."""
        return self.is_bot and not self.bot_level


def default_time_zone() -> str:
    """A new event's time zone: the site's (settings.TIME_ZONE), until its organizer picks one."""
    return settings.TIME_ZONE


def format_choices() -> list[tuple[str, Any]]:
    """(name, translated label) of every registered format, in the order forms offer them."""
    return [(fmt.name, gettext_lazy(fmt.label)) for fmt in registered_formats()]


class Event(models.Model):
    """A tournament or a league season for one game, with its rules of play and scheduling."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        LEAGUE = "league", _("League season")

    class Leftover(models.TextChoices):
        BYE = "bye", _("Bye")
        BOT = "bot", _("A bot fills the seat")
        MIXED = "mixed", _("Tables of three and four (at a four the dealer sits out)")

    class Visibility(models.TextChoices):
        DRAFT = "draft", _("Draft (organizers only)")
        PUBLISHED = "published", _("Published")

    # Where the event is in its life, as stored: before its first round is published, under
    # way, finished by itself (its last round decided: league.services.event_end), closed by
    # an organizer. What pages and the API show is `stage`, which adds the draft.
    class Status(models.TextChoices):
        OPEN = "open", _("Open for entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", pgettext_lazy("event status", "Finished")
        CLOSED = "closed", _("Closed")

    # The event's status as every page and the API show it (`stage`, `stage_label`), in the
    # order an event lives it (docs/league.md, "The end of an event").
    class Stage(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("event status", "Draft")
        REGISTRATION = "registration", pgettext_lazy("event status", "Registration")
        RUNNING = "running", pgettext_lazy("event status", "Running")
        FINISHED = "finished", pgettext_lazy("event status", "Finished")
        CLOSED = "closed", pgettext_lazy("event status", "Closed")

    class Timeout(models.TextChoices):
        DEFAULT_ACTION = "default", _("Play a legal default action")
        FORFEIT = "forfeit", _("Forfeit the match")

    # Duplicate events (docs/league.md "Duplicate events", shared/spec/duplicate.md): the
    # tables of a section play the same deals and each seat is scored against the field.
    class Scoring(models.TextChoices):
        MATCH = "match", _("match points (each table on its own)")
        DUPLICATE = "duplicate", _("duplicate (the same cards at every table of a section)")

    class DuplicateRank(models.TextChoices):
        TOTAL = "total", _("duplicate total")
        PERCENTAGE = "percentage", _("matchpoint percentage")

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120, validators=[validate_typed_name])
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.TOURNAMENT)
    game = models.CharField(max_length=32)
    variant = models.JSONField(default=dict, blank=True)
    # The registry's formats (league/scheduling/formats/), read on use: a new format needs no
    # migration.
    format = models.CharField(max_length=12, choices=format_choices, default="swiss")
    rounds = models.PositiveSmallIntegerField(default=3)
    deals_per_match = models.PositiveSmallIntegerField(default=3)
    leftover = models.CharField(max_length=8, choices=Leftover.choices, default=Leftover.BYE)
    # A level of gameplay's bot registry (`gameplay.api.bot_levels`), checked by the event
    # services: no choices here, so a new level needs no migration. Each level is its own rated
    # player ("Bot 1" is basic, "Strong bot 1" strong: league.services.players).
    bot_level = models.CharField(
        _("bot level"),
        max_length=20,
        default="basic",
        help_text=_("level of the built-in bots that fill seats"),
    )
    # The bots that fill seats (built-in bots, no entrants) take no place in the standings: listed
    # after the people, places and prize lists count people only (league.standings.table
    # `rank_people`); on: ranked among them, as before (issue "Organizers III").
    rank_bots = models.BooleanField(
        _("rank bots among people"),
        default=False,
        help_text=_(
            "off: the bots that fill seats are listed after the people in the standings, "
            "without a place"
        ),
    )
    # Fixed once a round exists (league.services.events.LOCKED_ONCE_PLANNED); duplicate only
    # for formats with `supports_duplicate` and variants gameplay plays in duplicate.
    scoring = models.CharField(
        _("scoring"),
        max_length=10,
        choices=Scoring.choices,
        default=Scoring.MATCH,
        help_text=_(
            "duplicate: every table of a round (or of a section of it) plays the same deals, "
            "and each player is compared with those who held the same cards"
        ),
    )
    duplicate_rank = models.CharField(
        _("duplicate standings rank by"),
        max_length=10,
        choices=DuplicateRank.choices,
        default=DuplicateRank.TOTAL,
        help_text=_("duplicate events: which figure ranks the standings (the other is shown)"),
    )
    bye_match_points = models.SmallIntegerField(default=1)
    tiebreaks = models.JSONField(default=list, blank=True)
    seconds_per_move = models.PositiveIntegerField(default=60)
    # The fixtures' tables' pace by name (gameplay's paces; docs/league.md "Turn-based events"):
    # a turn-based one ("2-days") plays them by the day; blank: `seconds_per_move` as given.
    pace = models.CharField(
        _("pace"),
        max_length=16,
        blank=True,
        default="",
        help_text=_("blank: the seconds per move; a pace of days plays the tables by the day"),
    )
    on_timeout = models.CharField(
        max_length=8, choices=Timeout.choices, default=Timeout.DEFAULT_ACTION
    )
    play_online = models.BooleanField(
        default=True, help_text="publishing a round opens an online table for each fixture"
    )
    allow_spectators = models.BooleanField(default=True)
    # The tables' chat (docs/chat.md): off unless the organizer turns it on; a duplicate event's
    # tables never have it (gameplay turns it off at an embargoed table whatever this says).
    table_chat = models.BooleanField(
        _("chat at the tables"),
        default=False,
        help_text=_(
            "players may write to each other at their table (and spectators among themselves); "
            "never at duplicate tables"
        ),
    )
    # Open by default: an event is for whoever the organizer enters, programs included (shown
    # with the bot mark); an organizer who wants people only says so (league.services.events).
    allow_bot_accounts = models.BooleanField(
        _("allow bot accounts"),
        default=True,
        help_text=_("accounts marked as bot accounts (programs) may enter"),
    )

    # --- the schedule (docs/league.md, "Schedule"): league.services.schedule -----------------
    class DeadlinePolicy(models.TextChoices):
        FORFEIT = "forfeit", _("the absent seats forfeit")
        BOT = "bot", _("bots play the absent seats")
        EXTEND = "extend", _("the deadline is extended once, then the absent seats forfeit")

    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_time_zone,
        help_text=_("the event's times are shown in it, e.g. Europe/Rome"),
    )
    asynchronous = models.BooleanField(
        _("asynchronous"),
        default=False,
        help_text=_(
            "each online table is played when its players choose, between the round's start "
            "and its deadline: one of them opens it"
        ),
    )
    deadline_policy = models.CharField(
        _("after a round's deadline"),
        max_length=8,
        choices=DeadlinePolicy.choices,
        default=DeadlinePolicy.FORFEIT,
        help_text=_("asynchronous events: what happens to a table nobody opened in time"),
    )
    extension_days = models.PositiveSmallIntegerField(
        _("extension (days)"),
        default=3,
        help_text=_("how many days the 'extend' policy adds to a table's deadline"),
    )

    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.DRAFT
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    # The podium once the event is over (league.services.event_end.winners, kept with the
    # status): [{"place": 1, "player": <id>, "decided_by": "result" | "lot" | …}, …], best
    # first; empty while the event is not finished.
    winners = models.JSONField(default=list, blank=True, editable=False)
    seed = models.BigIntegerField(default=0, help_text="makes round plans and the lot repeatable")
    standings_version = models.PositiveIntegerField(
        default=0, help_text="bumped by every change the standings depend on"
    )
    # Everyone who runs the event: its owner and the co-organizers they add (same rights,
    # league.services.organizers). Only the owner's role decides whether it is rated.
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_events")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_events",
        help_text="who created it: stays an organizer; the ratings trust the event by its role",
    )
    # --- registration (docs/league.md, "Registration"): league.services.registration ---------
    signup_open = models.BooleanField(
        _("open for sign-up"),
        default=False,
        help_text=_("players with an account may sign up from the event's page"),
    )
    capacity = models.PositiveIntegerField(
        _("capacity"),
        null=True,
        blank=True,
        help_text=_("the most players sign-up lets in; later ones wait (blank: no limit)"),
    )
    signup_deadline = models.DateTimeField(_("sign-up deadline"), null=True, blank=True)
    invitation_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of the event's invitation link token (blank: no link)",
    )
    check_in_open = models.BooleanField(
        _("self check-in open"),
        default=False,
        help_text=_("entered players check themselves in for the next round"),
    )
    # --- results from the table (docs/league.md, "Results from the table") -------------------
    table_results = models.BooleanField(
        _("results from the table"),
        default=False,
        help_text=_(
            "over-the-table play: a player at the table enters the score grid; it counts when "
            "the others at the table confirm it, or when you approve it"
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        # The organizer role (league/services/permissions.py): staff grant it.
        permissions = [("organize_events", "Can organize events")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league:event", args=[self.slug])

    @property
    def game_name(self) -> str:
        """The game as a person reads it ("3-5-8 (Sergeant Major)"): `game` is an id, for URLs,
        the API and CSVs only."""
        return catalogue.display_name(self.game)

    @property
    def stage(self) -> str:
        """The one status every page and the API show (`Event.Stage`): draft, registration,
        running, finished, closed. Read from the row alone, so a list of events costs nothing
        more."""
        if self.status == self.Status.CLOSED:
            return self.Stage.CLOSED
        if self.visibility == self.Visibility.DRAFT:
            return self.Stage.DRAFT
        if self.status == self.Status.FINISHED:
            return self.Stage.FINISHED
        if self.status == self.Status.RUNNING:
            return self.Stage.RUNNING
        return self.Stage.REGISTRATION

    @property
    def stage_label(self) -> str:
        """`stage` as a person reads it, translated ("Finished")."""
        return str(self.Stage(self.stage).label)

    @property
    def is_over(self) -> bool:
        """Finished or closed: its standings are final (a finished one may still be corrected)."""
        return self.status in (self.Status.FINISHED, self.Status.CLOSED)

    @property
    def is_duplicate(self) -> bool:
        """Whether the event is scored in duplicate (its rounds have sections)."""
        return self.scoring == self.Scoring.DUPLICATE

    @property
    def has_tables_of_four(self) -> bool:
        """Whether the event seats tables of three and four (`Leftover.MIXED`)."""
        return self.leftover == self.Leftover.MIXED

    def deals_for(self, seats: int) -> int:
        """Deals of a match at a table of `seats`: a table of four among tables of three
        plays 4/3 as many (its dealer sits out each deal), so everybody plays the event's
        deals per match (a multiple of 3 there: whole rotations at both sizes)."""
        if seats == 4 and self.has_tables_of_four:
            return self.deals_per_match * 4 // 3
        return self.deals_per_match

    @property
    def format_name(self) -> str:
        """The format's short name, translated ("Swiss"; the form offers the longer label):
        `format` is a registry key, for URLs, the API and CSVs only."""
        try:
            return gettext(get_format(self.format).title)
        except SchedulingError:  # a format since taken out of the registry: its key, not a 500
            return self.format


class Entry(models.Model):
    """A player's place in an event; withdrawal keeps results but skips later rounds."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the last round the player was scheduled in"
    )
    rating_at_entry = models.FloatField(null=True, blank=True)
    # An organizer's import may give an address for a player without an account: the claim
    # invitation goes there, once (league.services.claim_mail). Organizers only ever see it.
    email = models.EmailField(blank=True, default="")
    claim_mailed_at = models.DateTimeField(null=True, blank=True)
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


class WaitingPlace(models.Model):
    """A player who signed up for a full event: first come, first moved up when a place frees
    (league.services.waiting_list). Not an entry: no standings, no rounds."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="waiting_places")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="waiting_places")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_waiting_place_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.event}"


class Round(models.Model):
    """One round of an event: a draft plan the organizer previews, then publishes."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    # The round's window (league.services.schedule): shown on its pages; in an asynchronous
    # event its tables are played between the two, and the deadline policy applies after it.
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")
        ]
        indexes = [models.Index(fields=["deadline"], name="round_deadline")]

    def __str__(self) -> str:
        return f"{self.event} · round {self.number}"


class Section(models.Model):
    """Tables of one round of a duplicate event that play the same deal set (by default every
    table of the round; the organizer may split a draft round, league.services.sections).

    `seed` is secret: drawn with `secrets` when the round is published, never shown nor
    logged. `deals`: a deal set the organizer uploaded instead (records' hands and stock, one
    per deal; publishing adds a secret salt to each). `completed_at`: when the last table of
    the section got its counting result, the moment the section's results are published."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sections")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, blank=True)
    deals = models.JSONField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_section_per_number")
        ]

    def __str__(self) -> str:  # never the seed
        return f"{self.round} · section {self.number}"


class Fixture(models.Model):
    """One table of a round. `table_ref` names its online table in gameplay, if any."""

    class Outcome(models.TextChoices):
        """What the event's deadline policy did to a table without a result (asynchronous)."""

        NONE = "", _("nothing")
        EXTENDED = "extended", _("deadline extended")
        FORFEIT = "forfeit", _("the absent seats forfeited")
        BOT = "bot", _("bots played the absent seats")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="fixtures")
    number = models.PositiveSmallIntegerField()
    # Duplicate events: the section whose deal set the table plays (None: not duplicate).
    section = models.ForeignKey(
        Section, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixtures"
    )
    table_ref = models.CharField(max_length=64, blank=True)
    # Asynchronous events (league.services.schedule): the table is opened by one of its players.
    opened_at = models.DateTimeField(null=True, blank=True)
    extended_until = models.DateTimeField(
        null=True, blank=True, help_text="the 'extend' policy's new deadline for this table"
    )
    deadline_outcome = models.CharField(
        max_length=8, choices=Outcome.choices, blank=True, default=Outcome.NONE
    )
    deadline_outcome_at = models.DateTimeField(null=True, blank=True)

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
    # Asynchronous events: the seat's player took part (proposed or accepted a time, opened the
    # table); the deadline policy calls the others absent. The time it accepted, if any.
    showed_up_at = models.DateTimeField(null=True, blank=True)
    accepted_proposal = models.ForeignKey(
        "FixtureProposal",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="acceptances",
    )

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["fixture", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number}: {self.player}"


class FixtureProposal(models.Model):
    """A time one player of an asynchronous fixture proposes; agreed once every person seated
    there has accepted it (`Seat.accepted_proposal`). Written by league.services.schedule."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="proposals")
    proposed_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    starts_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    agreed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["fixture", "starts_at", "id"]

    def __str__(self) -> str:
        return f"{self.fixture} at {self.starts_at:%Y-%m-%d %H:%M}"


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
        ONLINE = "online", _("Online match")
        RECORD = "record", _("Uploaded game record")
        SHEET = "sheet", _("Score sheet")
        # An organizer marked seats absent (league.services.absences): `scored` holds exactly
        # the deals that count, every one finished, like a sheet's.
        ABSENCE = "absence", _("Absence")

    # Sources whose `scored["deals"]` are finished deals only, even when the match stopped
    # early (a record's last deal may be one in progress).
    FINISHED_DEALS = (Source.SHEET, Source.ABSENCE)

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveSmallIntegerField()
    current = models.BooleanField(default=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    record = models.JSONField(null=True, blank=True)
    sheet = models.JSONField(null=True, blank=True)
    # The score grid as typed (rows per deal, games/core/grid.py), when it was: a
    # correction opens with it filled in, in its layout (the full grid, or final scores only).
    grid = models.JSONField(null=True, blank=True)
    grid_layout = models.CharField(
        max_length=16, default="full", help_text="the grid's layout (games/core/grid.py)"
    )
    scored = models.JSONField(help_text="score_record output: deals, totals, winners")
    forfeited_seats = models.JSONField(default=list, blank=True)
    # The forfeited seats that were absent (a no-show, a player who left, the deadline
    # policy's absent seats): shown with the absence mark; always among `forfeited_seats`.
    absent_seats = models.JSONField(default=list, blank=True)
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


class ResultSubmission(models.Model):
    """A score grid typed at the table by one of its players (an event with `table_results`):
    it counts once every other person at the table confirms it, or when an organizer approves
    it; a different grid from another player, or a rejection, makes it a dispute the organizer
    settles by picking one. Written by league.services.table_results."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the others to confirm")
        DISPUTED = "disputed", _("disputed: the organizer decides")
        COUNTED = "counted", _("counted")
        SET_ASIDE = "set_aside", _("set aside")

    OPEN = (Status.PENDING, Status.DISPUTED)

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="submissions")
    submitted_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    grid = models.JSONField(help_text="the score grid as typed, rows per deal")
    grid_layout = models.CharField(
        max_length=16, default="full", help_text="the grid's layout (games/core/grid.py)"
    )
    sheet = models.JSONField(help_text="the score sheet the grid stands for")
    scored = models.JSONField(help_text="score_record output: deals, totals, winners")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the organizer who approved or set it aside",
    )
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["fixture", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "submitted_by"],
                condition=Q(status__in=["pending", "disputed"]),
                name="one_open_submission_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fixture}: grid by {self.submitted_by} ({self.status})"


class SubmissionVote(models.Model):
    """A player's word on a submitted grid: it is right (`agrees`), or it is not (a rejection,
    with a reason), which sends it to the organizer."""

    submission = models.ForeignKey(ResultSubmission, on_delete=models.CASCADE, related_name="votes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    agrees = models.BooleanField()
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["submission", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "player"], name="one_vote_per_player_and_submission"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {'confirms' if self.agrees else 'rejects'} {self.submission_id}"


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
    counts = models.BooleanField(
        default=True,
        help_text="false: no deal was completed, the same player held two seats, or an account "
        "at a friendly table was not yet trusted (league.ratings.eligibility)",
    )
    weight = models.FloatField(
        default=1.0,
        help_text="the share of openskill's change it was rated with: 1, or 1/2, 1/4, … for the "
        "same accounts' repeated friendly tables (league.ratings.compute.repeat_weight)",
    )
    revision = models.PositiveIntegerField(default=0, help_text="bumped when the input changes")
    rated_at = models.DateTimeField(null=True, blank=True)

    class Review(models.TextChoices):
        """Fair play (league.fairplay.review): a flagged match is held from the ratings until a
        moderator clears it (it counts) or voids it (it never counts)."""

        NONE = "", _("not flagged")
        HELD = "held", _("held for review")
        CLEARED = "cleared", _("cleared")
        VOIDED = "voided", _("voided")

    review = models.CharField(max_length=8, choices=Review.choices, default="", blank=True)

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
    opponents = models.PositiveIntegerField(
        default=0, help_text="distinct players met in the rated matches that counted"
    )
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


# --- the rest of an account's life (see docs/accounts.md) --------------------------------------


class ClaimInvitation(models.Model):
    """An organizer's one-time invitation to take over a player who has no account.

    Only a hash of the link's token is stored: whoever reads the table cannot use an invitation.
    Written by `league.services.claims`.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_invitations")
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"claim of {self.player} ({'used' if self.used_at else 'open'})"


class PlayerReport(models.Model):
    """A report to staff about a player (listed in the admin); `league.services.reports`."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating or collusion")
        ABUSE = "abuse", _("Abusive behaviour or an offensive name")
        UNMARKED_BOT = "unmarked_bot", _("A program playing as a person (not marked as a bot)")
        IMPERSONATION = "impersonation", _("Pretending to be someone else")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player_reports",
        verbose_name=_("reporter"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="reports", verbose_name=_("player")
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("what happened"), max_length=2000, blank=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    # The table the report is about: the reporter's choice among tables played together, or a
    # report from a table's chat (docs/chat.md) with the conversation as it stood,
    # [{"at", "name", "seat", "text", "phrase"}, ...] oldest first; blank/null otherwise.
    chat_table = models.CharField(_("table"), max_length=32, blank=True, default="")
    chat_lines = models.JSONField(_("the conversation"), null=True, blank=True)
    handled = models.BooleanField(_("handled"), default=False)
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )

    class Meta:
        ordering = ["handled", "-created_at"]
        verbose_name = _("player report")
        verbose_name_plural = _("player reports")
        indexes = [
            models.Index(fields=["reporter", "created_at"], name="player_report_by_reporter")
        ]

    def __str__(self) -> str:
        return gettext("report on %(player)s (%(reason)s)") % {
            "player": self.player,
            "reason": self.get_reason_display(),
        }


# --- fair play (league.fairplay, docs/fair-play.md) --------------------------------------------


class ClientNetwork(models.Model):
    """A client network a player's account was seen on, as a keyed hash of the network (an IPv4
    /24 or an IPv6 /64), never the address: two accounts on one network is one of the farming
    patterns. Kept with the player when its account is deleted (moderators only)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="networks")
    digest = models.CharField(max_length=64)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "digest"], name="one_row_per_network")
        ]
        indexes = [models.Index(fields=["digest"], name="client_network_digest")]

    def __str__(self) -> str:
        return f"{self.player} on network {self.digest[:8]}"


class FairPlayFlag(models.Model):
    """A farming pattern between two players (`league.fairplay.farming`) with the rated matches
    that show it; its matches are held from the ratings until a moderator decides, with a
    reason, to clear them (they count) or void them (they never count)."""

    class Kind(models.TextChoices):
        REPEATED = "repeated", _("The same accounts meet again and again")
        FEEDING = "feeding", _("One account forfeits tables the other wins")
        NETWORK = "network", _("Both accounts on one client network")
        TOGETHER = "together", _("Accounts made together")

    class Decision(models.TextChoices):
        OPEN = "", _("Held for review")
        CLEARED = "cleared", _("Cleared: the matches count")
        VOIDED = "voided", _("Voided: the matches do not count")

    game = models.CharField(_("game"), max_length=32)
    kind = models.CharField(_("pattern"), max_length=16, choices=Kind.choices)
    player_a = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("one player")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("the other player")
    )
    matches = models.ManyToManyField(RatedMatch, related_name="flags")
    evidence = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(_("flagged at"), auto_now_add=True)
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, default="", blank=True
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["decision", "-created_at", "id"]
        verbose_name = _("fair-play flag")
        verbose_name_plural = _("fair-play flags")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "kind", "player_a", "player_b"],
                condition=Q(decision=""),
                name="one_open_flag_per_pattern",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} flag on {self.player_a_id} and {self.player_b_id} ({self.game})"


# --- notifications (league.services.notifications, docs/league.md "Notifications") ------------


class Notice(models.Model):
    """One notice to one account: the bell and the notices page, and an e-mail where the
    account wants one. `(user, key)` is unique, so a retried call or task makes nothing twice;
    `emailed_at` is set by the mail task's claim, in the transaction that sends the mail."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=32)
    key = models.CharField(max_length=160)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    url = models.CharField(max_length=300, blank=True, help_text="a path on this site")
    context = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(
        null=True, blank=True, help_text="when the mail task handled it (see email_status)"
    )
    email_status = models.CharField(max_length=16, blank=True)
    pushed_at = models.DateTimeField(
        null=True, blank=True, help_text="when the push task handled it (see push_status)"
    )
    push_status = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_notice_per_user_and_key")
        ]
        indexes = [
            models.Index(fields=["user"], condition=Q(read_at__isnull=True), name="notice_unread"),
            models.Index(
                fields=["created_at"],
                condition=Q(emailed_at__isnull=True),
                name="notice_mail_pending",
            ),
            # Held in quiet hours, or waiting for the day's digest (`notice_timers`, a minute).
            models.Index(
                fields=["user"],
                condition=Q(email_status__in=["held", "digest"]) | Q(push_status="held"),
                name="notice_waiting",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} ({self.key})"


class NoticeSettings(models.Model):
    """An account's switches, per kind of notice, for e-mail and for push (on-site notices are
    always made): `email` and `push` hold only the kinds switched away from their default. Quiet
    hours and the daily digest are read on the account's own clock (`time_zone`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    email = models.JSONField(default=dict, blank=True)
    push = models.JSONField(default=dict, blank=True)
    time_zone = models.CharField(max_length=64, blank=True, help_text="blank: the site's")
    quiet_from = models.TimeField(null=True, blank=True)
    quiet_to = models.TimeField(null=True, blank=True)
    digest = models.BooleanField(default=False, help_text="one mail a day instead of single ones")
    digest_hour = models.PositiveSmallIntegerField(default=8)
    digest_sent_on = models.DateField(
        null=True, blank=True, help_text="the account's local day of its last digest"
    )

    def __str__(self) -> str:
        return f"notice settings of {self.user_id}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription for an account: where the push service takes pushes
    (`endpoint`, a URL the browser got from it) and the keys that encrypt them for that browser
    alone. A push service that answers 404 or 410 has dropped it, and so do we."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user"], name="push_subscription_user")]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class JudgedTable(models.Model):
    """Where the decisions of a finished table's people sent payout (`games.transfers`), kept
    for the collusion analytics (`league.fairplay.collusion`): judged once, afterwards, by
    `league.fairplay.judging`; read only by staff."""

    table_ref = models.CharField(max_length=64, unique=True)
    game = models.CharField(max_length=32)
    finished_at = models.DateTimeField()
    players = models.JSONField(
        default=list, help_text="player id per seat; null for a bot or a forfeited seat"
    )
    decisions = models.JSONField(
        default=list, help_text="games.transfers entries: deal, index, seat, cost, to, tilt, expect"
    )
    # Why the table could not be judged (then it has no decisions and is not tried again).
    error = models.CharField(max_length=200, blank=True)
    judged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "finished_at"])]
        verbose_name = _("judged table")
        # The admin lists the suspect pairs under this name (league/admin.py).
        verbose_name_plural = _("collusion analytics")

    def __str__(self) -> str:
        return f"{self.game} {self.table_ref}"
