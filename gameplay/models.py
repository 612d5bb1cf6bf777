"""Tables: one match each, its seats and its append-only action log.

The log is the truth; `Table.state` is a cache of the engine state after `Table.seq` actions
(rebuilt from the log when missing). Rows are written only by `gameplay.services` (`create`,
`play`, `clocks`, `lobby`): every action claims the next `seq` with a conditional UPDATE
(`claim.py`). A lobby table waits with open seats and no deal (`waiting`) until its last seat
is taken; every change of its seats bumps `Table.seats_rev`, which the claim checks too.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def new_table_id() -> str:
    """A short, unguessable id: spectators may only watch tables whose id they were given."""
    return secrets.token_hex(8)


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


def default_connect_grace() -> int:
    """`GAMEPLAY_CONNECT_GRACE`: seconds after the deal by which every seat's clock runs."""
    return int(getattr(settings, "GAMEPLAY_CONNECT_GRACE", 60))


class Table(models.Model):
    """One match at one table: game, rules, seats, the action counter and the clock."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Origin(models.TextChoices):
        """Who made the table: the lobby lists only its own (lobby-api.md, "Tables")."""

        EVENT = "event", "An event's fixture"
        OPERATOR = "operator", "The operator's create_table command"
        LOBBY = "lobby", "The lobby (a person, on the site or the API)"

    class OnTimeout(models.TextChoices):
        DEFAULT_ACTION = "default", "Play a legal default action"
        FORFEIT = "forfeit", "Forfeit the match"

    id = models.CharField(primary_key=True, max_length=32, default=new_table_id, editable=False)
    game = models.CharField(max_length=32)
    variant = models.JSONField(null=True, blank=True, help_text="as given; null = defaults")
    n_deals = models.PositiveSmallIntegerField(default=1)
    # Blank while `waiting`: the secret seed is drawn when the table deals.
    seed = models.CharField(max_length=64, blank=True)
    dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    # The number of actions applied so far; claimed with UPDATE ... WHERE seq = N.
    seq = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, help_text="engine dump() after `seq` actions")
    seconds_per_move = models.PositiveIntegerField(default=0, help_text="0 = no clock")
    # The pace the clock was chosen by (`gameplay/paces.py`): blank for a custom clock, an
    # event's table, or one made before paces. The seconds above are what the clock runs on.
    pace = models.CharField(max_length=16, blank=True, default="")
    on_timeout = models.CharField(
        max_length=8, choices=OnTimeout.choices, default=OnTimeout.DEFAULT_ACTION
    )
    # When the seats in `to_act` run out of time; null when there is no clock or nobody to act.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When a bot seat is due to act; the sweeper re-queues a bot move that is long overdue.
    bot_due = models.DateTimeField(null=True, blank=True)
    # A person's clock starts at their first connection (`Seat.connected_at`), or this many
    # seconds after the deal (`dealt_at`) at the latest, so a no-show still times out.
    connect_grace = models.PositiveIntegerField(
        default=default_connect_grace,
        help_text="seconds after the deal by which every seat's clock runs, connected or not",
    )
    dealt_at = models.DateTimeField(
        null=True, blank=True, help_text="when the first deal was dealt"
    )
    # Until when a new deal's summary may hold the clock of a person's first decision of the
    # deal (the deal's end + `GAMEPLAY_DEAL_SUMMARY_SECONDS`), unless they dismissed it earlier
    # (`Seat.ready_deal`; gameplay/clock.py). Null before any deal ended.
    summary_until = models.DateTimeField(null=True, blank=True)
    # The kind of the action at `seq` ("" before any): states say who took it (by the clock?).
    last_kind = models.CharField(max_length=8, blank=True, default="")
    allow_spectators = models.BooleanField(default=True)
    # A duplicate table (docs/tables.md, "Embargoed tables"): no spectators, and its record,
    # replay, salts and result are withheld from everyone, its players too, until
    # `gameplay.api.release_tables` (other tables of its section still play the same cards).
    embargoed = models.BooleanField(default=False)
    # Explicit deals ({"hands", "stock"[, "salt"]} in card codes) dealt before the seed's: an
    # uploaded duplicate deal set. Null: every deal comes from `seed`.
    deals = models.JSONField(null=True, blank=True)
    # Where the table belongs, for its page's header and a link back: an event's name, round and
    # table numbers and a local path, as parts the page words (`services/table_context.py`).
    # Null: a friendly table, or one made before this field.
    context = models.JSONField(
        null=True, blank=True, help_text="event, round, table, url: shown by the table's header"
    )
    # The table's chat (docs/chat.md): on at the lobby's (friendly) tables, an event's choice (off
    # unless its organizer turned it on), the operator's (create_table --chat), never at an
    # embargoed (duplicate) table.
    chat = models.BooleanField(default=False, help_text="players and spectators may chat")
    rated = models.BooleanField(default=False)
    result = models.JSONField(null=True, blank=True, help_text="score_record output at the end")
    record = models.JSONField(null=True, blank=True, help_text="the game record at the end")
    forfeited_seats = models.JSONField(default=list, blank=True)
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.OPERATOR)
    private = models.BooleanField(
        default=False, help_text="not listed in the lobby; joined only through its invitation"
    )
    # Bumped by every change of the seats (join, leave, resign): cached seats and snapshots of
    # an older revision are stale, and a move claimed with one is refused (claim.py).
    seats_rev = models.PositiveIntegerField(default=0)
    # Spectator connections open now, in every process (`gameplay/services/watchers.py`): the
    # claim returns it, and a move nobody watches builds no spectators' state. Written only by
    # single UPDATEs (never by a save of the row); a crashed process may leave it too high.
    watchers = models.PositiveIntegerField(default=0)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["deadline"], name="table_clock_due", condition=Q(status="playing")
            ),
            models.Index(
                fields=["status", "-created_at"], name="lobby_tables", condition=Q(origin="lobby")
            ),
        ]
        constraints = [
            # One live rematch per finished table (a cancelled one makes room for another).
            models.UniqueConstraint(
                fields=["rematch_of"],
                condition=Q(rematch_of__isnull=False) & ~Q(status="cancelled"),
                name="one_live_rematch",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} table {self.id}"

    def get_absolute_url(self) -> str:
        return f"/tables/{self.id}/"


class Seat(models.Model):
    """A place at a table: a user account, or a bot seat with a name and a level. `token` lets a
    client act for the seat without a session (bots). A seat with neither is open (a waiting
    lobby table); `reserved_for` keeps an open seat for one account (a rematch); a person who
    resigned is remembered in `resigned_user` while a built-in bot plays the seat out."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="table_seats",
    )
    bot = models.CharField(max_length=60, blank=True, help_text="name of a built-in bot seat")
    bot_level = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="the level of the built-in bot that plays the seat (docs/bots.md); blank for a "
        "person",
    )
    name = models.CharField(max_length=150, help_text="display name at the table")
    token = models.CharField(max_length=64, unique=True, default=new_seat_token)
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reserved_seats",
        help_text="an open seat only this account may take (a rematch)",
    )
    resigned_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="resigned_seats",
        help_text="the account that resigned this seat; the bot plays on, its result is theirs",
    )
    # The first connection of the seat's player to the table: their clock runs from then on
    # (gameplay/clock.py). Written once per seat; bots count as connected without it.
    connected_at = models.DateTimeField(null=True, blank=True)
    # The last deal whose start the seat's person is ready for: they dismissed the summary of
    # the deal before it (the table protocol's `ready`), so its clock need not wait for them.
    ready_deal = models.PositiveSmallIntegerField(default=0)
    # At a turn-based table (docs/tables.md, "Turn-based tables"): since when the seat's person
    # has had to move, null when it is not their move (or not such a table). Set once per new
    # turn after commit (`gameplay/services/turns.py`), so one turn gives one notice; "Your turn"
    # lists and counts these.
    due_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        indexes = [
            models.Index(
                fields=["user"], name="seat_turn_due", condition=Q(due_since__isnull=False)
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot=""), name="bot_seat_has_no_user"
            ),
            models.CheckConstraint(
                condition=Q(bot="", bot_level="") | (~Q(bot="") & ~Q(bot_level="")),
                name="bot_seat_has_a_level",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.number} ({self.name})"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def is_open(self) -> bool:
        """Nobody sits here yet (a waiting table's seat; maybe reserved for one account)."""
        return self.user_id is None and not self.bot


