"""A cap on spectator sockets per client address (`GAMEPLAY_SPECTATORS_PER_ADDRESS`).

Without it one address could open thousands of spectator sockets and each costs the server
memory. Seated sockets (a seat token, or a seated session user) are never counted: a player
always reaches their own table. The client address is `accounts.client_address`'s, the same
the log-in lockout and API throttles use (X-Forwarded-For only from TRUSTED_PROXIES).

The count is per process, in memory: with several ASGI processes an address may hold the cap
on each of them. Every connect and disconnect of a process runs on its one event loop and
nothing awaits between the check and the count, so no lock is needed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

from accounts.client_address import scope_client_address

# Close code of a spectator refused for its address's cap, sent right after the handshake
# (docs/tables.md); 4429 after HTTP 429, as 4403 (refused) follows 403.
TOO_MANY_SPECTATORS = 4429

_open: Counter[str] = Counter()


class SpectatorSlot:
    """One admitted spectator socket's place in its address's count; release it once."""

    __slots__ = ("address",)

    def __init__(self, address: str | None) -> None:
        self.address = address

    def release(self) -> None:
        address, self.address = self.address, None
        if address is None:
            return
        _open[address] -= 1
        if _open[address] <= 0:
            del _open[address]


def admit_spectator(scope: dict[str, Any]) -> SpectatorSlot | None:
    """A slot for a spectator socket, or None when its address already holds the cap.

    A socket whose address is unknown (a Unix socket) is admitted uncounted: it cannot be told
    apart from any other, and counting all of them as one would cap every such spectator.
    """
    address = scope_client_address(scope)
    if address is None:
        return SpectatorSlot(None)
    if _open[address] >= settings.GAMEPLAY_SPECTATORS_PER_ADDRESS:
        return None
    _open[address] += 1
    return SpectatorSlot(address)


def open_spectators(address: str) -> int:
    """Spectator sockets this process holds for `address` (for tests and diagnostics)."""
    return _open.get(address, 0)
