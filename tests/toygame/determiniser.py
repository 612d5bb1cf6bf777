"""Toy Tricks: every played card is public; a seat that did not follow suit holds none of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core.determiniser import Determiniser, History, Holding, Slots
from tests.toygame.engine import DECK, ToyMatch


def _played(view: dict[str, Any]) -> list[tuple[int, str]]:
    """Every card of the deal so far in play order, ``(seat, code)``."""
    out = []
    for t in view["tricks"]:
        out += [((t["leader"] + i) % 3, c) for i, c in enumerate(t["cards"])]
    out += [((view["leader"] + i) % 3, c) for i, c in enumerate(view["trick"])]
    return out


class ToyDeterminiser(Determiniser):
    GAME = "toy"
    ENGINE = ToyMatch

    def slots(self, view: dict[str, Any]) -> Slots:
        me = view["seat"]
        played = _played(view)
        known = {DECK.parse(c) for c in view["hand"]} | {DECK.parse(c) for _, c in played}
        others = frozenset(s for s in range(3) if s != me)
        void: dict[int, set[int]] = {s: set() for s in range(3)}
        for start in range(0, len(played), 3):
            trick = played[start : start + 3]
            led = DECK.suit(DECK.parse(trick[0][1]))
            for seat, code in trick[1:]:
                if DECK.suit(DECK.parse(code)) != led:
                    void[seat].add(led)
        pool = [c for c in DECK.ids if c not in known]
        allowed = {c: frozenset(s for s in others if DECK.suit(c) not in void[s]) for c in pool}
        counts = {s: view["hand_sizes"][s] for s in others}
        return Slots(pool, counts, allowed)

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        me = view["seat"]
        played = _played(view)
        hands = [
            [DECK.parse(c) for c in view["hand"]] if s == me else holding[s][:] for s in range(3)
        ]
        for seat, code in played:
            hands[seat].append(DECK.parse(code))
        actions = [(seat, {"act": "play", "card": code}) for seat, code in played]
        yield History([sorted(h) for h in hands], [], actions)


DETERMINISER = ToyDeterminiser()
