"""Quick pairing: people seek a game at a pace and meet at a table (docs/lobby.md, "Seeks").

- A seek is (game, pace, rated or casual, "fill with bots after N seconds" or never). One open
  seek per person: seeking again replaces it. `cancel` withdraws it; after `SEEK_EXPIRY`
  seconds (default 600) it expires and the seeker is told.
- A seek lives only while its seeker reads it: every read of one's own seek (the waiting
  panel polls `GET /api/seeks/<id>/` every 2 to 10 s; the lobby page on load) is a heartbeat
  (`seen_at`). A seek unread for `SEEK_IDLE` seconds (default 90: a hidden tab's timers may
  slow to one a minute) is nobody waiting — its browser was closed — and is neither listed
  nor matched; the sweep closes it as `lapsed`, without a notice (nobody is there to read it).
- A pool is the open seeks of one game, pace and rated-ness. As soon as it holds as many people
  as the game has seats, the oldest of them meet at a table (seats in random order). When a
  seeker's bot wait has passed, they and the other seekers of the pool who accept bots
  (oldest first) meet at a table whose other seats `basic` bots take. Seekers who chose "never"
  wait for people only.
- Matching runs after each new seek commits and on every sweep (`sweep`, beat's
  `gameplay.sweep_seeks`, every two seconds; the embedded server runs it too), which is how a bot
  wait ends with time passing. It is race-free: the pool's open seeks are locked
  (`select_for_update`, in one order) and taken with a conditional UPDATE that must take them
  all, so two seekers arriving together make one table, never two; and since every seek's own
  run comes after its commit, the last of them sees all of them.
- A table made here is a lobby table like `create_friendly`'s: everyone deals once, the default
  rules, the pace's clock, rated when the seekers asked for rated (the pool is one rated-ness).
  Its people are told live (`table_started`); the lobby hears `seeks` when the pool changes.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.guests import is_guest
from gameplay import paces
from gameplay.models import Seek, Table
from gameplay.services import live, meeting
from gameplay.services.lobby import LobbyError
from games import registry

logger = logging.getLogger(__name__)

OPEN = Seek.Status.OPEN
MATCHED = Seek.Status.MATCHED
CANCELLED = Seek.Status.CANCELLED
EXPIRED = Seek.Status.EXPIRED
LAPSED = Seek.Status.LAPSED
BOT_WAITS = (None, 30, 60, 120)  # the choices: never, 30 s, 60 s, 2 min
MAX_ATTEMPTS = 5  # a pool's match retried after losing a race on a database without row locks


class _Lost(Exception):
    """Another run took one of the seeks first: roll back and look again."""


def seek_expiry() -> int:
    """Seconds a seek waits before it expires."""
    return int(getattr(settings, "SEEK_EXPIRY", 600))


def seek_idle() -> int:
    """Seconds a seek stays open unread before it counts as left (its heartbeat)."""
    return int(getattr(settings, "SEEK_IDLE", 90))


def _alive(now: datetime) -> Q:
    """Open seeks that are neither past their time nor left by their seeker, as of `now`."""
    return Q(
        status=OPEN,
        created_at__gt=now - timedelta(seconds=seek_expiry()),
        seen_at__gt=now - timedelta(seconds=seek_idle()),
    )


# --- reading ------------------------------------------------------------------------------------


def entry(seek: Seek, *, mine: bool = False) -> dict[str, Any]:
    """A seek as the API shows it. The table only to its seeker (`mine`): a table's id lets
    one watch it."""
    body: dict[str, Any] = {
        "seek": seek.id,
        "player": seek.user.get_username(),
        "game": seek.game,
        "pace": seek.pace,
        "seconds_per_move": seek.seconds_per_move,
        "rated": seek.rated,
        "bots_after": seek.bots_after,
        "status": seek.status,
        "created_at": seek.created_at.isoformat(),
        "expires_at": (seek.created_at + timedelta(seconds=seek_expiry())).isoformat(),
    }
    if mine:
        table = seek.table_id
        body["table"] = table
        body["url"] = f"/tables/{table}/" if table else None
        body["seats"] = registry.get_game(seek.game).seats
        body["waiting"] = waiting_in_pool(seek) if seek.status == OPEN else 0
    return body


def waiting_in_pool(seek: Seek) -> int:
    """How many people (this seeker too) wait in this seek's pool now."""
    return _pool(seek.game, seek.pace, seek.rated, timezone.now()).count()


def _pool(game: str, pace: str, rated: bool, now: datetime) -> QuerySet[Seek]:
    return Seek.objects.filter(_alive(now), game=game, pace=pace, rated=rated)


