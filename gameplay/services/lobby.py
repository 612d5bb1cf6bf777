"""The lobby: friendly tables people make, join, leave and rematch (lobby-api.md, "Tables").

The one place the lobby's rules live; the API (`gameplay/lobby_api.py`), the pages and the home
page call only these functions, and each write checks its own authorization here. A `LobbyError`
carries the HTTP status and a translated message; nothing was changed.

- A table is made `waiting` with its creator at seat 0, its bots in the last seats and open
  seats between (no deal, no seed yet: `create.create_table`); it deals when its last open seat
  is taken (`create.deal_waiting`), under the table row's lock, so two people racing for the
  last seat get one seat and one `409`.
- Leaving a waiting table opens the seat again with a new token; the last person to leave
  cancels it. Leaving a playing table resigns: the seat forfeits (`forfeited_seats`, and
  `result["forfeited"]` at the end, as a clock forfeit gives) and a built-in `basic` bot plays
  it out; the person stays on the seat as `resigned_user`, so the result counts against them.
- A rematch is a new table of the same players with the dealer rotated: the requester sits at
  once, every other person's seat is *reserved* for them (only that account may take it), the
  bots sit again. It starts when all have joined and expires like any waiting table.
- Every seat change bumps the table's `seats_rev`, which moves and connections check
  (`claim.py`, the table consumer), so a seat's cards never reach whoever left it.
- Waiting tables older than `settings.LOBBY_WAITING_EXPIRY` seconds are cancelled by
  `expire_waiting`: Celery beat runs it, and `list_tables` runs it too (the embedded mode has no
  beat).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext

from accounts.guests import is_guest_name
from gameplay import paces
from gameplay.clock import DAY
from gameplay.models import Seat, Table, new_seat_token
from gameplay.runtime import cache, notify
from gameplay.runtime.runner import bot_delay
from gameplay.services import lobby_live
from gameplay.services.after_commit import after_commit
from gameplay.services.create import SeatSpec, create_table, deal_waiting
from gameplay.services.matches import load_match
from gameplay.services.payloads import waiting_payload
from games import VariantError, registry
from games import bots as bot_registry

logger = logging.getLogger(__name__)

WAITING = Table.Status.WAITING
PLAYING = Table.Status.PLAYING
FINISHED = Table.Status.FINISHED
CANCELLED = Table.Status.CANCELLED
LOBBY = Table.Origin.LOBBY

LISTED_STATUSES = (WAITING, PLAYING, FINISHED)
MAX_DEALS = 60
MAX_SECONDS_PER_MOVE = 600
RATED_CLOCK = 30  # seconds per move when a rated table names none
RESIGN_LEVEL = bot_registry.DEFAULT_LEVEL  # the bot that plays a resigned seat out
_TABLE_ID = re.compile(r"[0-9A-Za-z_-]{1,32}")  # what gameplay.converters admits


class LobbyError(Exception):
    """A refused lobby request: `status` 400 (bad input), 403 (not yours), 404 (no such table
    for you) or 409 (the table's state forbids it); `detail` says why (translated)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Joined:
    """A seat someone holds: the table, the seat number, and its token (for its owner only)."""

    table: Table
    seat: int
    token: str


def waiting_expiry() -> int:
    """Seconds a table may wait for players before it is cancelled."""
    return int(getattr(settings, "LOBBY_WAITING_EXPIRY", 1800))


# --- reading ------------------------------------------------------------------------------------


def _account(user: Any) -> Any:
    if user is None or not getattr(user, "is_authenticated", False):
        raise LobbyError(403, gettext("Log in to play at a table."))
    return user


def _name(user: Any) -> str:
    return user.get_username()


def _no_table() -> LobbyError:
    return LobbyError(404, gettext("There is no such table."))


def _locked(table_id: Any) -> Table:
    """The table row, locked until the end of the transaction (call inside one)."""
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise _no_table()
    table = Table.objects.select_for_update().defer("state", "record").filter(pk=table_id).first()
    if table is None:
        raise _no_table()
    return table


def locked_table(table_id: Any) -> Table:
    """The table row, locked until the end of the transaction, or `LobbyError(404)`."""
    return _locked(table_id)


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("number"))


