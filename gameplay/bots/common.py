"""Helpers shared by the bots: turning legal templates into actions, card ranks, tricks."""

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
    out: dict[str, list[dict[str, Any]]] = {}
    for entry in legal:
        out.setdefault(entry["act"], []).append(entry)
    return out


def suit_of(card: str) -> str:
    return card[1]


class Order:
    """A rank order, highest first (e.g. "AKQJT98765432"): `strength` grows with the rank."""

    def __init__(self, ranks: str) -> None:
        self.ranks = ranks

    def strength(self, card: str) -> int:
        return len(self.ranks) - self.ranks.index(card[0])


def trick_winner(cards: list[str], strength: Any, trump: Any = None, led: str | None = None) -> int:
    """Index of the winning card in `cards` (in play order): highest trump, else highest of
    the suit led. `strength(card)` ranks cards; `trump(card)` says whether a card is a trump."""
    led = led or suit_of(cards[0])
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best]
        if trump is not None and trump(c):
            if not trump(b) or strength(c) > strength(b):
                best = i
        elif (
            (trump is None or not trump(b))
            and suit_of(c) == led
            and suit_of(b) == led
            and strength(c) > strength(b)
        ):
            best = i
    return best


def seen_cards(view: dict[str, Any]) -> set[str]:
    """Cards already played to tricks in the current deal, the current trick included."""
    seen = {c for t in view.get("played", []) for c in t["cards"]}
    seen |= {t["card"] for t in view.get("trick", [])}
    return seen
