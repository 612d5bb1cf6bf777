"""The errors a client can cause at a table (protocol error codes); nothing was changed."""

from __future__ import annotations

from typing import Any

CODES = ("illegal", "stale", "not_your_turn", "bad_message", "rate_limited", "forbidden")


class TableError(Exception):
    """A refused action: `code` is one of the protocol's error codes, `message` says why.

    An `illegal` one also has the engine's `reason` (a stable code) and its `params`, which the
    `error` message carries beside `message` (table-protocol.md, "Reasons on errors")."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.params = params if params is not None else {}


class SeatsChanged(Exception):
    """The table's seats changed since the caller identified its connection (someone left,
    joined or resigned): who it is must be checked again before it is sent or does anything."""

    def __init__(self, seats_rev: int) -> None:
        super().__init__(f"the seats changed (revision {seats_rev})")
        self.seats_rev = seats_rev
