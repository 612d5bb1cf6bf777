"""Toy Tricks' basic bot: win the trick as cheaply as it can, else throw its lowest card."""

from __future__ import annotations

import random
from typing import Any

from tests.toygame.engine import DECK


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    """Lead the highest card; when following, the lowest card that beats the trick, else the
    lowest card (a rank index: 0 is the ace)."""
    cards = sorted((DECK.parse(a["card"]) for a in legal), key=DECK.rank)
    if not view["trick"]:
        return {"act": "play", "card": DECK.code_of[cards[0]]}
    trick = [DECK.parse(c) for c in view["trick"]]
    led = DECK.suit(trick[0])
    best = min(DECK.rank(c) for c in trick if DECK.suit(c) == led)
    winners = [c for c in cards if DECK.suit(c) == led and DECK.rank(c) < best]
    pick = winners[-1] if winners else cards[-1]
    return {"act": "play", "card": DECK.code_of[pick]}
