"""The one error the scheduler raises for bad input.

It subclasses ValueError so callers that already catch ValueError keep working, and carries a
message meant to be shown to the organizer as it is (Tabbycat's DrawUserError habit).
"""


class SchedulingError(ValueError):
    """The organizer asked for something the scheduler cannot do; nothing was planned."""
