"""Mediatore on a traveller: the contract, its declarer, won or lost, the called card, a slam."""

from __future__ import annotations

from typing import Any

from games.core.traveller import Gettext, notes


def outcome(summary: dict[str, Any], gettext: Gettext) -> str:
    """One finished deal (`deal_summary`) in a short translated line."""
    found = notes(summary)
    contract, result = found["contract"], found["outcome"]
    params = {
        "contract": contract["contract"].capitalize(),
        "seat": contract["declarer"],
        "points": result["points"],
    }
    if result["won"]:
        line = gettext("%(contract)s by seat %(seat)s, won with %(points)s points") % params
    else:
        line = gettext("%(contract)s by seat %(seat)s, lost with %(points)s points") % params
    called = found.get("called")
    if called is not None:
        if called["holder"] < 0:
            where = gettext("called %(card)s, in the monte") % {"card": called["card"]}
        else:
            where = gettext("called %(card)s, held by seat %(seat)s") % {
                "card": called["card"],
                "seat": called["holder"],
            }
        line = f"{line} ({where})"
    if result.get("slam"):
        line = f"{line}, {gettext('a slam')}"
    return line
