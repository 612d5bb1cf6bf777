"""The errors a client can cause at a table (protocol error codes); nothing was changed."""

from __future__ import annotations

CODES = ("illegal", "stale", "not_your_turn", "bad_message", "rate_limited", "forbidden")


class TableError(Exception):
    """A refused action: `code` is one of the protocol's error codes, `message` says why."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


class SeatsChanged(Exception):
    """The table's seats changed since the caller identified its connection (someone left,
    joined or resigned): who it is must be checked again before it is sent or does anything."""

    def __init__(self, seats_rev: int) -> None:
        super().__init__(f"the seats changed (revision {seats_rev})")
        self.seats_rev = seats_rev
