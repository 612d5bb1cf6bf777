"""Challenges: invite one person by name to a table (docs/lobby.md, "Challenges").

The challenger names a game, a pace, rated or casual, and whether bots take the other seats or
they stay open. The challenged is told live (`challenge`) and sees it in the lobby and My games;
accepting makes the table (both in random seats; it plays at once, or waits for its open seats
like any lobby table), declining tells the challenger, the challenger may withdraw, and a
challenge unanswered for `CHALLENGE_EXPIRY` seconds (default 600) expires (both are told).

Names are matched without regard to case (as sign-up keeps them unique). Nobody challenges
themselves, a bot account, or someone unknown; one pending challenge between the same two
people at a time. Every answer locks the challenge's row and changes it only while pending, so
an accept racing a decline, a withdrawal or the expiry makes one answer and at most one table.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.guests import is_guest
from accounts.names import tidy
from gameplay import paces
from gameplay.clock import DAY, is_turn_based
from gameplay.models import Challenge
from gameplay.services import live, meeting
from gameplay.services.lobby import LobbyError
from gameplay.signals import announce, challenge_made
from games import registry

PENDING = Challenge.Status.PENDING
ACCEPTED = Challenge.Status.ACCEPTED
DECLINED = Challenge.Status.DECLINED
WITHDRAWN = Challenge.Status.WITHDRAWN
EXPIRED = Challenge.Status.EXPIRED
LISTED_FOR = timedelta(hours=1)  # answered challenges stay in their people's lists this long
ANSWER_URL = "/play/#challenges"


def challenge_expiry() -> int:
    """Seconds a challenge waits for its answer."""
    return int(getattr(settings, "CHALLENGE_EXPIRY", 600))


def turn_based_expiry() -> int:
    """Seconds a turn-based challenge waits for its answer: its player answers by the day too."""
    return int(getattr(settings, "LOBBY_TURN_BASED_EXPIRY", 7 * DAY))


def _expired_q(now: datetime) -> Q:
    """The challenges past their wait: a live one after `CHALLENGE_EXPIRY`, a turn-based one
    after `LOBBY_TURN_BASED_EXPIRY`."""
    live_cutoff = now - timedelta(seconds=challenge_expiry())
    by_day_cutoff = now - timedelta(seconds=turn_based_expiry())
    return Q(seconds_per_move__lt=DAY, created_at__lte=live_cutoff) | Q(
        seconds_per_move__gte=DAY, created_at__lte=by_day_cutoff
    )


def _game_name(game: str) -> str:
    return registry.get_game(game).display_name


# --- reading ------------------------------------------------------------------------------------


def entry(ch: Challenge, viewer: Any) -> dict[str, Any]:
    """A challenge as its two people see it (nobody else reads one)."""
    return {
        "challenge": ch.id,
        "challenger": ch.challenger.get_username(),
        "challenged": ch.challenged.get_username(),
        "incoming": ch.challenged_id == getattr(viewer, "pk", None),
        "game": ch.game,
        "pace": ch.pace,
        "seconds_per_move": ch.seconds_per_move,
        "rated": ch.rated,
        "bots": ch.bots,
        "status": ch.status,
        "table": ch.table_id,
        "url": f"/tables/{ch.table_id}/" if ch.table_id else None,
        "created_at": ch.created_at.isoformat(),
        "expires_at": (ch.created_at + timedelta(seconds=_wait(ch))).isoformat(),
    }


def my_challenges(user: Any, *, expire: bool = True) -> QuerySet[Challenge]:
    """The user's challenges, both directions, newest first: pending ones and those answered in
    the last hour. `expire` closes the old ones first (a cheap page only leaves them out)."""
    if not getattr(user, "is_authenticated", False):
        return Challenge.objects.none()
    if expire:
        expire_challenges()
    now = timezone.now()
    recent = (Q(status=PENDING) & ~_expired_q(now)) | Q(answered_at__gte=now - LISTED_FOR)
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .filter(recent)
        .select_related("challenger", "challenged")
        .order_by("-created_at", "-id")
    )


def incoming(user: Any, *, expire: bool = True) -> QuerySet[Challenge]:
    """The challenges waiting for this user's answer."""
    return my_challenges(user, expire=expire).filter(challenged=user, status=PENDING)


