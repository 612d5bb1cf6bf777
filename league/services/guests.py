"""The league's side of guests (accounts/guests.py): keeping their games, and deleting idle ones.

- **Signing up keeps the games** (`keep_games`, from the sign-up adapter): the guest's account row
  becomes the person's, so every seat stays theirs; the seats, the tables' records and states and
  the account's player (if one was made) are renamed from the guest name to the chosen one. A
  finished record then shows the new name: the games are the person's, and a guest name is no one
  to remember (spectators saw the guest name while it was played).
- **Idle guests go** (`delete_idle_guests`, beat's `league.delete_idle_guests`): a guest whose last
  log-in and last table are older than `GUEST_IDLE_DAYS` days, and who has no seat at a table that
  waits or is played, is deleted. Their seats leave the account but keep their name (the guest
  name) in the table and its record (`gameplay.api.anonymize_seats` under their own name); their
  player, if any, keeps its name and results without an account.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.skeleton import name_skeleton
from gameplay import api as gameplay
from league.models import Player

log = logging.getLogger(__name__)

# At most this many guests are deleted by one run (the next run goes on).
BATCH = 200


def keep_games(user: Any, guest_name: str) -> int:
    """After a guest signed up as `user` (the same row, now named by them): rename their seats,
    the tables' records and their player from `guest_name`. Returns the seats renamed. Call it
    in the sign-up's transaction."""
    name = user.get_username()
    with transaction.atomic():
        renamed = gameplay.rename_seats(user.pk, name)
        player = Player.objects.select_for_update().filter(user=user).first()
        if player is not None and player.name != name:
            # The sign-up form checked the name is free among players (league.profile.adapter).
            player.name, player.name_skeleton = name, name_skeleton(name)
            player.save(update_fields=["name", "name_skeleton"])
    log.info("guest %s signed up: %d seat(s) kept", guest_name, renamed)
    return renamed


def idle_days() -> int:
    return int(getattr(settings, "GUEST_IDLE_DAYS", 30))


def idle_guests(now: datetime | None = None) -> list[int]:
    """The guests to delete now (their ids): no log-in and no table of theirs touched for
    `GUEST_IDLE_DAYS` days, and no seat at a table that waits or is being played."""
    cutoff = (now or timezone.now()) - timedelta(days=idle_days())
    candidates = list(
        get_user_model()
        .objects.filter(is_guest=True)
        .annotate(seen=Coalesce("last_login", "date_joined"))
        .filter(seen__lt=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)[: BATCH * 2]
    )
    busy = gameplay.busy_accounts(candidates, cutoff)
    return [pk for pk in candidates if pk not in busy][:BATCH]


def delete_idle_guests(now: datetime | None = None) -> int:
    """Delete the idle guests (`idle_guests`), at most `BATCH` a run; returns how many. Each is
    checked again under its row's lock (a guest may sit down meanwhile)."""
    cutoff = (now or timezone.now()) - timedelta(days=idle_days())
    deleted = 0
    for user_id in idle_guests(now):
        with transaction.atomic():
            user = (
                get_user_model().objects.select_for_update().filter(pk=user_id, is_guest=True)
            ).first()
            if user is None or gameplay.busy_accounts([user_id], cutoff):
                continue
            gameplay.anonymize_seats(user.pk, user.get_username())
            user.delete()  # its player stays (SET_NULL), under the guest name
            deleted += 1
    if deleted:
        log.info("deleted %d idle guest(s)", deleted)
    return deleted
