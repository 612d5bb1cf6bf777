"""The engines' error classes.

Two kinds, as in Tabbycat's DrawUserError/DrawFatalError: the user's errors (an illegal action, a
bad variant, a malformed record) are shown to a person and change nothing; an ``EngineFault`` means
the engine reached a state its own rules forbid, which is a bug and should be logged loudly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The reason of an ``IllegalAction`` raised without one: a fallback, so no raise site can go
# without a code. Every raise site in the engines gives its own (tests/engines/test_why_not.py).
GENERIC_REASON = "illegal_action"


class EngineError(Exception):
    """Base class of every error a player or a record author can cause."""


class IllegalAction(EngineError):
    """An action the rules do not allow now; the message says why and the state is unchanged.

    ``reason`` is a stable code and ``params`` its figures (JSON), so a client can word the
    refusal in its own language (table-protocol.md, "Reasons on errors"); the message is the
    English text, kept exactly as records.md's error lines print it."""

    def __init__(
        self, message: str, reason: str = GENERIC_REASON, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.params: dict[str, Any] = dict(params) if params else {}

    @classmethod
    def because(cls, why: Mapping[str, Any]) -> IllegalAction:
        """The error for a reason ``{"code", "params", "message"}`` (``base.reason``): an engine
        refuses a card with the very reason its ``why_not`` gives for it."""
        return cls(why["message"], why["code"], why["params"])


class VariantError(EngineError):
    """An unknown variant flag, a value of the wrong JSON type or out of range."""


class RecordError(EngineError):
    """A malformed or illegal game record; the message is the one-line report of records.md."""


class EngineFault(Exception):
    """An impossible state: the engine broke its own invariants (a bug, never the user's fault)."""
