"""The client networks an account is seen on, as keyed hashes (docs/fair-play.md).

Two accounts of one person usually play from one network. The flags need only to know that two
accounts share one, never which: each network (an IPv4 /24, an IPv6 /64) is stored as an HMAC
keyed with the site's secret, so the table of networks names no address and cannot be reversed
by trying every address without the key. Noted once per session and network by
`note_login`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.utils.crypto import salted_hmac

from accounts.client_address import request_client_address
from league.models import ClientNetwork
from league.services.players import player_for_user

SALT = "mediana.fairplay.network"


def network_digest(address: str | None) -> str | None:
    """The keyed hash of the network of `address` (a client address key), None if unknown."""
    if not address:
        return None
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    prefix = 24 if parsed.version == 4 else 64
    network = ipaddress.ip_network((parsed, prefix), strict=False)
    return salted_hmac(SALT, str(network), algorithm="sha256").hexdigest()


def note_network(player_id: int, digest: str) -> None:
    """Remember that the player's account was seen on the network `digest` (now: `last_seen`
    is stamped on every save)."""
    ClientNetwork.objects.update_or_create(player_id=player_id, digest=digest)


def note_login(request: Any, user: Any) -> None:
    """At each log-in (`user_logged_in`): note the network the account logs in from. At log-in,
    not on every request, so the pages' query counts do not change; a device logs in anew on a
    new network often enough for the pattern (two accounts, one network) to show."""
    digest = network_digest(request_client_address(request)) if request is not None else None
    if digest is None:
        return
    note_network(player_for_user(user).pk, digest)