def _seated(seats: list[Seat], user: Any) -> Seat | None:
    return next((s for s in seats if s.user_id == user.pk), None)


def seat_entries(table: Table) -> tuple[list[dict[str, Any]], list[int]]:
    """The entry's `seats` and `open_seats` from `table.seats` (prefetch it for lists). A seat
    reserved for a rematch's player shows no player and is not open to others. `guest`: a guest
    sits there (the table is then unrated: `entry`)."""
    seats = sorted(table.seats.all(), key=lambda s: s.number)
    listed = [
        {
            "seat": s.number,
            "player": None if s.is_open else s.name,
            "bot": s.is_bot,
            # A guest's seat (its name says so: accounts.guests): no query.
            "guest": not (s.is_open or s.is_bot) and is_guest_name(s.name),
        }
        for s in seats
    ]
    return listed, [s.number for s in seats if s.is_open and s.reserved_for_id is None]


def entry(table: Table) -> dict[str, Any]:
    """The JSON entry of lobby-api.md: game, rules, status, who sits where, open seats. Never a
    card, a seed or a token."""
    listed, open_seats = seat_entries(table)
    try:
        variant = registry.get_game(table.game).validate_variant(table.variant)
    except (KeyError, VariantError):  # a table of a game since removed: as stored
        variant = dict(table.variant or {})
    return {
        "table": table.id,
        "game": table.game,
        "variant": variant,
        "deals": table.n_deals,
        "seconds_per_move": table.seconds_per_move,
        "pace": table.pace or None,
        # A table at which a guest sits is never rated (docs/lobby.md, "Ratings").
        "rated": table.rated and not any(s["guest"] for s in listed),
        "status": table.status,
        "seats": listed,
        "open_seats": open_seats,
        "created_at": table.created_at.isoformat(),
    }


def detail(table: Table) -> dict[str, Any]:
    """`GET /api/tables/<id>/`: the entry, the table's `seq`, and its `result` once finished.
    An embargoed (duplicate) table's result waits for its section: `null`, and `"withheld":
    true` says why (docs/tables.md, "Embargoed tables")."""
    if table.embargoed:
        return {**entry(table), "seq": table.seq, "result": None, "withheld": True}
    return {
        **entry(table),
        "seq": table.seq,
        "result": table.result if table.status == FINISHED else None,
        "rematch": live_rematch(table) if table.status == FINISHED else None,
    }


def live_rematch(table: Table) -> str | None:
    """The id of the rematch of this finished table that has not been cancelled, if any."""
    return (
        Table.objects.filter(rematch_of=table)
        .exclude(status=CANCELLED)
        .values_list("id", flat=True)
        .first()
    )


def readable_table(user: Any, table_id: Any) -> Table:
    """A table this user may read: one that allows spectators, or one they sit (or sat) at;
    `LobbyError(404)` otherwise (a private no-spectators table's existence is its players')."""
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise _no_table()
    table = (
        Table.objects.defer("state", "record").prefetch_related("seats").filter(pk=table_id).first()
    )
    if table is None:
        raise _no_table()
    if not table.allow_spectators:
        uid = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
        if uid is None or not any(
            uid in (s.user_id, s.resigned_user_id) for s in table.seats.all()
        ):
            raise _no_table()
    return table


def _sits_at(user: Any) -> QuerySet[Seat]:
    return Seat.objects.filter(Q(user=user) | Q(resigned_user=user))


