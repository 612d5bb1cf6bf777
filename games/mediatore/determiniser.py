"""Mediatore: voids shown in play, signals (judged by the engine on the leader's hand in the
replay), the called card (the declarer could not hold it when he called it), the monte shown
(Mediatore, Solo) or seen (the declarer's own Chiamo, Solissimo), the open hand-over of the
called card and the hidden give-back.

A world says where the unseen cards are now: the other hands and the monte. Its history: the
declarer's discard is the monte of now; what he took with it is tried in turn where the seat
does not know it (Chiamo: the discard of the same four cards first, then every four of his
cards), as is the card he gave back (every card of the giver's)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from games.core.determiniser import (
    Determiniser,
    History,
    Holding,
    Slots,
    dealt_hands,
    ordered,
    trick_cards,
)
from games.mediatore.engine import DECK, SUIT_OF, MediatoreMatch

MONTE = "monte"


def _after_discard(view: dict[str, Any]) -> bool:
    return view["phase"] in ("play", "over")


class MediatoreDeterminiser(Determiniser):
    GAME = "mediatore"
    ENGINE = MediatoreMatch

    def _known_monte(self, view: dict[str, Any]) -> list[int] | None:
        """The monte of now, when the seat knows it."""
        monte = view["monte"]
        c = view["contract"]
        if monte["new"] is not None:
            return [DECK.parse(x) for x in monte["new"]]
        if c == "solissimo" and monte["seen"] is not None:
            return [DECK.parse(x) for x in monte["seen"]]
        if c in ("chiamo", "mediatore", "solo") and view["phase"] in ("discard", "exchange"):
            return []  # the declarer holds it
        return None

    def slots(self, view: dict[str, Any]) -> Slots:
        me = view["seat"]
        parse = DECK.parse
        known = {parse(c) for c in view["hand"]}
        void: dict[int, set[int]] = {s: set() for s in range(4)}
        n_played = 0
        for _leader, cards in trick_cards(view, 4):
            led = SUIT_OF[parse(cards[0][1])]
            for seat, code in cards:
                known.add(parse(code))
                n_played += 1
                if SUIT_OF[parse(code)] != led:
                    void[seat].add(led)
        monte_now = self._known_monte(view)
        monte_size = 40 - sum(view["hand_sizes"]) - n_played
        if monte_now is not None:
            known.update(monte_now)
        counts: dict[Any, int] = {s: view["hand_sizes"][s] for s in range(4) if s != me}
        counts[MONTE] = monte_size - (len(monte_now) if monte_now is not None else 0)
        pool = [c for c in DECK.ids if c not in known]
        shown = view["monte"]["shown"]
        shown_ids = {parse(c) for c in shown} if shown else set()
        d = view["declarer"]
        allowed = {}
        for c in pool:
            ok = {s for s in counts if s != MONTE and SUIT_OF[c] not in void[s]}
            ok.add(MONTE)
            if c in shown_ids and view["phase"] != "call":
                # the monte turned up went to the declarer; the Mediatore give-back may return one
                ok &= {d, MONTE, view["giver"]}
            allowed[c] = frozenset(ok)
        return Slots(pool, counts, allowed)

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        parse, codes, code = DECK.parse, DECK.codes, DECK.code_of
        tricks = trick_cards(view, 4)
        full = dealt_hands(view, holding, tricks, parse, 4)
        known_monte = self._known_monte(view)
        monte = view["monte"]
        orig = monte["shown"] or monte["seen"]
        orig_order = [parse(c) for c in orig] if orig else None
        new_order = [parse(c) for c in monte["new"]] if monte["new"] else None
        monte_now = set(known_monte or []) | set(holding.get(MONTE, []))
        actions: list[tuple[int, dict[str, Any]]] = []
        for b in view["bids"]:
            if b["act"] == "pass":
                actions.append((b["seat"], {"act": "pass"}))
            else:
                actions.append((b["seat"], {"act": "bid", "contract": b["contract"]}))
        contract, d, phase = view["contract"], view["declarer"], view["phase"]
        called = parse(view["called"]) if view["called"] else None
        if called is not None:
            actions.append((d, {"act": "call", "card": view["called"]}))
        play = []
        for leader, cards in tricks:
            signal = None
            for i, (seat, c) in enumerate(cards):
                a: dict[str, Any] = {"act": "play", "card": c}
                if i == 0:
                    signal = self._signal_of(view, leader, len(play))
                    if signal:
                        a["signal"] = signal
                play.append((seat, a))

        def deal(hands: dict[int, set[int]], stock: set[int], extra: list) -> History:
            dealt = ordered(stock, orig_order)
            return History([sorted(hands[s]) for s in range(4)], dealt, actions + extra + play)

        if contract is None or contract in ("solissimo", "arcisolissimo") or phase == "call":
            yield deal(full, monte_now, [])
            return
        hands = {s: set(full[s]) for s in range(4)}
        done = _after_discard(view)
        discard = ordered(monte_now, new_order)
        if contract == "solo":
            shown = {parse(c) for c in view["monte"]["shown"]}
            hands[d] = (hands[d] | (monte_now if done else set())) - shown
            extra = [(d, {"act": "discard", "cards": codes(discard)})] if done else []
            yield deal(hands, shown, extra)
            return
        if contract == "chiamo":
            pile = full[d] | (monte_now if done else set())
            extra = [(d, {"act": "discard", "cards": codes(discard)})] if done else []
            seen = view["monte"]["seen"]
            if seen is not None:
                options = [frozenset(parse(c) for c in seen)]
            else:
                first = [frozenset(monte_now)] if done else []
                options = first + [
                    frozenset(o) for o in combinations(sorted(pile), 4) if frozenset(o) not in first
                ]
            for orig in options:
                if not orig <= pile or (called in pile and called not in orig):
                    continue
                hands[d] = pile - orig
                yield deal(hands, orig, extra)
            return
        # mediatore: the monte shown, the called card handed over by the giver, one given back
        shown = {parse(c) for c in view["monte"]["shown"]}
        giver = view["giver"]
        if not done:
            if giver is not None:
                hands[d] = full[d] - shown - {called}
                hands[giver] = full[giver] | {called}
            else:
                hands[d] = full[d] - shown
            yield deal(hands, shown, [])
            return
        if giver is None:
            hands[d] = (full[d] | monte_now) - shown
            extra = [(d, {"act": "exchange", "discard": codes(discard), "give": None})]
            yield deal(hands, shown, extra)
            return
        known = view["given"]
        gives = [parse(known)] if known is not None else sorted(full[giver])
        for give in gives:
            hands = {s: set(full[s]) for s in range(4)}
            hands[giver] = (full[giver] - {give}) | {called}
            hands[d] = (full[d] | monte_now | {give}) - shown - {called}
            extra = [(d, {"act": "exchange", "discard": codes(discard), "give": code[give]})]
            yield deal(hands, shown, extra)

    @staticmethod
    def _signal_of(view: dict[str, Any], leader: int, index: int) -> str | None:
        """The signal of the trick whose lead is the ``index``-th card of the deal."""
        n = index // 4
        if n < len(view["played"]):
            return view["played"][n]["signal"]
        return view["signal"]


DETERMINISER = MediatoreDeterminiser()
