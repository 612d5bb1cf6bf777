"""The engines' error classes.

Two kinds, as in Tabbycat's DrawUserError/DrawFatalError: the user's errors (an illegal action, a
bad variant, a malformed record) are shown to a person and change nothing; an ``EngineFault`` means
the engine reached a state its own rules forbid, which is a bug and should be logged loudly.
"""


class EngineError(Exception):
    """Base class of every error a player or a record author can cause."""


class IllegalAction(EngineError):
    """An action the rules do not allow now; the message says why and the state is unchanged."""


class VariantError(EngineError):
    """An unknown variant flag, a value of the wrong JSON type or out of range."""


class RecordError(EngineError):
    """A malformed or illegal game record; the message is the one-line report of records.md."""


class EngineFault(Exception):
    """An impossible state: the engine broke its own invariants (a bug, never the user's fault)."""