def readable_challenge(user: Any, challenge_id: Any) -> Challenge:
    """A challenge of this user's (either side); `LobbyError(404)` otherwise."""
    meeting.account(user)
    found = None
    if isinstance(challenge_id, str) and len(challenge_id) <= 32:
        found = (
            Challenge.objects.filter(Q(challenger=user) | Q(challenged=user), pk=challenge_id)
            .select_related("challenger", "challenged")
            .first()
        )
    if found is None:
        raise LobbyError(404, gettext("There is no such challenge of yours."))
    return found


# --- writing ------------------------------------------------------------------------------------


def find_person(user: Any, name: Any) -> Any:
    """The account a challenge may go to, by its name in any case; `LobbyError` 400 (blank,
    yourself, a bot, a guest) or 404 (nobody of that name)."""
    if not isinstance(name, str) or not tidy(name):
        raise LobbyError(400, gettext("Give the name of the player to challenge."))
    wanted = tidy(name)
    person = get_user_model().objects.filter(username__iexact=wanted, is_active=True).first()
    if person is None:
        raise LobbyError(404, gettext("Nobody here is called %(name)s.") % {"name": wanted})
    if person.pk == user.pk:
        raise LobbyError(400, gettext("You cannot challenge yourself."))
    if getattr(person, "is_bot_account", False):
        raise LobbyError(
            400,
            gettext("%(name)s is a bot: start a table with bots instead.")
            % {"name": person.get_username()},
        )
    if is_guest(person):
        # A guest is passing through (docs/accounts.md, "Guests"): meet them by quick pairing.
        raise LobbyError(
            400,
            gettext("%(name)s plays as a guest and cannot be challenged by name.")
            % {"name": person.get_username()},
        )
    return person


def challenge(
    user: Any,
    *,
    player: Any,
    game: Any,
    pace: Any = paces.DEFAULT_PACE,
    rated: Any = True,
    bots: Any = True,
) -> Challenge:
    """Challenge `player` (a name) to a table; they are told at once."""
    meeting.account(user)
    person = find_person(user, player)
    meeting.checked_game(game)
    chosen = meeting.checked_pace(pace, turn_based=True)
    rated = meeting.checked_bool(rated, "rated")
    bots = meeting.checked_bool(bots, "bots")
    expire_challenges()
    try:
        with transaction.atomic():
            made = Challenge.objects.create(
                challenger=user,
                challenged=person,
                game=game,
                pace=chosen.name,
                seconds_per_move=chosen.seconds,
                rated=rated,
                bots=bots,
            )
            live.to_user(
                person.pk,
                {
                    "type": "challenge",
                    "challenge": made.id,
                    "by": user.get_username(),
                    "game": game,
                    "pace": chosen.name,
                    "url": ANSWER_URL,
                },
            )
            if is_turn_based(chosen.seconds):
                # Not expected to be here now: told by a notice (mail, push) after the commit.
                transaction.on_commit(lambda: _tell_absent(made, user.get_username()))
    except IntegrityError:
        raise LobbyError(
            409,
            gettext("You have challenged %(name)s already; wait for the answer.")
            % {"name": person.get_username()},
        ) from None
    return made


def _tell_absent(made: Challenge, by: str) -> None:
    """`challenge_made` to the site (the league's notice); a receiver that fails is only logged."""
    announce(
        challenge_made,
        "challenge_made",
        made.pk,
        ref_name="challenge_ref",
        user_id=made.challenged_id,
        by=by,
        game=made.game,
        pace=made.pace,
        url=ANSWER_URL,
    )