def list_tables(user: Any, status: str = WAITING) -> QuerySet[Table]:
    """The lobby's tables in `status`, newest first (`GET /api/tables/?status=`): `waiting` —
    public tables with a seat open to anyone; `playing` and `finished` — public tables that
    allow spectators, plus the user's own. Only lobby tables: event tables never, nor the
    operator's. Cancels the waiting tables that expired first (the embedded mode has no beat).
    """
    if status not in LISTED_STATUSES:
        raise LobbyError(
            400,
            gettext("status must be one of: %(choices)s.")
            % {"choices": ", ".join(LISTED_STATUSES)},
        )
    if status == WAITING:
        expire_waiting()
    tables = Table.objects.filter(origin=LOBBY, status=status).defer("state", "record")
    if status == WAITING:
        open_seat = Seat.objects.filter(
            table=OuterRef("pk"), user__isnull=True, bot="", reserved_for__isnull=True
        )
        tables = tables.filter(Exists(open_seat), private=False)
    else:
        public = Q(private=False, allow_spectators=True)
        if getattr(user, "is_authenticated", False):
            public |= Q(pk__in=_sits_at(user).values("table_id"))
        tables = tables.filter(public)
    return tables.order_by("-created_at", "-pk")


def my_tables(user: Any) -> QuerySet[Table]:
    """Every table the user sits at (or resigned from), of any origin and status, newest first."""
    if not getattr(user, "is_authenticated", False):
        return Table.objects.none()
    expire_waiting()
    return (
        Table.objects.filter(pk__in=_sits_at(user).values("table_id"))
        .defer("state", "record")
        .order_by("-created_at", "-pk")
    )


# --- creating -----------------------------------------------------------------------------------


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LobbyError(
            400,
            gettext("%(field)s must be a whole number from %(low)d to %(high)d.")
            % {"field": field, "low": low, "high": high},
        )
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise LobbyError(400, gettext("%(field)s must be true or false.") % {"field": field})
    return value


def bot_names(level: str, count: int) -> list[str]:
    """Names of a table's bot seats at `level`, distinct at the table ("Basic bot 1", …)."""
    return [f"{level.capitalize()} bot {n}" for n in range(1, count + 1)]


def create_friendly(
    user: Any,
    *,
    game: str,
    variant: dict[str, Any] | None = None,
    deals: int | None = None,
    bots: int = 0,
    bot_level: str = bot_registry.DEFAULT_LEVEL,
    seconds_per_move: int | None = None,
    rated: bool = True,
    spectators: bool = True,
    private: bool = False,
    pace: str | None = None,
    seats: int | None = None,
) -> Joined:
    """Make a friendly table with the user at seat 0, `bots` bots in the last seats and open
    seats between; it starts at once when no seat is open. Defaults and refusals as
    lobby-api.md: bots of a casual level (`random`) make the table casual; a rated table needs a
    clock. A `pace` (`gameplay/paces.py`) sets the clock by name; with `seconds_per_move` as
    well they must agree. `seats`: 4 seats a three-player game at a table of four, where the
    dealer sits out each deal (None: the game's own number); its deals are a multiple of 4, so
    everyone sits out equally."""
    _account(user)
    if not isinstance(game, str):
        raise LobbyError(400, gettext("game must be the name of a game."))
    try:
        spec = registry.get_game(game)
    except KeyError:
        names = ", ".join(registry.game_names())
        raise LobbyError(
            400,
            gettext("Unknown game %(game)r (games: %(names)s).") % {"game": game, "names": names},
        ) from None
    n_seats = spec.seats if seats is None else _int(seats, "seats", 1, 99)
    if n_seats not in spec.table_sizes:
        sizes = get_text_list([str(n) for n in spec.table_sizes], gettext("or"))
        raise LobbyError(
            400,
            gettext("%(game)s is played at a table of %(sizes)s, not %(seats)s.")
            % {"game": spec.display_name, "sizes": sizes, "seats": n_seats},
        )
    if variant is not None and not isinstance(variant, dict):
        raise LobbyError(400, gettext("variant must be an object of flags."))
    try:
        resolved = spec.engine_for(n_seats).resolve_variant(variant)
    except VariantError as exc:
        raise LobbyError(400, gettext("Bad variant: %(reason)s") % {"reason": exc}) from None
    n_deals = n_seats if deals is None else _int(deals, "deals", 1, MAX_DEALS)
    if n_seats != spec.seats and n_deals % n_seats:
        raise LobbyError(
            400,
            gettext(
                "At a table of four each seat sits out in turn: deals must be a multiple of 4."
            ),
        )
    n_bots = _int(bots, "bots", 0, n_seats - 1)
    if not isinstance(bot_level, str) or bot_level not in bots_levels(game, n_bots):
        known = ", ".join(bots_levels(game, n_bots))
        raise LobbyError(
            400,
            gettext("bot_level must be one of: %(levels)s.") % {"levels": known},
        )
    rated = _bool(rated, "rated")
    spectators = _bool(spectators, "spectators")
    private = _bool(private, "private")
    if n_bots and bot_registry.level(bot_level).casual:
        rated = False  # lobby-api.md: random bots make a table casual
    seconds_per_move, pace_name = _clock(pace, seconds_per_move, rated)
    if rated and seconds_per_move == 0:
        raise LobbyError(
            400, gettext("A rated table needs a clock: give seconds_per_move, or rated: false.")
        )
    open_count = n_seats - 1 - n_bots
    seats = [SeatSpec(_name(user), user_id=user.pk)]
    seats += [SeatSpec("") for _ in range(open_count)]
    seats += [
        SeatSpec(name, bot=name, bot_level=bot_level) for name in bot_names(bot_level, n_bots)
    ]
    try:
        table = create_table(
            game,
            seats,
            variant=resolved,
            n_deals=n_deals,
            seconds_per_move=seconds_per_move,
            pace=pace_name,
            allow_spectators=spectators,
            rated=rated,
            origin=LOBBY,
            private=private,
        )
    except (VariantError, ValueError) as exc:  # checked above; a rule of the engine's own
        raise LobbyError(400, str(exc)) from None
    seat = Seat.objects.get(table=table, number=0)
    return Joined(table, 0, seat.token)


