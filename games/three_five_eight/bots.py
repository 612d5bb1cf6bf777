"""3-5-8 bot: every trick over the target pays, every trick short costs — so take tricks.

Trump: the suit with the most length and honours. Discards and exchange gives: the lowest cards
of the shortest side suits (voids let trumps win later). Play: win a trick as cheaply as
possible when it can be won, else throw the lowest card; lead winners (the highest unplayed
card of a suit), else a low card of the longest side suit. Woburn: bid from counted tricks.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.common import by_act, seen_cards, suit_of
from games.core.bots.registry import register
from games.three_five_eight.engine import (
    SUITS,
    higher_in_suit,
    trick_winner,
)
from games.three_five_eight.engine import (
    card_strength as _strength,
)


def _suit_value(hand: list[str], suit: str) -> float:
    cards = [c for c in hand if suit_of(c) == suit]
    return len(cards) * 1.0 + sum(max(0, _strength(c) - 9) * 0.5 for c in cards)


def _estimated_tricks(hand: list[str]) -> float:
    """A rough trick count: honours plus length in the best suit as trumps."""
    est = 0.0
    for c in hand:
        est += {13: 1.0, 12: 0.7, 11: 0.35}.get(_strength(c), 0.0)
    best = max(SUITS, key=lambda s: _suit_value(hand, s))
    est += max(0, sum(1 for c in hand if suit_of(c) == best) - 3) * 0.8
    return est


def _throwaways(hand: list[str], trump: str | None, n: int) -> list[str]:
    """The `n` least useful cards: low cards of short non-trump suits first."""
    counts = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}

    def key(c: str) -> tuple[int, int, int]:
        is_trump = 1 if suit_of(c) == trump else 0
        return (is_trump, _strength(c) >= 12, counts[suit_of(c)] * 2 + _strength(c))

    return sorted(hand, key=key)[:n]


def _is_top(card: str, hand: list[str], gone: set[str]) -> bool:
    """No unplayed card of the suit outside my hand ranks higher."""
    return all(c in gone or c in hand for c in higher_in_suit(card))


@register("three_five_eight", "basic", "plays to its trick target by simple rules")
def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    acts = by_act(legal)
    hand = view["hand"]
    trump = view.get("trump")
    if "bid" in acts:
        est = _estimated_tricks(hand)
        bids = [e for e in acts["bid"] if e["tricks"] <= est]
        return dict(bids[0]) if bids else {"act": "pass"}
    if "trump" in acts:
        suit = max(SUITS, key=lambda s: _suit_value(hand, s))
        return {"act": "trump", "suit": suit}
    if "discard" in acts:
        entry = acts["discard"][0]
        return {"act": "discard", "cards": _throwaways(entry["from"], trump, entry["choose"])}
    if "give" in acts:
        entry = acts["give"][0]
        cards = sorted(entry["from"], key=_strength)[: entry["choose"]]
        return {"act": "give", "to": entry["to"], "cards": cards}
    plays = [e["card"] for e in acts.get("play", [])]
    if not plays:
        return dict(legal[0])
    return {"act": "play", "card": _play(view, plays, trump)}


def _play(view: dict[str, Any], plays: list[str], trump: str | None) -> str:
    trick = [t["card"] for t in view["trick"]]
    gone = seen_cards(view)
    hand = view["hand"]

    def is_trump(c: str) -> bool:
        return suit_of(c) == trump

    def cost(c: str) -> int:
        return _strength(c) + (20 if is_trump(c) else 0)

    if not trick:
        tops = [c for c in plays if _is_top(c, hand, gone) and not is_trump(c)]
        if tops:
            return max(tops, key=_strength)
        counts = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}
        side = [c for c in plays if not is_trump(c)] or plays
        return min(side, key=lambda c: (-counts[suit_of(c)], _strength(c)))
    winners = []
    for c in plays:
        if trick_winner([*trick, c], trump) == len(trick):
            winners.append(c)
    last = len(trick) == 2
    if winners:
        if last:
            return min(winners, key=cost)
        # Second to play: a winner that the last seat can hardly beat, cheapest first.
        safe = [c for c in winners if is_trump(c) or _is_top(c, hand, gone)]
        if safe:
            return min(safe, key=cost)
        return max(winners, key=cost) if len(winners) == len(plays) else min(winners, key=cost)
    return min(plays, key=cost)
