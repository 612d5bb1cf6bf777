"""Paces: how long a person has for a move at a table, chosen by name.

Every friendly table has a pace (issue "Playing with people"). The live presets below are the
ones offered by "Play now", quick pairing and the lobby; turn-based paces (days a move) join the
same registry later. A table stores the seconds (`Table.seconds_per_move`) and the pace's name
(`Table.pace`), so changing a preset never changes a table already made.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

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

# A first game is relaxed: a newcomer reads the prompts before the clock takes the move.
DEFAULT_PACE = "relaxed"


def pace(name: str) -> Pace:
    """The pace called `name`, or KeyError naming the known ones."""
    return PACES.get(name)


def pace_of_seconds(seconds: int) -> str:
    """The name of the live pace with exactly these seconds, or "" (a custom clock)."""
    return next((p.name for p in PACES.values() if p.seconds == seconds), "")


def describe(name: str, seconds: int) -> str:
    """A table's clock in a person's words: "Relaxed · 90 s a move" for a pace, "30 s a move"
    for a custom clock, "no clock" for none (in the active language)."""
    if seconds <= 0:
        return gettext("no clock")
    per_move = gettext("%(s)s s a move") % {"s": seconds}
    found = PACES.find(name) if name else None
    if found is None or found.seconds != seconds:
        return per_move
    return f"{found.short or found.label} · {per_move}"
