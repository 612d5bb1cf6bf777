"""Saichugen on a traveller: the game scores and their median."""

from __future__ import annotations

from typing import Any

from games.core.traveller import Gettext, dashes, notes


def outcome(summary: dict[str, Any], gettext: Gettext) -> str:
    """One finished deal (`deal_summary`) in a short translated line."""
    game = notes(summary)["game_scores"]
    return gettext("Game scores %(scores)s, the median %(median)s") % {
        "scores": dashes(game["scores"]),
        "median": game["median"],
    }