def _pending(user: Any, challenge_id: Any, *, side: str) -> Challenge:
    """The challenge locked, if it is this user's to answer (`side`: challenged or
    challenger) and still pending; else `LobbyError` 403/404/409. Call inside a transaction."""
    mine = readable_challenge(user, challenge_id)
    ch = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .get(pk=mine.pk)
    )
    if getattr(ch, f"{side}_id") != user.pk:
        if side == "challenged":
            raise LobbyError(403, gettext("Only the challenged player can answer a challenge."))
        raise LobbyError(403, gettext("Only the challenger can withdraw a challenge."))
    if ch.status == PENDING and _is_old(ch, timezone.now()):  # the sweep closes it
        raise LobbyError(409, gettext("This challenge has expired."))
    if ch.status != PENDING:
        raise LobbyError(409, gettext("This challenge has been answered already."))
    return ch


def _wait(ch: Challenge) -> int:
    """Seconds this challenge waits for its answer."""
    return turn_based_expiry() if is_turn_based(ch.seconds_per_move) else challenge_expiry()


def _is_old(ch: Challenge, now: datetime) -> bool:
    return ch.created_at <= now - timedelta(seconds=_wait(ch))


def _close(ch: Challenge, status: str, now: datetime) -> None:
    ch.status, ch.answered_at = status, now
    ch.save(update_fields=["status", "answered_at", "table"])
    for person in (ch.challenger_id, ch.challenged_id):
        live.to_user(person, {"type": "challenges"})


def accept(user: Any, challenge_id: Any) -> Challenge:
    """Accept a challenge made to you: the table is made (playing at once, or waiting for its
    open seats) and the challenger is taken to it."""
    meeting.account(user)
    with transaction.atomic():
        ch = _pending(user, challenge_id, side="challenged")
        table = meeting.people_table(
            ch.game,
            [ch.challenger, ch.challenged],
            seconds_per_move=ch.seconds_per_move,
            rated=ch.rated,
            bots=ch.bots,
        )
        ch.table = table
        _close(ch, ACCEPTED, timezone.now())
        if table.status == table.Status.PLAYING:
            meeting.tell_started(table, [ch.challenger_id, ch.challenged_id])
        else:
            name, url = user.get_username(), table.get_absolute_url()
            meeting.notice(
                ch.challenger,
                lambda: (
                    gettext("%(name)s accepted your challenge: the table waits for players.")
                    % {"name": name}
                ),
                url,
            )
    return ch


def decline(user: Any, challenge_id: Any) -> Challenge:
    """Decline a challenge made to you; the challenger is told."""
    meeting.account(user)
    with transaction.atomic():
        ch = _pending(user, challenge_id, side="challenged")
        _close(ch, DECLINED, timezone.now())
        name, game = user.get_username(), _game_name(ch.game)
        meeting.notice(
            ch.challenger,
            lambda: (
                gettext("%(name)s declined your %(game)s challenge.") % {"name": name, "game": game}
            ),
            ANSWER_URL,
        )
    return ch


def withdraw(user: Any, challenge_id: Any) -> Challenge:
    """Take back a challenge you made, while it waits for its answer."""
    meeting.account(user)
    with transaction.atomic():
        ch = _pending(user, challenge_id, side="challenger")
        _close(ch, WITHDRAWN, timezone.now())
    return ch


def expire_challenges(now: datetime | None = None) -> int:
    """Close the challenges unanswered for `CHALLENGE_EXPIRY` seconds; the challenger is told.
    How many."""
    now = now or timezone.now()
    due = list(
        Challenge.objects.filter(_expired_q(now), status=PENDING).values_list("pk", flat=True)[:500]
    )
    expired = 0
    for pk in due:
        with transaction.atomic():
            ch = (
                Challenge.objects.select_for_update()
                .select_related("challenger", "challenged")
                .filter(pk=pk, status=PENDING)
                .first()
            )
            if ch is None:
                continue
            _close(ch, EXPIRED, now)
            expired += 1
            name, game = ch.challenged.get_username(), _game_name(ch.game)
            meeting.notice(
                ch.challenger,
                lambda name=name, game=game: (
                    gettext("Your %(game)s challenge to %(name)s expired without an answer.")
                    % {"name": name, "game": game}
                ),
                ANSWER_URL,
            )
    return expired
