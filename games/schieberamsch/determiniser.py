"""Schieberamsch: voids shown in play (a jack is a trump, of no suit), the skat's way (who
picked it up, what the seat itself took and put back, no jack pushed on unless the flag allows
it) and a Grand Hand's untouched skat.

A world says where the unseen cards are now: the other hands and the skat. Its history: a seat
that picked up took the skat of that moment and put back the next one. Where the seat does not
know an intermediate skat (two other seats picked up in a row), the candidates are tried in
turn, the return of the same two cards first; the original skat before any pickup is the first
picker's (it took and returned it), which every world allows."""

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
from games.schieberamsch.engine import DECK, SchieberamschMatch, follow_suit

SKAT = "skat"


def _pickups(view: dict[str, Any]) -> list[int]:
    return [m["seat"] for m in view["skat_moves"] if m["act"] == "pickup"]


def _pending(view: dict[str, Any]) -> bool:
    """A pickup whose two cards are not put back yet."""
    return view["phase"] == "discard"


class SchieberamschDeterminiser(Determiniser):
    GAME = "schieberamsch"
    ENGINE = SchieberamschMatch

    def _mine(self, view: dict[str, Any]) -> tuple[list[int], list[int] | None]:
        seen = view.get("skat_seen")
        if not seen:
            return [], None
        put = [DECK.parse(c) for c in seen["put"]] if seen["put"] else None
        return [DECK.parse(c) for c in seen["taken"]], put

    def slots(self, view: dict[str, Any]) -> Slots:
        me = view["seat"]
        parse = DECK.parse
        known = {parse(c) for c in view["hand"]}
        tricks = trick_cards(view, 3)
        n_played = 0
        void: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
        for _leader, cards in tricks:
            led = follow_suit(cards[0][1])
            for seat, code in cards:
                known.add(parse(code))
                n_played += 1
                if follow_suit(code) != led:
                    void[seat].add(led)
        pickups = _pickups(view)
        _taken, put = self._mine(view)
        skat_size = 32 - sum(view["hand_sizes"]) - n_played
        known_skat: list[int] = []
        after_me: list[int] = []
        if put is not None:
            last = max(i for i, s in enumerate(pickups) if s == me)
            after_me = pickups[last + 1 :]
            if not after_me:
                known_skat = put
        known.update(known_skat)
        counts: dict[Any, int] = {s: view["hand_sizes"][s] for s in range(3) if s != me}
        counts[SKAT] = skat_size - len(known_skat)
        jack_free = bool(pickups) and not _pending(view) and not view["variant"]["jacks_in_skat"]
        pool = [c for c in DECK.ids if c not in known]
        allowed = {}
        for c in pool:
            cls = follow_suit(DECK.code_of[c])
            ok = {s for s in counts if s != SKAT and cls not in void[s]}
            if not (jack_free and cls == "J"):
                ok.add(SKAT)
            if put is not None and c in put:  # what the seat put back went on to later pickers
                ok &= {SKAT, *after_me}
            allowed[c] = frozenset(ok)
        return Slots(pool, counts, allowed)

    def histories(self, view: dict[str, Any], holding: Holding) -> Iterator[History]:
        me = view["seat"]
        parse, codes = DECK.parse, DECK.codes
        tricks = trick_cards(view, 3)
        full = dealt_hands(view, holding, tricks, parse, 3)
        pickups = _pickups(view)
        pending = _pending(view)
        k = len(pickups)
        taken, put = self._mine(view)
        # skats[j]: the skat after the j-th pickup (skats[0] the original); None: unknown
        skats: list[frozenset[int] | None] = [None] * (k + 1)
        for j, s in enumerate(pickups, start=1):
            if s == me:
                skats[j - 1] = frozenset(taken)
                if put is not None:
                    skats[j] = frozenset(put)
        if pending:
            skats[k] = frozenset()  # the pending pickup has put nothing back yet
        elif pickups and pickups[-1] == me:
            skats[k] = frozenset(put or [])
        else:
            skats[k] = frozenset(holding.get(SKAT, []))
        no_jacks = not view["variant"]["jacks_in_skat"]

        def fits(chain: list[frozenset[int]]) -> bool:
            for j, s in enumerate(pickups, start=1):
                before = chain[j - 1]
                if pending and j == k:
                    if not before <= full[s]:
                        return False
                    continue
                after = chain[j]
                if after & full[s] or not before <= full[s] | after:
                    return False
                if no_jacks and any(follow_suit(DECK.code_of[c]) == "J" for c in after):
                    return False
            return True

        def fill(j: int, chain: list[Any]) -> Iterator[list[frozenset[int]]]:
            """Fill the unknown skats from the last one back, the next picker's return of
            the same two cards first."""
            if j < 0:
                if fits(chain):
                    yield chain
                return
            if chain[j] is not None:
                yield from fill(j - 1, chain)
                return
            picker = pickups[j]  # the (j+1)-th pickup took skats[j]
            nxt = chain[j + 1]
            first = [nxt] if nxt else []
            universe = sorted(full[picker] | nxt)
            rest = [frozenset(p) for p in combinations(universe, 2)]
            for cand in first + [c for c in rest if c not in first]:
                filled = chain[:]
                filled[j] = cand
                yield from fill(j - 1, filled)
                if j == 0 and first:
                    return  # the original skat: the identity serves whenever anything does

        chains = fill(k, skats)
        for chain in chains:
            hands: dict[int, set[int]] = {s: set(full[s]) for s in range(3)}
            for j, s in enumerate(pickups, start=1):
                if pending and j == k:
                    hands[s] -= chain[j - 1]
                else:
                    hands[s] = (hands[s] | chain[j]) - chain[j - 1]
            actions: list[tuple[int, dict[str, Any]]] = [
                (o["seat"], {"act": o["act"]}) for o in view["offers"]
            ]
            j = 0
            for mv in view["skat_moves"]:
                actions.append((mv["seat"], {"act": mv["act"]}))
                if mv["act"] == "pickup":
                    j += 1
                    if not (pending and j == k):
                        cards = ordered(chain[j], put, taken)
                        actions.append((mv["seat"], {"act": "discard", "cards": codes(cards)}))
            actions += [(d["seat"], {"act": d["act"]}) for d in view["doubles"]]
            for _leader, cards in tricks:
                actions += [(seat, {"act": "play", "card": code}) for seat, code in cards]
            stock = ordered(chain[0], taken)
            yield History([sorted(hands[s]) for s in range(3)], stock, actions)


DETERMINISER = SchieberamschDeterminiser()