def open_seeks(*, expire: bool = True) -> QuerySet[Seek]:
    """Every open seek, oldest first (`GET /api/seeks/`, the lobby's list). No list shows a
    seek past its time between two sweeps: `expire` closes those first (and tells their
    seekers); a page that must stay cheap only leaves them out."""
    if expire:
        expire_seeks()
    return (
        Seek.objects.filter(_alive(timezone.now()))
        .select_related("user")
        .order_by("created_at", "id")
    )


def current_seek(user: Any) -> Seek | None:
    """The user's open seek (settled first: expired, or matched if its bot wait has passed);
    reading it is its heartbeat."""
    if not getattr(user, "is_authenticated", False):
        return None
    seek = Seek.objects.filter(user=user, status=OPEN).select_related("user").first()
    return settle(heard(seek)) if seek is not None else None


def heard(seek: Seek, now: datetime | None = None) -> Seek:
    """Its seeker has just read it: it stays alive (`seen_at`) unless it has lapsed already."""
    now = now or timezone.now()
    if seek.status == OPEN and seek.seen_at > now - timedelta(seconds=seek_idle()):
        Seek.objects.filter(pk=seek.pk, status=OPEN).update(seen_at=now)
        seek.seen_at = now
    return seek


def readable_seek(user: Any, seek_id: Any) -> Seek:
    """The user's own seek by id, settled (a polling client finds its table without a sweep);
    `LobbyError(404)` for anyone else's or none."""
    meeting.account(user)
    seek = None
    if isinstance(seek_id, str) and len(seek_id) <= 32:
        seek = Seek.objects.filter(pk=seek_id, user=user).select_related("user").first()
    if seek is None:
        raise LobbyError(404, gettext("There is no such seek of yours."))
    return settle(heard(seek))


def settle(seek: Seek, now: datetime | None = None) -> Seek:
    """An open seek after what time has done to it: expired, or matched when its pool can meet
    now. Others as they are."""
    if seek.status != OPEN:
        return seek
    now = now or timezone.now()
    if seek.created_at <= now - timedelta(seconds=seek_expiry()):
        expire_seeks(now)
    elif seek.seen_at <= now - timedelta(seconds=seek_idle()):
        lapse_seeks(now)
    else:
        match_pool(seek.game, seek.pace, seek.rated, now)
    seek.refresh_from_db()
    return seek


# --- writing ------------------------------------------------------------------------------------


def seek(
    user: Any,
    *,
    game: Any,
    pace: Any = paces.DEFAULT_PACE,
    bots_after: Any = None,
    rated: Any = True,
    now: datetime | None = None,
) -> Seek:
    """Seek a table with people: replaces the user's open seek, then looks for a match at once
    (the returned seek says `matched` and names its table when it found one)."""
    meeting.account(user)
    meeting.checked_game(game)
    chosen = meeting.checked_pace(pace)
    if bots_after not in BOT_WAITS or isinstance(bots_after, bool):
        choices = ", ".join("null" if w is None else str(w) for w in BOT_WAITS)
        raise LobbyError(
            400, gettext("bots_after must be one of: %(choices)s.") % {"choices": choices}
        )
    # A guest's table is never rated (docs/accounts.md, "Guests"): a guest seeks casual people,
    # and the rated pools stay rated.
    rated = meeting.checked_bool(rated, "rated") and not is_guest(user)
    for attempt in range(2):
        try:
            with transaction.atomic():
                _cancel_open(user, now)
                made = Seek.objects.create(
                    seen_at=now or timezone.now(),
                    user=user,
                    game=game,
                    pace=chosen.name,
                    seconds_per_move=chosen.seconds,
                    rated=rated,
                    bots_after=bots_after,
                )
                live.to_lobby({"type": "seeks"})
            break
        except IntegrityError:  # the same person seeking twice at once: one open seek
            if attempt:
                raise LobbyError(409, gettext("You are seeking already.")) from None
    # After its commit, so a seeker arriving at the same moment is seen by one of the two runs.
    match_pool(made.game, made.pace, made.rated, now)
    made.refresh_from_db()
    return made


def _cancel_open(user: Any, now: datetime | None) -> int:
    return Seek.objects.filter(user=user, status=OPEN).update(
        status=CANCELLED, closed_at=now or timezone.now()
    )


def cancel(user: Any, seek_id: Any) -> Seek:
    """Withdraw your own open seek; `409` once it was matched (go to its table) or closed."""
    meeting.account(user)
    seek = readable_seek(user, seek_id)
    with transaction.atomic():
        done = Seek.objects.filter(pk=seek.pk, status=OPEN).update(
            status=CANCELLED, closed_at=timezone.now()
        )
        if not done:
            seek.refresh_from_db()
            if seek.status == MATCHED:
                raise LobbyError(409, gettext("This seek has found its table already."))
            raise LobbyError(409, gettext("This seek is closed already."))
        live.to_lobby({"type": "seeks"})
    seek.refresh_from_db()
    return seek


