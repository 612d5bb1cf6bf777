"""What a seat of a Toy Tricks match may know, and where every card lies (the conformance
suites' oracles, ``tests/engines/oracles.py``'s shape)."""

from __future__ import annotations

from games.core.base import Match
from tests.toygame.engine import DECK


def knowable(m: Match, seat: int | None) -> set[str]:
    """Its dealt hand and every card played in the deal."""
    hands, _, actions = m.log[m.deal_no]
    own = set(DECK.codes(hands[seat])) if seat is not None else set()
    return own | {a["card"] for a in actions}


def locations(m: Match) -> list[int]:
    """Every card once: in a hand, in the trick in progress or in a finished trick."""
    finished = [c for t in m.history for c in t[1:4]]
    return sorted([c for h in m.hands for c in h] + m.trick + finished)
