"""Schieberamsch on a traveller: a Grand Hand won or lost, or the Ramsch's kind, card points and
pushes."""

from __future__ import annotations

from typing import Any

from games.core.traveller import Gettext, dashes, notes, row


def outcome(summary: dict[str, Any], gettext: Gettext) -> str:
    """One finished deal (`deal_summary`) in a short translated line."""
    found = notes(summary)
    if summary["kind"] == "grand_hand":
        points = found["declarer_points"]["points"]
        params = {"seat": found["grand_hand"]["declarer"], "points": points}
        if points >= 61:
            return gettext("Grand Hand by seat %(seat)s, won with %(points)s card points") % params
        return gettext("Grand Hand by seat %(seat)s, lost with %(points)s card points") % params
    pushes = found["pushed"]["pushes"] if "pushed" in found else 0
    kinds = {
        "durchmarsch": gettext("Schieberamsch, a Durchmarsch"),
        "jungfrau": gettext("Schieberamsch with a Jungfrau"),
        "even": gettext("Schieberamsch, all three equal"),
    }
    line = kinds.get(summary["kind"], gettext("Schieberamsch"))
    points = row(summary, "card_points")
    if points:
        line = f"{line}: " + gettext("card points %(points)s") % {"points": dashes(points)}
    return f"{line}, " + gettext("the skat pushed %(n)s times") % {"n": pushes}
