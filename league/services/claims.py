"""Claiming a player: an account takes over a player an organizer made before it existed.

lobby-api.md: "a name already held by a player without an account can be claimed only through an
invitation from an organizer of that player's events". An organizer of a published event the
league trusts in which the player has a result (`vouching_events`), or staff, makes an
invitation: a one-time link with an unguessable token, shown once to the organizer to pass on;
only the token's SHA-256 is stored. Entering someone else's player in one's own draft proves
nothing, so it is not enough (the audit, issue "Trust II"). Each organizer's pending invitation
lives on its own: a new one replaces only the same organizer's earlier one. An account opens the
link, sees the events that vouch for it, and confirms; the player becomes the account's, with
all its history (entries, results, ratings), and every other pending invitation to claim it is
spent. An invitation whose organizer no longer vouches for the player cannot be used.

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
from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import LeagueError
from league.models import (
    Bye,
    ClaimInvitation,
    Entry,
    Event,
    LedgerEntry,
    Player,
    PlayerReport,
    RatedMatch,
    Rating,
    RatingHistory,
    Seat,
)
from league.services.permissions import trusted_events


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


def vouching_ledger(user: Any) -> QuerySet[LedgerEntry]:
    """The results that let `user` vouch for their players: in events the league trusts
    (`trusted_events`: published, owned by a holder of the organizer role) that `user`
    organizes. Entering someone else's player in one's own draft puts nothing here."""
    return LedgerEntry.objects.filter(event__in=trusted_events(), event__organizers=user)


def vouching_events(user: Any, player: Player) -> QuerySet[Event]:
    """The events that vouch for `user` inviting someone to claim `player`: the events of
    `vouching_ledger` in which the player has a result."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Event.objects.none()
    return Event.objects.filter(pk__in=vouching_ledger(user).filter(player=player).values("event"))


def can_invite(user: Any, player: Player) -> bool:
    """Staff, and an organizer with an event that vouches for it (`vouching_events`)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff or vouching_events(user, player).exists())


def can_invite_expression(user: Any, player_ref: str = "player_id") -> Exists | Value:
    """`can_invite` for the player of each row of a queryset (`player_ref`), in the same query:
    a list of entries offers an invitation only where it would be accepted."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Value(False)
    if user.is_staff:
        return Value(True)
    return Exists(vouching_ledger(user).filter(player_id=OuterRef(player_ref)))


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
    """A new one-time invitation from `by` to claim `player`; `by`'s own earlier unused one
    stops working, other organizers' stay as they are."""
    if not can_invite(by, player):
        raise PermissionDenied(
            _(
                "Only an organizer of a published event in which %(name)s has a result may "
                "invite someone to claim them."
            )
            % {"name": player.name}
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    problem = claimable_problem(player)
    if problem:
        raise LeagueError(problem)
    ClaimInvitation.objects.filter(player=player, created_by=by, used_at__isnull=True).delete()
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


def invitation_events(invitation: ClaimInvitation) -> list[Event]:
    """The events that vouch for the invitation today (`vouching_events` of its organizer),
    for the claim page to name; ClaimRefused when nobody vouches for it any more (its organizer
    left those events, lost the role or the account) — staff's own need none."""
    inviter = invitation.created_by
    events = list(vouching_events(inviter, invitation.player)) if inviter else []
    if not events and not (inviter and inviter.is_active and inviter.is_staff):
        raise ClaimRefused(
            _(
                "The organizer who made this invitation may no longer invite anyone to claim "
                "%(name)s: ask an organizer of their events for a new one."
            )
            % {"name": invitation.player.name},
            status=410,
        )
    return events


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
    # the other), the player (it gets one account; whoever writes its invitations holds it),
    # the invitation (it works once). The first read only finds the player: the invitation is
    # read again under the player's lock, where another claim may have spent it.
    account = get_user_model().objects.select_for_update().get(pk=user.pk)
    found = open_invitation(token)
    if account.is_bot_account:
        raise LeagueError(_("A bot account cannot claim a person's player."))
    target = Player.objects.select_for_update().get(pk=found.player_id)
    invitation = open_invitation(token, lock=True)
    invitation_events(invitation)
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
    # The other organizers' pending invitations are spent (kept, used by nobody).
    ClaimInvitation.objects.filter(player=target, used_at__isnull=True).update(used_at=now)
    return target
