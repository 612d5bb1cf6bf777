"""What a game's traveller line is made from: a finished deal's summary (`Match.deal_summary`).

Each game words one deal in one short line in its own package (`games/<game>/traveller.py`,
`outcome(summary, gettext)`), found through its spec (`GameSpec.traveller`); the table server
translates with the `gettext` it passes, so the words stay with the game and no shared file knows
a game's codes. These are the small readings they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Translates one English msgid (the caller's gettext: the pure package never imports Django).
Gettext = Callable[[str], str]


def dashes(values: list[int]) -> str:
    """Figures per seat, in seat order: ``16/0/0``."""
    return "/".join(str(v) for v in values)


def notes(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The summary's notes by their code."""
    return {n["code"]: n for n in summary.get("notes", [])}


def row(summary: dict[str, Any], code: str) -> list[Any]:
    """The values per seat of the summary's table row `code` ([] when there is none)."""
    return next((r["values"] for r in summary.get("table", []) if r["code"] == code), [])
