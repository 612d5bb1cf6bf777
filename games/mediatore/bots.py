"""Mediatore bot: bid from hand strength, call the missing top card, take the points.

Bid the contract the hand is worth if it is still open: Chiamo from a middling hand (the called
partner brings a 3 and the monte four more cards), Mediatore from a strong one, Solo only to
overbid with a very strong one; pass otherwise (thresholds measured, docs/bots.md). Call the
highest card it lacks in its longest suit. Discard low cards of short suits. In play: win a trick
that is worth it as cheaply as possible, lead winners (the highest unplayed card of a suit), else
play low.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.common import by_act, seen_cards, suit_of
from games.core.bots.registry import register
from games.mediatore.engine import SUITS, higher_in_suit, trick_winner
from games.mediatore.engine import card_strength as strength
from games.mediatore.engine import card_thirds as thirds


def hand_strength(hand: list[str]) -> float:
    """Tricks-and-points estimate: threes and twos take tricks, aces carry a point."""
    score = 0.0
    for c in hand:
        score += {"3": 2.0, "2": 1.3, "A": 1.2, "R": 0.4}.get(c[0], 0.0)
    for s in SUITS:
        n = sum(1 for c in hand if suit_of(c) == s)
        score += max(0, n - 3) * 0.6
    return score


# The least `hand_strength` at which declaring each contract pays the declarer, measured with
# this bot in every seat (docs/bots.md: the win rate of each contract made to order, by
# strength). Chiamo is cheap because the partner holds the called card (usually a 3) and the
# monte adds four cards; alone against three the hand must carry the deal. Mediatore gets the
# called card as well as the monte, so from its threshold on it beats both Chiamo (shared, for
# a fifth of the stake) and Solo; Solo is the overbid of a very strong hand. Solissimo and
# Arcisolissimo (no monte to take) never paid: the bot does not bid them.
BID_AT = {"chiamo": 5.5, "mediatore": 9.0, "solo": 11.0}


def bid(hand: list[str], bids: list[dict[str, Any]]) -> dict[str, Any]:
    """The cheapest legal contract the hand is worth — alone (Mediatore, then Solo) when it is
    worth Mediatore — else pass. Only contracts above the standing bid are legal, so a hand
    worth Chiamo passes once somebody bid, and a strong one overbids."""
    power = hand_strength(hand)
    worth = [c for c, at in BID_AT.items() if power >= at]
    if power >= BID_AT["mediatore"]:
        worth.remove("chiamo")
    legal = {entry["contract"]: entry for entry in bids}
    for contract in worth:
        if contract in legal:
            return dict(legal[contract])
    return {"act": "pass"}


def _is_top(card: str, hand: list[str], gone: set[str]) -> bool:
    return all(c in gone or c in hand for c in higher_in_suit(card))


def _low_cards(cards: list[str], hand: list[str], n: int, keep: str | None = None) -> list[str]:
    counts = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}
    pool = [c for c in cards if c != keep]
    return sorted(pool, key=lambda c: (thirds(c) * 3 + strength(c), counts[suit_of(c)]))[:n]


@register("mediatore", "basic", "bids on strong hands, signals and plays by simple rules")
def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    acts = by_act(legal)
    hand = view["hand"]
    if "bid" in acts:
        return bid(hand, acts["bid"])
    if "call" in acts:
        counts = {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}
        options = [e["card"] for e in acts["call"]]
        card = max(options, key=lambda c: (strength(c), counts[suit_of(c)]))
        return {"act": "call", "card": card}
    if "exchange" in acts:
        entry = acts["exchange"][0]
        discard = _low_cards(entry["discard"]["from"], hand, entry["discard"]["choose"])
        give = None
        if entry.get("give"):
            rest = [c for c in entry["give"]["from"] if c not in discard]
            give = _low_cards(rest, hand, 1)[0]
        return {"act": "exchange", "discard": discard, "give": give}
    if "discard" in acts:
        entry = acts["discard"][0]
        return {"act": "discard", "cards": _low_cards(entry["from"], hand, entry["choose"])}
    plays = sorted({e["card"] for e in acts.get("play", [])})
    if not plays:
        return {"act": "pass"} if {"act": "pass"} in legal else dict(legal[0])
    return {"act": "play", "card": _play(view, plays)}


def _side(view: dict[str, Any], seat: int) -> str:
    """'decl' or 'def' as far as this seat knows (a secret partner looks like a defender)."""
    declarer = view.get("declarer")
    partner = view.get("partner")
    if seat == declarer or (partner is not None and seat == partner):
        return "decl"
    return "def"


def _play(view: dict[str, Any], plays: list[str]) -> str:
    trick = [t["card"] for t in view["trick"]]
    seats = [t["seat"] for t in view["trick"]]
    hand = view["hand"]
    gone = seen_cards(view)
    me = view["seat"]
    if not trick:
        tops = [c for c in plays if _is_top(c, hand, gone)]
        if tops:
            return max(tops, key=lambda c: (thirds(c), strength(c)))
        return min(plays, key=lambda c: (thirds(c), strength(c)))
    win_at = trick_winner(trick)
    friend_winning = _side(view, seats[win_at]) == _side(view, me)
    winners = [c for c in plays if trick_winner([*trick, c]) == len(trick)]
    last = len(trick) == 3
    if friend_winning and (last or _is_top(trick[win_at], hand, gone)):
        return max(plays, key=lambda c: (thirds(c), -strength(c)))  # add points to our trick
    if winners:
        at_stake = sum(thirds(c) for c in trick)
        safe = [c for c in winners if last or _is_top(c, hand, gone)]
        if safe and (at_stake > 0 or last or len(trick) >= 2):
            return min(safe, key=lambda c: (strength(c), thirds(c)))
        if safe:
            return min(safe, key=strength)
    return min(plays, key=lambda c: (thirds(c), strength(c)))
