"""The standings' two kinds of error, subclasses of the league's so views catch them as usual.

`StandingsError` is the organizer's mistake (an unknown or repeated tie-break): shown to them.
`StandingsFault` means the loader handed us records that break the contract (a seat count other
than 3-4, payouts that do not sum to zero, a player who is not an entrant): a bug, logged loudly.
"""

from __future__ import annotations

from league.errors import LeagueError, LeagueFault


class StandingsError(LeagueError):
    """A standings configuration the organizer can fix; the message says how."""


class UnknownTiebreak(StandingsError):
    """A tie-break name that is not in the registry."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        self.name = name
        self.known = known
        super().__init__(
            f"“{name}” is not a tie-break Mediana knows; choose from: {', '.join(known)}."
        )


class StandingsFault(LeagueFault):
    """Records that contradict the standings contract (never the organizer's fault)."""


class DuplicateRecordError(StandingsFault, ValueError):
    """A duplicate section the loader should never build (payouts not zero-sum, a deal completed
    after its table stopped, …): a `StandingsFault`, and a `ValueError` for plain callers."""
