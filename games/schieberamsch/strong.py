"""Schieberamsch's `strong` level: the generic PIMC search, with the Grand Hand's announcements
gated by counting tricks (`games.schieberamsch.hand`).

Why a gate: the offer, kontra and re are decided with ten cards to play, and the search judges
them by rollouts of the basic bot in worlds drawn uniformly. Against that defence, and with the
announcement saying nothing about the declarer's cards in those worlds, a hopeless Grand Hand
(J♦ J♥ and one ace) looked good, and a kontra with nothing looked good against any Grand
(the issue "Bots a good player respects II": two Grand Hands lost with kontra, -38 each). A
Skat player counts his sure tricks instead; so does this level: below `low` sure tricks the
announcement is not offered to the search, from `high` on it is made without searching, and in
between the search decides (the hand is good enough that the rollouts' judgement is sound).
Every other decision (push or pick up, the discard, the play) is the generic search's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.bots import strong as generic
from games.core.bots.registry import register
from games.core.bots.search import Budget, Decision, searching
from games.schieberamsch.hand import defence_tricks, grand_tricks

# (low, high) sure tricks: below low the announcement is not made, from high on it is.
OFFER_GATE = (6.0, 8.5)  # a Grand Hand: ten tricks, 61 points needed
KONTRA_GATE = (4.5, 6.0)  # against a Grand the declarer thought good: most of its tricks
RE_GATE = (8.0, 9.5)  # only a Grand that cannot be lost doubles again

ANNOUNCEMENTS = {"grand_hand": "offer", "kontra": "kontra", "re": "re"}


def strength(view: dict[str, Any], act: str) -> float:
    """The sure tricks that back the announcement `act` (the declarer's or a defender's)."""
    hand = view["hand"]
    if act == "kontra":
        return defence_tricks(hand)
    return grand_tricks(hand, forehand=view["seat"] == view.get("forehand"))


def gate(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal list the search may choose from: an announcement the hand does not back is
    dropped, and one it backs beyond doubt is the only choice."""
    acts = {e["act"] for e in legal}
    announced = acts & ANNOUNCEMENTS.keys()
    if not announced:
        return legal
    act = announced.pop()
    low, high = {"offer": OFFER_GATE, "kontra": KONTRA_GATE, "re": RE_GATE}[ANNOUNCEMENTS[act]]
    tricks = strength(view, act)
    if tricks < low:
        return [e for e in legal if e["act"] != act]
    if tricks >= high:
        return [e for e in legal if e["act"] == act]
    return legal


def decide(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    budget: Budget | None = None,
    past: Sequence[dict[str, Any]] = (),
) -> Decision:
    """The gated search's decision with its figures (no worlds when the gate decided)."""
    allowed = gate(view, legal)
    if len(allowed) == 1 and not allowed[0].get("choose"):
        return Decision(dict(allowed[0]), 0, 0, [(dict(allowed[0]), 0.0)])
    return generic.decide(view, allowed, rng, budget=budget, past=past)


choose = register(
    "schieberamsch",
    "strong",
    "searches, and announces a Grand Hand, kontra or re only when it counts the tricks",
    searches=True,
)(searching(decide))