def _clock(pace: Any, seconds_per_move: Any, rated: bool) -> tuple[int, str]:
    """The seconds a move and the pace's name from what the request gave: a pace sets the
    seconds (given seconds must be the pace's); seconds alone keep lobby-api.md's meaning and
    defaults (30 when rated, 0 casual), named by the live pace with those seconds, if any."""
    if pace is None:
        if seconds_per_move is None:
            seconds_per_move = RATED_CLOCK if rated else 0
        seconds = _int(seconds_per_move, "seconds_per_move", 0, MAX_SECONDS_PER_MOVE)
        return seconds, paces.pace_of_seconds(seconds)
    try:
        chosen = paces.pace(pace) if isinstance(pace, str) else None
    except KeyError:
        chosen = None
    if chosen is None:
        raise LobbyError(
            400,
            gettext("pace must be one of: %(paces)s.") % {"paces": ", ".join(paces.PACES.names())},
        )
    if seconds_per_move is not None and seconds_per_move != chosen.seconds:
        raise LobbyError(
            400,
            gettext(
                "The pace %(pace)s is %(seconds)d seconds a move, not %(given)s: give one of"
                " pace and seconds_per_move, or both agreeing."
            )
            % {"pace": chosen.name, "seconds": chosen.seconds, "given": seconds_per_move},
        )
    return chosen.seconds, chosen.name


def bots_levels(game: str, n_bots: int) -> list[str]:
    """The levels `bot_level` may name: the game's when it has bots, any level otherwise."""
    return list(bot_registry.levels(game)) if n_bots else list(bot_registry.all_levels())


def play_now_pace(user: Any) -> str:
    """The pace "Play now" offers this user first: the one they last played it at, else the
    default (relaxed: a newcomer reads the prompts before the clock takes a move)."""
    chosen = getattr(user, "play_pace", "") if getattr(user, "is_authenticated", False) else ""
    live = [p.name for p in paces.live_paces()]
    return chosen if chosen in live else paces.DEFAULT_PACE


