"""A table connection's limits: what it may send (messages and bytes a second) and how many
spectator sockets one client address may hold.

Rates (`GAMEPLAY_RATE_*`, `GAMEPLAY_BYTES_*`): two token buckets per connection. The message
bucket stops noise; the byte bucket stops a client that sends large frames, each legal (under
the frame cap, config/websocket_frames.py) but together megabytes a second. Play is never
limited: the consumer gives back what an applied action cost, in both buckets.

The spectator cap (`GAMEPLAY_SPECTATORS_PER_ADDRESS`): without it one address could open
thousands of spectator sockets and each costs the server memory. Seated sockets (a seat token,
or a seated session user) are never counted: a player always reaches their own table. The
client address is `accounts.client_address`'s, the same the log-in lockout and API throttles
use (X-Forwarded-For only from TRUSTED_PROXIES).

The count is per process, in memory: with several ASGI processes an address may hold the cap
on each of them. Every connect and disconnect of a process runs on its one event loop and
nothing awaits between the check and the count, so no lock is needed.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from django.conf import settings

from accounts.client_address import scope_client_address

# Close code of a spectator refused for its address's cap, sent right after the handshake
# (docs/tables.md); 4429 after HTTP 429, as 4403 (refused) follows 403.
TOO_MANY_SPECTATORS = 4429

_open: Counter[str] = Counter()


class TokenBucket:
    """Allow `rate` units a second on average with bursts of `burst` (per connection)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self, cost: float = 1) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def refund(self, cost: float = 1) -> None:
        self.tokens = min(self.burst, self.tokens + cost)


class SendRate:
    """What one connection may send: messages and bytes a second, each with its burst."""

    def __init__(self) -> None:
        self.messages = TokenBucket(
            float(settings.GAMEPLAY_RATE_PER_SECOND), float(settings.GAMEPLAY_RATE_BURST)
        )
        self.bytes = TokenBucket(
            float(settings.GAMEPLAY_BYTES_PER_SECOND), float(settings.GAMEPLAY_BYTES_BURST)
        )
        self.last_size = 0

    def refusal(self, size: int) -> str | None:
        """Why a frame of `size` bytes is refused (the `rate_limited` answer), or None."""
        self.last_size = 0
        if not self.messages.allow():
            return "too many messages; slow down"
        if not self.bytes.allow(size):
            return "too many bytes; slow down"
        self.last_size = size
        return None

    def refund(self) -> None:
        """Give back what the last frame cost: it turned out to be play, not noise."""
        self.messages.refund()
        self.bytes.refund(self.last_size)
        self.last_size = 0


def frame_size(text_data: str | None, bytes_data: bytes | None) -> int:
    """A frame's size on the wire, in bytes (a text frame is UTF-8)."""
    if text_data is not None:
        return len(text_data.encode("utf-8", "surrogatepass"))
    return len(bytes_data or b"")


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