# --- matching -----------------------------------------------------------------------------------


def group_to_seat(waiting: list[Seek], n_seats: int, now: datetime) -> list[Seek]:
    """Who meets now, from a pool's open seeks oldest first: the oldest `n_seats` when there
    are as many; else the first seeker whose bot wait has passed with the other seekers who
    accept bots (oldest first; bots take the seats left); else nobody. Pure."""
    if len(waiting) >= n_seats:
        return waiting[:n_seats]
    due = next(
        (
            s
            for s in waiting
            if s.bots_after is not None and s.created_at + timedelta(seconds=s.bots_after) <= now
        ),
        None,
    )
    if due is None:
        return []
    others = [s for s in waiting if s is not due and s.bots_after is not None]
    return sorted([due, *others[: n_seats - 1]], key=lambda s: (s.created_at, s.id))


def match_pool(game: str, pace: str, rated: bool, now: datetime | None = None) -> list[Table]:
    """Seat every group of this pool that can meet now; the tables made."""
    now = now or timezone.now()
    n_seats = registry.get_game(game).seats
    made: list[Table] = []
    attempts = 0
    while attempts < MAX_ATTEMPTS:
        try:
            with transaction.atomic():
                # Locked in one order by every run, so two runs never wait on each other twice.
                waiting = list(
                    _pool(game, pace, rated, now).select_for_update().order_by("created_at", "id")
                )
                group = group_to_seat(waiting, n_seats, now)
                if not group:
                    return made
                made.append(_seat(group, now))
        except _Lost:
            attempts += 1
    return made


def _seat(group: list[Seek], now: datetime) -> Table:
    """The group's table; the seeks matched to it, all or none (`_Lost`)."""
    first = group[0]
    users = [
        s.user for s in Seek.objects.filter(pk__in=[s.pk for s in group]).select_related("user")
    ]
    table = meeting.people_table(
        first.game, users, seconds_per_move=first.seconds_per_move, rated=first.rated
    )
    taken = Seek.objects.filter(pk__in=[s.pk for s in group], status=OPEN).update(
        status=MATCHED, table=table, closed_at=now
    )
    if taken != len(group):
        raise _Lost
    logger.info("seeks %s met at table %s", ",".join(s.pk for s in group), table.id)
    meeting.tell_started(table, [u.pk for u in users])
    live.to_lobby({"type": "seeks"})
    return table


# --- time ---------------------------------------------------------------------------------------


def expire_seeks(now: datetime | None = None) -> int:
    """Close the seeks older than `SEEK_EXPIRY` and tell each seeker; how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=seek_expiry())
    due = list(
        Seek.objects.filter(status=OPEN, created_at__lte=cutoff).select_related("user")[:500]
    )
    expired = 0
    for old in due:
        with transaction.atomic():
            if not Seek.objects.filter(pk=old.pk, status=OPEN).update(
                status=EXPIRED, closed_at=now
            ):
                continue
            expired += 1
            game = registry.get_game(old.game).display_name
            meeting.notice(
                old.user,
                lambda game=game: (
                    gettext("Nobody came for your %(game)s seek; it has expired. Seek again?")
                    % {"game": game}
                ),
                "/play/#people",
            )
    if expired:
        with transaction.atomic():
            live.to_lobby({"type": "seeks"})
    return expired


def lapse_seeks(now: datetime | None = None) -> int:
    """Close the open seeks nobody has read for `SEEK_IDLE` seconds (their seekers left);
    how many. No notice: the seeker is gone, and the lobby's list simply loses them."""
    now = now or timezone.now()
    with transaction.atomic():
        lapsed = Seek.objects.filter(
            status=OPEN, seen_at__lte=now - timedelta(seconds=seek_idle())
        ).update(status=LAPSED, closed_at=now)
        if lapsed:
            live.to_lobby({"type": "seeks"})
    return lapsed


def sweep(now: datetime | None = None) -> int:
    """What time does to seeks (beat's `gameplay.sweep_seeks`): expire the old ones, close the
    left ones, then seat every pool that can meet now (bot waits that have passed); the tables
    made."""
    now = now or timezone.now()
    expire_seeks(now)
    lapse_seeks(now)
    pools = set(Seek.objects.filter(status=OPEN).values_list("game", "pace", "rated").distinct())
    made = 0
    for game, pace, rated in sorted(pools):
        try:
            made += len(match_pool(game, pace, rated, now))
        except Exception:  # one pool's trouble (a game since removed) stops no other
            logger.exception("seek pool %s/%s/%s not matched", game, pace, rated)
    return made
