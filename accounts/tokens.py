"""The account's personal API token (rest_framework.authtoken): one per account, its key secret.

Whoever learnt an account's password could have fetched its token (`POST /api/token/`), so a new
password (by any path: accounts.models.User.save) ends the old token too.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token


def rotate_token(user: Any) -> None:
    """A new key for the account's token, the old one refused from now on. An account without a
    token gets none here: the profile or `POST /api/token/` makes one when it is first asked for."""
    if Token.objects.filter(user=user).delete()[0]:
        Token.objects.create(user=user)
