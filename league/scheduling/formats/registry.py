"""The formats an event may have, by name (the way Tabbycat chooses its draw managers).

`register` adds one; `get_format(name)` is how everything else (the planner, previews, the
league's services, model choices, forms, the API) finds it. Registration order is the order
forms offer them.
"""

from __future__ import annotations

import re

from games.core.named import Registry
from league.scheduling.errors import SchedulingError
from league.scheduling.formats.base import Format

# Event.format is a 12-character column; a lowercase name also reads well in the API.
_NAME = re.compile(r"[a-z][a-z0-9_]{0,11}")
FORMATS: Registry[str, Format] = Registry(
    "format",
    lambda name, known: SchedulingError(
        f"Unknown format {name!r}; choose one of {', '.join(known)}."
    ),
)


def register(fmt: Format) -> Format:
    """Offer `fmt` to events under its name; returns it."""
    name = getattr(fmt, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"a format's name is 1-12 lowercase letters, digits or _, not {name!r}")
    if name in FORMATS:
        raise ValueError(f"a format called {name!r} is registered already")
    return FORMATS.register(name, fmt)


def unregister(name: str) -> None:
    """Take a format back (tests that register one of their own)."""
    FORMATS.unregister(name)


def get_format(name: str) -> Format:
    """The format called `name`; an unknown name is a SchedulingError the organizer can read."""
    return FORMATS.get(name)


def formats() -> list[Format]:
    """Every registered format, in registration order."""
    return FORMATS.values()
