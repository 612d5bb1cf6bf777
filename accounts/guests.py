"""Guests: a visitor plays at once under a guest name, unrated, and keeps the games by signing up.

A guest is an ordinary logged-in account (`User.is_guest`), so everything that works for an
account (joining tables, the table socket, My games, seeks) works for a guest without special
code. What differs is asked here, in one place, with `is_guest(user)`: a guest's tables are never
rated, and a guest cannot organize or enter events, make an API token or be challenged by name.

A guest's name is `Guest-` and four characters that cannot be misread ("Guest-7K3Q"); the prefix
is kept for guests, in any case (`guest_name_problem`: sign-up, the profile and an organizer's
entries refuse it), so a seat's name alone says it is a guest's (`is_guest_name`: the guest mark
at tables and in the lobby costs no query). Guests are made by `start_guest_session`, at most
`GUEST_ACCOUNTS_PER_HOUR` from one client address an hour (counted in the default cache, as
allauth's own limits are). Signing up turns the same row into a real account
(league.profile.adapter); idle guests are deleted (league.services.guests).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _

from accounts.client_address import request_client_address

GUEST_PREFIX = "Guest-"
# No 0/O, 1/I/L: a guest name read aloud across the table is typed right.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
NAME_LENGTH = 4
LONG_NAME_LENGTH = 6  # after a few collisions (many guests at once): a longer name
# The account backend of AUTHENTICATION_BACKENDS (a session names it; it must be one of them).
BACKEND = "allauth.account.auth_backends.AuthenticationBackend"
WINDOW_SECONDS = 3600


class GuestRefused(Exception):
    """No guest was made: `status` 429 (too many from this address), `detail` says why."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def is_guest(user: Any) -> bool:
    """Whether `user` is a logged-in guest (False for anonymous visitors and real accounts)."""
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_guest", False))


def is_guest_name(name: str | None) -> bool:
    """Whether a seat's or a player's name is a guest's: the prefix is kept for guests."""
    return bool(name) and str(name).casefold().startswith(GUEST_PREFIX.casefold())


def guest_name_problem(name: str) -> str | None:
    """Why a person may not choose `name` (it passes for a guest's), or None."""
    if is_guest_name(name.strip()):
        return _("Names beginning with “Guest-” are kept for guests.")
    return None


def new_guest_name(length: int = NAME_LENGTH) -> str:
    """A fresh guest name nobody holds, without regard to case ("Guest-7K3Q")."""
    users = get_user_model().objects
    for attempt in range(8):
        size = length if attempt < 4 else LONG_NAME_LENGTH
        name = GUEST_PREFIX + "".join(secrets.choice(ALPHABET) for _ in range(size))
        if not users.filter(username__iexact=name).exists():
            return name
    raise IntegrityError("no free guest name")  # 8 draws, 4 of ~887 million: not in practice


def guests_per_hour() -> int:
    return int(getattr(settings, "GUEST_ACCOUNTS_PER_HOUR", 30))


def _count_guest(address: str) -> int:
    """Count one more guest made from `address` in this hour's window; the count so far."""
    window = int(time.time() // WINDOW_SECONDS)
    key = f"guests:{address}:{window}"
    cache.add(key, 0, WINDOW_SECONDS + 60)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW_SECONDS + 60)
        return 1


def create_guest(address: str | None) -> Any:
    """A new guest account (no password, `is_guest`), or `GuestRefused(429)` when this address
    has made `GUEST_ACCOUNTS_PER_HOUR` guests this hour (a script cannot mint thousands)."""
    if _count_guest(address or "unknown") > guests_per_hour():
        raise GuestRefused(
            429,
            _("Too many guests were made from your address in the last hour: sign up or log in."),
        )
    model = get_user_model()
    for _attempt in range(3):
        user = model(username=new_guest_name(), is_guest=True)
        user.set_unusable_password()
        try:
            with transaction.atomic():  # another guest took the name at this moment: draw again
                user.save()
            return user
        except IntegrityError:
            continue
    raise IntegrityError("could not make a guest")


def start_guest_session(request: HttpRequest) -> Any:
    """Make a guest for this visitor and log them in (their session); returns the account. A
    visitor who is logged in already is kept as they are."""
    if request.user.is_authenticated:
        return request.user
    user = create_guest(request_client_address(request))
    login(request, user, backend=BACKEND)
    return user