class ChatLine(models.Model):
    """One line of a table's chat (docs/chat.md), kept so its history survives a restart and a
    report can attach the conversation. Players and spectators write in separate channels and
    never read each other's. A line is free `text` or a preset `phrase` (a code every reader
    sees in their own language), never both."""

    class Channel(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    channel = models.CharField(max_length=12, choices=Channel.choices)
    # The writer: a seat's number in the players' channel (null for a spectator), and the account.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=150, help_text="the writer's name at the table")
    text = models.CharField(max_length=1000, blank=True)
    phrase = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["table", "channel", "id"], name="chat_line_by_channel"),
            models.Index(fields=["table", "user", "created_at"], name="chat_line_by_writer"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.channel} {self.name}: {self.text or self.phrase}"


class Action(models.Model):
    """One applied action: the append-only log. `seq` is the table's seq after it (1-based)."""

    class Kind(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        TIMEOUT = "timeout", "Timeout default"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # NULL, not "": no id given; the conditional unique constraint below relies on it.
    client_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="one_action_per_seq"),
            # Idempotency ids are per seat: two seats may use the same id.
            models.UniqueConstraint(
                fields=["table", "seat", "client_id"],
                condition=Q(client_id__isnull=False),
                name="one_action_per_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.seq} seat {self.seat} {self.action}"


def new_meeting_id() -> str:
    """A seek's or a challenge's id: short and unguessable, like a table's."""
    return secrets.token_hex(8)


class Seek(models.Model):
    """A person waiting to play `game` at `pace` with people (quick pairing, docs/lobby.md
    "Seeks"): matched to a table with compatible seekers, or with bots after `bots_after`
    seconds (null: never). One open seek per person; `table` once matched."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting"
        MATCHED = "matched", "Matched to a table"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"
        LAPSED = "lapsed", "Left (no longer read by its seeker)"

    id = models.CharField(primary_key=True, max_length=32, default=new_meeting_id, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    game = models.CharField(max_length=32)
    pace = models.CharField(max_length=32)
    seconds_per_move = models.PositiveIntegerField(help_text="the pace's seconds when seeking")
    rated = models.BooleanField(default=True)
    bots_after = models.PositiveIntegerField(
        null=True, blank=True, help_text="seconds before bots fill the table; null = never"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="seeks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(
        default=timezone.now, help_text="when its seeker last read it (the heartbeat)"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(
                fields=["game", "pace", "rated", "created_at"],
                name="open_seeks_pool",
                condition=Q(status="open"),
            ),
        ]
        constraints = [
            # Seeking again replaces the open seek (the service cancels it first).
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="open"), name="one_open_seek_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.id} ({self.game}, {self.pace}, {self.status})"


class Challenge(models.Model):
    """One person inviting another by name to a table (docs/lobby.md "Challenges"): accepted
    (`table` made), declined, withdrawn by the challenger, or expired."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"
        EXPIRED = "expired", "Expired"

    id = models.CharField(primary_key=True, max_length=32, default=new_meeting_id, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game = models.CharField(max_length=32)
    pace = models.CharField(max_length=32)
    seconds_per_move = models.PositiveIntegerField()
    rated = models.BooleanField(default=True)
    bots = models.BooleanField(default=True, help_text="bots take the other seats; else open")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenges"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One question at a time between two people, in each direction.
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=Q(status="pending"),
                name="one_pending_challenge_per_pair",
            ),
            models.CheckConstraint(
                condition=~Q(challenger=models.F("challenged")), name="no_challenge_to_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"challenge {self.id} ({self.game}, {self.status})"


class TableAnalysis(models.Model):
    """A finished table's game analysis (docs/bots.md, "Game analysis"): one per table, computed
    once on the bots queue and shown to everyone who may watch the replay. `summary` holds per
    seat only the accuracy and the marks (the player page reads it without the whole result)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True, help_text="games.analysis.analyse")
    summary = models.JSONField(default=dict, blank=True, help_text="per seat: accuracy, marks")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_analyses",
    )
    requested_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"analysis of {self.table_id} ({self.status})"
