"""Claiming a player: an account takes over a player an organizer made before it existed.

lobby-api.md: "a name already held by a player without an account can be claimed only through an
invitation from an organizer of that player's events". An organizer of an event the player
entered (or staff) makes an invitation: a one-time link with an unguessable token, shown once to
the organizer to pass on; only the token's SHA-256 is stored. An account opens the link and
confirms; the player becomes the account's, with all its history (entries, results, ratings).

The account's own player — made at sign-up, with nothing in it — is deleted: an account that
has any league history (an entry, a seat, a bye, a result, a rating) cannot claim, because two
histories cannot be one player without rewriting the other players' matches. Nothing is lost:
what is deleted was empty. The account keeps its user name for logging in; its player name
becomes the claimed player's.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import (
    Bye,
    ClaimInvitation,
    Entry,
    LedgerEntry,
    Player,
    PlayerReport,
    RatedMatch,
    Rating,
    RatingHistory,
    Seat,
)


class ClaimRefused(LeagueError):
    """An invitation that cannot be used (unknown, used, expired): `status` for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Invitation:
    """A new invitation and its token: the token exists only here, for the organizer's page."""

    invitation: ClaimInvitation
    token: str


def invitation_days() -> int:
    """How long an invitation link works (`CLAIM_INVITATION_DAYS`)."""
    return int(getattr(settings, "CLAIM_INVITATION_DAYS", 14))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def can_invite(user: Any, player: Player) -> bool:
    """Staff, and the organizers of an event the player entered."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(
        user.is_staff or Entry.objects.filter(player=player, event__organizers=user).exists()
    )


def claimable_problem(player: Player) -> str | None:
    """Why nobody can claim this player, or None."""
    if player.user_id is not None:
        return _("%(name)s already has an account.") % {"name": player.name}
    if player.is_builtin_bot:
        return _("%(name)s is a built-in bot.") % {"name": player.name}
    if player.deleted_at is not None:
        return _("%(name)s belonged to a deleted account.") % {"name": player.name}
    return None


@transaction.atomic
def invite_to_claim(player: Player, *, by: Any) -> Invitation:
    """A new one-time invitation to claim `player`; earlier unused ones stop working."""
    if not can_invite(by, player):
        raise PermissionDenied(
            _("Only an organizer of this player's events may invite someone to claim them.")
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    problem = claimable_problem(player)
    if problem:
        raise LeagueError(problem)
    ClaimInvitation.objects.filter(player=player, used_at__isnull=True).delete()
    token = secrets.token_urlsafe(32)
    invitation = ClaimInvitation.objects.create(
        player=player,
        token_hash=token_hash(token),
        created_by=by,
        expires_at=timezone.now() + timedelta(days=invitation_days()),
    )
    return Invitation(invitation, token)


def open_invitation(token: str, *, lock: bool = False) -> ClaimInvitation:
    """The usable invitation with this token (its player loaded), or ClaimRefused; `lock`
    holds its row until the transaction ends (call inside one)."""
    rows = ClaimInvitation.objects.filter(token_hash=token_hash(token or ""))
    if lock:
        rows = rows.select_for_update(of=("self",))
    invitation = rows.select_related("player").first()
    if invitation is None:
        raise ClaimRefused(_("This invitation link is not valid."), status=404)
    if invitation.used_at is not None:
        raise ClaimRefused(_("This invitation has been used already."), status=410)
    if invitation.expires_at <= timezone.now():
        raise ClaimRefused(
            _("This invitation has expired: ask the organizer for a new one."), status=410
        )
    return invitation


def history_of(player: Player) -> list[str]:
    """What the league holds of this player (empty: nothing is lost by deleting it)."""
    held = [
        (Entry, _("event entries")),
        (Seat, _("seats at event tables")),
        (Bye, _("byes")),
        (LedgerEntry, _("results")),
        (Rating, _("ratings")),
        (RatingHistory, _("rated matches")),
    ]
    found = [label for model, label in held if model.objects.filter(player=player).exists()]
    # A match that never counted (or is not rated yet) names the player without a history row.
    # `icontains` on the JSON text works on every backend; the ids are then compared exactly.
    uncounted = RatedMatch.objects.filter(Q(counts=False) | Q(rated_at__isnull=True)).filter(
        players__icontains=str(player.pk)
    )
    if any(player.pk in ids for ids in uncounted.values_list("players", flat=True).iterator()):
        found.append(_("rated matches"))
    return sorted(set(found))


@transaction.atomic
def claim_player(user: Any, token: str) -> Player:
    """The account takes over the invitation's player (see the module docstring); returns it.

    Authorization is holding the token while logged in: the invitation names no account, as
    the organizer passes the link on to the person it means.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise PermissionDenied(_("Log in to claim a player."))
    # Locks, in this order everywhere: the account (two claims by one account apply one after
    # the other), the invitation (it works once), the player (it gets one account).
    account = get_user_model().objects.select_for_update().get(pk=user.pk)
    invitation = open_invitation(token, lock=True)
    if account.is_bot_account:
        raise LeagueError(_("A bot account cannot claim a person's player."))
    target = Player.objects.select_for_update().get(pk=invitation.player_id)
    problem = claimable_problem(target)
    if problem:
        raise LeagueError(problem)
    own = Player.objects.select_for_update().filter(user=account).first()
    if own is not None:
        held = history_of(own)
        if held:
            raise LeagueError(
                _(
                    "Your account has a history of its own (%(held)s), so it cannot take over "
                    "another player. Ask staff if the two should be one."
                )
                % {"held": ", ".join(held)}
            )
        # Reports about the account's conduct follow the account to its new player.
        PlayerReport.objects.filter(player=own).update(player=target)
        own.delete()
    target.user = account
    target.save(update_fields=["user"])
    now = timezone.now()
    ClaimInvitation.objects.filter(pk=invitation.pk).update(used_at=now, used_by=account)
    ClaimInvitation.objects.filter(player=target, used_at__isnull=True).delete()
    return target
