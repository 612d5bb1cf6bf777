"""The league's two kinds of error (as Tabbycat's DrawUserError / DrawFatalError).

`LeagueError` is the organizer's or player's mistake: shown to them, nothing changed.
`LeagueFault` is an impossible state (a broken invariant): a bug, logged loudly.
"""


class LeagueError(Exception):
    """A request the rules of the event refuse; the message says why."""


class LeagueFault(Exception):
    """An invariant of the league's data was about to break."""


class LeagueConflict(LeagueError):
    """A request that needs the caller's explicit say-so first (publishing a round also
    publishes its draft event; an import names players who exist): the API answers 409, the
    pages ask for a confirmation. Nothing was changed."""


class ResultChanged(LeagueError):
    """The table's result changed while the person was entering theirs (another organizer, a
    second click, the online table): theirs was not counted. `version` is the result counting
    now; the page shows it and keeps what they typed, to correct it if theirs is right."""

    def __init__(self, message: str, *, version: int) -> None:
        super().__init__(message)
        self.version = version