def play_now(user: Any, game: str, pace: str | None = None, seats: int | None = None) -> Joined:
    """One click: a table against `basic` bots in every other seat, the default variant,
    everyone deals once, rated, at `pace` (none given: the user's last, else relaxed). The
    pace is remembered for the next time. It starts at once. `seats`: 4 for a three-player
    game at a table of four (None: the game's own number)."""
    try:
        own = registry.get_game(game).seats if isinstance(game, str) else 0
    except KeyError:
        own = 0
    if seats is None:
        seats = own
    if pace is None or pace == "":
        pace = play_now_pace(user)
    found = paces.PACES.find(pace) if isinstance(pace, str) else None
    if found is not None and found.turn_based:
        # Bots do not need days a move: Play now is a game now (turn-based: with people).
        names = ", ".join(p.name for p in paces.live_paces())
        raise LobbyError(400, gettext("pace must be one of: %(paces)s.") % {"paces": names})
    joined = create_friendly(
        user,
        game=game,
        bots=max(seats - 1, 0) if isinstance(seats, int) else 0,
        bot_level=bot_registry.DEFAULT_LEVEL,
        pace=pace,
        seats=seats,
    )
    if user.play_pace != joined.table.pace:
        user.play_pace = joined.table.pace
        user.save(update_fields=["play_pace"])
    return joined


# --- joining and leaving ------------------------------------------------------------------------


def join(user: Any, table_id: str) -> Joined:
    """Take a seat: someone already seated gets their own seat back (any status); anyone else
    the seat reserved for them (a rematch) or the lowest open one, `409` when none is open or
    the table is not waiting. Taking the last open seat deals the table."""
    _account(user)
    try:
        with transaction.atomic():
            return _join(user, table_id)
    except IntegrityError:
        # The same account joined twice at once: the other request seated it (one seat each).
        with transaction.atomic():
            return _join(user, table_id)


def _join(user: Any, table_id: str) -> Joined:
    table = _locked(table_id)
    seats = _seats(table)
    mine = _seated(seats, user)
    if mine is not None:
        return Joined(table, mine.number, mine.token)
    if table.status != WAITING:
        raise LobbyError(409, gettext("This table is not waiting for players."))
    free = [s for s in seats if s.is_open and s.reserved_for_id in (None, user.pk)]
    free.sort(key=lambda s: (s.reserved_for_id != user.pk, s.number))
    if not free:
        raise LobbyError(409, gettext("This table has no open seat."))
    seat = free[0]
    token = new_seat_token()
    # Conditional: on a database without row locks (SQLite) a seat is still taken once.
    taken = Seat.objects.filter(pk=seat.pk, user__isnull=True, bot="").update(
        user=user, name=_name(user), token=token, reserved_for=None
    )
    if not taken:
        raise LobbyError(409, gettext("This table has no open seat."))
    table.seats_rev += 1
    table.updated_at = timezone.now()
    if any(s.is_open for s in seats if s.pk != seat.pk):
        table.save(update_fields=["seats_rev", "updated_at"])
        _announce_waiting(table)
    else:
        deal_waiting(table)
    return Joined(table, seat.number, token)


def leave(user: Any, table_id: str) -> Table:
    """Leave a table you sit at. Waiting: the seat opens again with a new token, and the last
    person to leave cancels the table. Playing: resign — the seat forfeits and a built-in bot
    plays it out (the result still counts against you). `409` once the table is over."""
    _account(user)
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        seat = _seated(seats, user)
        if seat is None:
            raise LobbyError(403, gettext("You do not sit at this table."))
        if table.origin == Table.Origin.EVENT:
            # An event's fixture is its organizers' to settle, not a friendly table to leave.
            raise LobbyError(409, gettext("An event's table cannot be left from the lobby."))
        if table.status == WAITING:
            return _leave_waiting(table, seats, seat)
        if table.status == PLAYING:
            return _resign(table, seat)
        raise LobbyError(409, gettext("This table is over; there is nothing to leave."))


