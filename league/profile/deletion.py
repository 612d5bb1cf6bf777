"""Deleting an account: the person's data goes, the results they took part in stay.

What goes: the account row and with it its user name, e-mail (allauth's addresses and their
confirmations), password, API token, organizer role; its sessions; the log-in failures django-axes
noted under its user name; the player's name, club and country. What stays: the player, under an
anonymous unique name ("Deleted player 7f3a"), with every entry, result, ledger row and rating —
the other players' standings and ratings depend on them — and the table seats it held, renamed
too (through `gameplay.api.anonymize_seats`, the one door), including the names in the tables'
records and in the league's stored records and standings.

Refused while the account sits at a table that is not over (leave or finish it first) or is the
only organizer of an event (its matches would stop counting for the ratings, docs/ratings.md).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import authenticate, get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from league.errors import LeagueError
from league.models import Event, Player, Result, Seat, StandingsSnapshot
from league.services.standings import touch_standings

ANONYMOUS_PREFIX = "Deleted player"


def anonymous_name() -> str:
    """A name no player has, in any case: "Deleted player 7f3a" (longer if that is taken)."""
    for digits in (4, 4, 4, 6, 8, 12, 16):
        name = f"{ANONYMOUS_PREFIX} {secrets.token_hex(digits // 2)}"
        if not Player.objects.filter(name__iexact=name).exists():
            return name
    raise LeagueError("no free anonymous name")  # 2**64 names tried: not in this universe


def deletion_problems(user: Any) -> list[str]:
    """Why this account cannot be deleted now (empty: it can)."""
    problems = []
    tables = gameplay.unfinished_tables_of(user.pk)
    if tables:
        problems.append(
            _(
                "You sit at %(n)d table(s) that are not over yet: leave them, or finish or "
                "resign the games, first."
            )
            % {"n": len(tables)}
        )
    sole = (
        Event.objects.filter(pk__in=Event.objects.filter(organizers=user).values("pk"))
        .annotate(n=Count("organizers"))  # all of them: the filter above is a subquery
        .filter(n=1)
        .order_by("name")
        .values_list("name", flat=True)
    )
    names = list(sole[:5])
    if names:
        problems.append(
            _(
                "You are the only organizer of %(events)s: ask staff to take over, or add "
                "another organizer, first (an event nobody organizes stops counting for the "
                "ratings)."
            )
            % {"events": ", ".join(names)}
        )
    return problems


def check_password(request: Any, user: Any, password: str) -> None:
    """The account's own password, checked as a log-in is: failures count towards the lockout
    (django-axes sees `authenticate`), so the form is no way to guess it."""
    checked = authenticate(request, username=user.get_username(), password=password or "")
    if checked is None or checked.pk != user.pk:
        if getattr(request, "axes_locked_out", False):
            raise LeagueError(_("Too many wrong passwords: try again later."))
        raise LeagueError(_("That is not your password."))


def end_sessions(user_id: int) -> int:
    """Delete every stored session of the account (the database keeps them; a session engine
    without a table has nothing here to scan, and its sessions stop with the account row)."""
    engine = getattr(settings, "SESSION_ENGINE", "django.contrib.sessions.backends.db")
    if engine not in (
        "django.contrib.sessions.backends.db",
        "django.contrib.sessions.backends.cached_db",
    ):
        return 0
    from importlib import import_module

    store = import_module(engine).SessionStore
    ended = 0
    wanted = str(user_id)
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == wanted:
            store(session_key=session.session_key).delete()
            ended += 1
    return ended


def forget_login_failures(username: str) -> None:
    """django-axes' records under the user name (failed log-ins name it, as typed)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username__iexact=username).delete()


def anonymize_league_records(player: Player, name: str) -> list[int]:
    """The player's name in the league's stored records and standings; returns the events."""
    seats = Seat.objects.filter(player=player).values_list("fixture_id", "number")
    numbers: dict[int, list[int]] = {}
    for fixture_id, number in seats:
        numbers.setdefault(fixture_id, []).append(number)
    results = Result.objects.filter(fixture_id__in=list(numbers)).exclude(record=None)
    for result in results.only("pk", "fixture_id", "record"):
        players = result.record.get("players") if isinstance(result.record, dict) else None
        if isinstance(players, list):
            for n in numbers[result.fixture_id]:
                if n < len(players):
                    players[n] = name
            Result.objects.filter(pk=result.pk).update(record=result.record)
    events = set(
        Event.objects.filter(
            Q(entries__player=player)
            | Q(round_set__fixtures__seats__player=player)
            | Q(round_set__byes__player=player)
        ).values_list("pk", flat=True)
    )
    # The snapshots hold names: they go, and the next reader computes them afresh.
    StandingsSnapshot.objects.filter(event_id__in=events).delete()
    for event_id in events:
        touch_standings(event_id)
    return sorted(events)


def delete_account(request: Any, user: Any, *, password: str) -> Player | None:
    """Delete the logged-in account `user` (see the module docstring) after checking its
    password; returns its player as it stays, or None if it never had one."""
    if not getattr(user, "is_authenticated", False):
        raise LeagueError(_("Log in to delete your account."))
    # Outside the deletion's transaction: a wrong password's failure record must stay.
    check_password(request, user, password)
    return _delete(user)


@transaction.atomic
def _delete(user: Any) -> Player | None:
    account = get_user_model().objects.select_for_update().get(pk=user.pk)
    problems = deletion_problems(account)
    if problems:
        raise LeagueError(" ".join(problems))
    username = account.get_username()
    player = Player.objects.select_for_update().filter(user=account).first()
    name = anonymous_name()
    gameplay.anonymize_seats(account.pk, name)
    if player is not None:
        player.name, player.club, player.country = name, "", ""
        player.user, player.deleted_at = None, timezone.now()
        player.save(update_fields=["name", "club", "country", "user", "deleted_at"])
        anonymize_league_records(player, name)
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Player), object_id=str(player.pk)
        ).delete()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(get_user_model()), object_id=str(account.pk)
    ).delete()
    forget_login_failures(username)
    end_sessions(account.pk)
    # The row's delete takes with it (CASCADE) its API token, e-mail addresses, permissions,
    # groups and admin log entries; claim invitations and reports forget it (SET_NULL).
    account.delete()
    return player
