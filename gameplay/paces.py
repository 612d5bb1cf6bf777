"""Paces: how long a person has for a move at a table, chosen by name.

Every friendly table has a pace (issue "Playing with people"). The live presets below are the
ones offered by "Play now", quick pairing and the lobby; the turn-based ones (days a move: "by the
day", docs/tables.md "Turn-based tables") are offered where a table is made to play with friends
(the lobby's "create table" and challenges), never by "Play now" or quick pairing. A table stores
the seconds (`Table.seconds_per_move`) and the pace's name (`Table.pace`), so changing a preset
never changes a table already made.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from gameplay.clock import DAY, is_turn_based
from games.core.named import Registry


@dataclass(frozen=True)
class Pace:
    """A named clock: `seconds` a move (0: no clock), and the words a person reads: `label`
    whole, `short` its name alone (a segmented choice shows the seconds beneath it)."""

    name: str
    seconds: int
    label: object  # a lazy translation
    turn_based: bool = False
    short: object = ""  # a lazy translation; "" falls back to `label`


PACES: Registry[str, Pace] = Registry("pace")

for _pace in (
    Pace("relaxed", 90, _("Relaxed (90 s a move)"), short=pgettext_lazy("pace", "Relaxed")),
    Pace("normal", 45, _("Normal (45 s a move)"), short=pgettext_lazy("pace", "Normal")),
    Pace("fast", 20, _("Fast (20 s a move)"), short=pgettext_lazy("pace", "Fast")),
):
    PACES.register(_pace.name, _pace)

for _pace in (
    Pace("1-day", DAY, _("1 day a move"), True, pgettext_lazy("pace", "1 day")),
    Pace("2-days", 2 * DAY, _("2 days a move"), True, pgettext_lazy("pace", "2 days")),
    Pace("3-days", 3 * DAY, _("3 days a move"), True, pgettext_lazy("pace", "3 days")),
    Pace("7-days", 7 * DAY, _("7 days a move"), True, pgettext_lazy("pace", "7 days")),
):
    PACES.register(_pace.name, _pace)

# A first game is relaxed: a newcomer reads the prompts before the clock takes the move.
DEFAULT_PACE = "relaxed"


def pace(name: str) -> Pace:
    """The pace called `name`, or KeyError naming the known ones."""
    return PACES.get(name)


def pace_of_seconds(seconds: int) -> str:
    """The name of the pace with exactly these seconds, or "" (a custom clock)."""
    return next((p.name for p in PACES.values() if p.seconds == seconds), "")


def live_paces() -> list[Pace]:
    """The paces of a table played in one sitting (seconds a move), in the registry's order."""
    return [p for p in PACES.values() if not p.turn_based]


def turn_based_paces() -> list[Pace]:
    """The paces of a table played by the day (days a move), in the registry's order."""
    return [p for p in PACES.values() if p.turn_based]


def friendly_paces() -> list[Pace]:
    """What a person chooses from when making a table to play with people: every pace."""
    return list(PACES.values())


def turn_based(seconds: int) -> bool:
    """Whether a table with this clock is played by the day (`clock.is_turn_based`)."""
    return is_turn_based(seconds)


def describe(name: str, seconds: int) -> str:
    """A table's clock in a person's words: "Relaxed · 90 s a move" for a pace, "30 s a move"
    for a custom clock, "no clock" for none (in the active language)."""
    if seconds <= 0:
        return gettext("no clock")
    if is_turn_based(seconds):
        days = seconds / DAY
        found = PACES.find(name) if name else None
        if found is not None and found.seconds == seconds:
            return str(found.label)
        return gettext("%(days)s days a move") % {"days": f"{days:g}"}
    per_move = gettext("%(s)s s a move") % {"s": seconds}
    found = PACES.find(name) if name else None
    if found is None or found.seconds != seconds:
        return per_move
    return f"{found.short or found.label} · {per_move}"