def _leave_waiting(table: Table, seats: list[Seat], seat: Seat) -> Table:
    seat.user, seat.name, seat.token = None, "", new_seat_token()
    seat.save(update_fields=["user", "name", "token"])
    table.seats_rev += 1
    table.updated_at = timezone.now()
    fields = ["seats_rev", "updated_at"]
    if not any(s.user_id for s in seats if s.pk != seat.pk):
        table.status = CANCELLED
        fields.append("status")
    table.save(update_fields=fields)
    _announce_waiting(table)
    return table


def resign_seat(table: Table, seat: Seat) -> Table:
    """The seat forfeits; a bot plays it from now on (a resignation, or a turn-based timeout:
    `turn_timeouts`). Inside the transaction that locked the table's row."""
    return _resign(table, seat)


def _resign(table: Table, seat: Seat) -> Table:
    """The seat forfeits; a `basic` bot plays it from now on, for the person who resigned."""
    now = timezone.now()
    user_id = seat.user_id
    seat.resigned_user_id, seat.user = user_id, None
    seat.bot, seat.bot_level = f"{RESIGN_LEVEL.capitalize()} bot", RESIGN_LEVEL
    seat.token = new_seat_token()  # the person's token no longer acts for the bot
    seat.save(update_fields=["resigned_user", "user", "bot", "bot_level", "token"])
    match = load_match(table)
    to_act = seat.number in match.to_act()
    table.forfeited_seats = sorted({*(table.forfeited_seats or []), seat.number})
    table.seats_rev += 1
    table.updated_at = now
    fields = ["forfeited_seats", "seats_rev", "updated_at"]
    if to_act:
        table.bot_due = now + timedelta(seconds=bot_delay())
        fields.append("bot_due")
    table.save(update_fields=fields)
    snap = cache.Snapshot.of(table)
    logger.info("table %s: seat %s resigned", table.id, seat.number)
    # Everyone gets the state again at the new seats revision (the resigned connection is
    # closed by it), and the bot moves if it is the seat's turn.
    transaction.on_commit(lambda: after_commit(snap, match, to_act, final=True))
    return table


def _announce_waiting(table: Table) -> None:
    """After commit: each seat and the spectators get the waiting table's state at the new
    seats revision (a connection whose seat is gone is closed by it)."""
    snap = cache.Snapshot.of(table)
    n_seats = len(cache.seats_of(snap.id, snap.seats_rev))  # the table's own size

    def send() -> None:
        payloads: dict[int | None, dict[str, Any]] = {
            n: waiting_payload(snap, n) for n in range(n_seats)
        }
        if snap.allow_spectators:
            payloads[None] = waiting_payload(snap, None)
        try:
            notify.send_states(snap.id, snap.seq, payloads, final=True, seats_rev=snap.seats_rev)
        except Exception:  # committed; a connection re-reads on its next sync
            logger.exception("could not notify waiting table %s", snap.id)

    transaction.on_commit(send)


# --- rematch and expiry ---------------------------------------------------------------------


def rematch(user: Any, table_id: str) -> Joined:
    """A new table of a finished one's players, the dealer rotated, the same rules. The
    requester sits at once; every other person's seat is reserved for them until they join (it
    starts when all have, and expires like any waiting table); the bots sit again. A second
    request (another player's) joins the rematch already made instead of making another."""
    _account(user)
    with transaction.atomic():
        old = _locked(table_id)
        seats = _seats(old)
        if not any(user.pk in (s.user_id, s.resigned_user_id) for s in seats):
            raise LobbyError(403, gettext("Only the players of a table can ask for a rematch."))
        if old.status != FINISHED:
            raise LobbyError(409, gettext("A rematch starts once the table has finished."))
        if old.origin == Table.Origin.EVENT:
            raise LobbyError(409, gettext("An event's table has no rematch."))
        live = Table.objects.filter(rematch_of=old).exclude(status=CANCELLED).first()
        if live is not None:
            return _join(user, live.id)
        specs = []
        for s in seats:
            person = s.resigned_user_id or s.user_id
            if person == user.pk:
                specs.append(SeatSpec(_name(user), user_id=user.pk))
            elif person is not None:
                specs.append(SeatSpec("", reserved_for=person))
            else:
                specs.append(SeatSpec(s.name, bot=s.bot, bot_level=s.bot_level))
        try:
            table = create_table(
                old.game,
                specs,
                variant=old.variant,
                n_deals=old.n_deals,
                dealer=(old.dealer + 1) % len(seats),
                seconds_per_move=old.seconds_per_move,
                pace=old.pace,
                on_timeout=old.on_timeout,
                allow_spectators=old.allow_spectators,
                rated=old.rated,
                origin=LOBBY,
                private=old.private,
                rematch_of=old.id,
            )
        except (VariantError, ValueError) as exc:  # e.g. a bot level that no longer exists
            raise LobbyError(400, str(exc)) from None
        number = next(n for n, s in enumerate(specs) if s.user_id == user.pk)
        seat = Seat.objects.get(table=table, number=number)
        asked = [s.reserved_for for s in specs if s.reserved_for is not None]
        lobby_live.rematch_offered(table.id, old.id, _name(user), asked)
        return Joined(table, number, seat.token)


