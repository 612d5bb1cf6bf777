"""Toy Tricks on a traveller: the tricks each seat took."""

from __future__ import annotations

from typing import Any

from games.core.traveller import Gettext, dashes


def outcome(summary: dict[str, Any], gettext: Gettext) -> str:
    """One finished deal (`deal_summary`) in a short line (its texts are not in the catalogues)."""
    tricks = [seat["score"]["total"] for seat in summary["seats"]]
    return gettext("Tricks %(tricks)s") % {"tricks": dashes(tricks)}
