"""Saichugen: every revealed card is public and a commit says nothing of its card, so a world is
a uniform split of the unseen cards into the others' hands, their face-down commits to the
trick in progress and the unused 52nd card."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core.determiniser import Determiniser, History, Holding, Slots
from games.saichugen.engine import DECK, SaichugenMatch


class SaichugenDeterminiser(Determiniser):
    GAME = "saichugen"
    ENGINE = SaichugenMatch

    def slots(self, view: dict[str, Any]) -> Slots:
        me = view["seat"]
        known = {DECK.parse(c) for c in view["hand"]}
        for t in view["tricks"]:
            known.update(DECK.parse(c) for c in t["cards"])
        if view.get("my_commit"):
            known.add(DECK.parse(view["my_commit"]))
        counts: dict[Any, int] = {}
        for s in range(3):
            if s != me:
                counts[s] = view["hand_sizes"][s]
                if view["committed"][s]:
                    counts[("commit", s)] = 1
        counts["stock"] = 1
        return Slots([c for c in DECK.ids if c not in known], counts)

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        me = view["seat"]
        parse = DECK.parse
        now = [[parse(c) for c in view["hand"]] if s == me else holding[s][:] for s in range(3)]
        commit = [None, None, None]
        for s in range(3):
            if view["committed"][s]:
                commit[s] = parse(view["my_commit"]) if s == me else holding[("commit", s)][0]
        hands = [now[s] + [parse(t["cards"][s]) for t in view["tricks"]] for s in range(3)]
        actions = []
        for t in view["tricks"]:
            actions += [(s, {"act": "commit", "card": t["cards"][s]}) for s in range(3)]
        for s in range(3):
            if commit[s] is not None:
                hands[s].append(commit[s])
                actions.append((s, {"act": "commit", "card": DECK.code_of[commit[s]]}))
        yield History(hands, list(holding["stock"]), actions)


DETERMINISER = SaichugenDeterminiser()