def rematch_offers(user: Any) -> QuerySet[Table]:
    """The waiting rematches with a seat kept for this user, newest first (what the socket's
    `rematch_offered` said, for a page or a program that was not listening). Run
    `expire_waiting` first where nothing else did (My games' `my_tables` does)."""
    if not getattr(user, "is_authenticated", False):
        return Table.objects.none()
    kept = Seat.objects.filter(reserved_for=user, user__isnull=True).values("table_id")
    return (
        Table.objects.filter(pk__in=kept, status=WAITING, rematch_of__isnull=False)
        .defer("state", "record")
        .order_by("-created_at", "-pk")
    )


def decline_rematch(user: Any, table_id: str) -> Table:
    """Say no to a rematch: a player it waits for (or one already seated at it) cancels it, as
    a rematch is for the same players; its other players are told. `409` once it started or for
    a table that is not a waiting rematch, `403` for anyone it does not concern."""
    _account(user)
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        if not any(user.pk in (s.user_id, s.reserved_for_id) for s in seats):
            raise LobbyError(403, gettext("This rematch is not waiting for you."))
        if table.rematch_of_id is None or table.status != WAITING:
            raise LobbyError(409, gettext("This table is not a rematch waiting for players."))
        table.status = CANCELLED
        table.seats_rev += 1
        table.updated_at = timezone.now()
        table.save(update_fields=["status", "seats_rev", "updated_at"])
        _announce_waiting(table)
        others = [
            uid
            for s in seats
            for uid in (s.user_id, s.reserved_for_id)
            if uid is not None and uid != user.pk
        ]
        lobby_live.rematch_declined(table.id, table.rematch_of_id, _name(user), others)
        return table


def expire_waiting(now: datetime | None = None) -> int:
    """Cancel the tables that waited longer than `LOBBY_WAITING_EXPIRY` seconds for players;
    returns how many. Idempotent and safe beside a join (each is cancelled only if still
    waiting, after any join holding its row)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=waiting_expiry())
    # A turn-based table waits for its players by the day too (LOBBY_TURN_BASED_EXPIRY).
    by_day = now - timedelta(seconds=int(getattr(settings, "LOBBY_TURN_BASED_EXPIRY", 7 * DAY)))
    old = Q(seconds_per_move__lt=DAY, created_at__lt=cutoff) | Q(
        seconds_per_move__gte=DAY, created_at__lt=by_day
    )
    due = list(Table.objects.filter(old, status=WAITING).values_list("id", flat=True)[:500])
    if not due:
        return 0
    cancelled = 0
    for table_id in due:
        with transaction.atomic():
            done = Table.objects.filter(pk=table_id, status=WAITING).update(
                status=CANCELLED, seats_rev=F("seats_rev") + 1, updated_at=now
            )
            if done:
                cancelled += 1
                table = Table.objects.defer("state", "record").get(pk=table_id)
                _announce_waiting(table)
    return cancelled
