"""Helpers shared by the bots: turning legal templates into actions, reading a view.

No game rules here: trick winners, card strengths, points and payouts come from the engines' own
pure helpers (`games.<game>`), so a bot cannot drift from the rules it plays by.
"""

from __future__ import annotations

import random
from typing import Any


def expand_random(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action from one `legal` entry: templates get a uniformly random choice."""
    act = entry["act"]
    if act == "exchange":
        discard = rng.sample(entry["discard"]["from"], entry["discard"]["choose"])
        give = None
        if entry.get("give"):
            rest = [c for c in entry["give"]["from"] if c not in discard]
            give = rng.choice(rest)
        return {"act": "exchange", "discard": discard, "give": give}
    if "choose" in entry:
        action = {"act": act, "cards": rng.sample(entry["from"], entry["choose"])}
        if "to" in entry:
            action["to"] = entry["to"]
        return action
    return dict(entry)


def random_action(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal action: the baseline the bots are measured against."""
    return expand_random(rng.choice(legal), rng)


def by_act(legal: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The legal entries grouped by their `act`."""
    out: dict[str, list[dict[str, Any]]] = {}
    for entry in legal:
        out.setdefault(entry["act"], []).append(entry)
    return out


def suit_of(card: str) -> str:
    """The suit letter of a card code (records.md: rank, then suit). Which card beats which is
    the engine's to say: bots import each game's ``trick_winner`` and ``card_strength``."""
    return card[1]


def seen_cards(view: dict[str, Any]) -> set[str]:
    """Cards already played to tricks in the current deal, the current trick included."""
    seen = {c for t in view.get("played", []) for c in t["cards"]}
    seen |= {t["card"] for t in view.get("trick", [])}
    return seen
