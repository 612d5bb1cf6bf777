"""3-5-8 on a traveller: the trump suit, the tricks against the targets, and a Woburn bid."""

from __future__ import annotations

from typing import Any

from games.core.traveller import Gettext, dashes, notes, row

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def outcome(summary: dict[str, Any], gettext: Gettext) -> str:
    """One finished deal (`deal_summary`) in a short translated line."""
    found = notes(summary)
    line = gettext("Trumps %(suit)s: tricks %(tricks)s against targets %(targets)s") % {
        "suit": SUITS.get(found["trump"]["suit"], found["trump"]["suit"]),
        "tricks": dashes(row(summary, "tricks")),
        "targets": dashes(found["targets"]["targets"]),
    }
    if "woburn" in found:
        bid = gettext("seat %(seat)s bid %(tricks)s") % {
            "seat": found["woburn"]["seat"],
            "tricks": found["woburn"]["tricks"],
        }
        line = f"{bid}; {line}"
    return line
