"""Schieberamsch bot: in a Ramsch, shed points and avoid tricks; in a Grand Hand, take them.

Offer a Grand Hand only with 7½ sure tricks as Skat players count them (`hand.grand_tricks`:
the top jacks, aces, tens beside them, length), say kontra with 5½ tricks against it and re
with 9½ (the defence a declarer must expect, and so the search's rollouts). Push the skat
unless the hand is dangerous (two or more unguarded aces/tens), then pick it up and discard
the two most dangerous cards. In play: under the winning card when possible (the highest card
that still loses), when void throw the most points, lead low cards of long suits.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.common import by_act, seen_cards
from games.core.bots.registry import register
from games.schieberamsch.engine import card_points as points
from games.schieberamsch.engine import card_strength as strength
from games.schieberamsch.engine import (
    follow_suit,
    higher_in_suit,
    trick_winner,
)
from games.schieberamsch.engine import is_trump as is_jack
from games.schieberamsch.hand import defence_tricks, grand_tricks

DECLARE_TRICKS = 7.5
KONTRA_TRICKS = 5.5
RE_TRICKS = 9.5


def _danger(card: str, hand: list[str]) -> float:
    """How likely this card takes a costly trick: high and short in its suit."""
    if is_jack(card):
        return 1.0 + strength(card)  # JD 9 … JC 12: a jack always is
    same = [c for c in hand if follow_suit(c) == follow_suit(card)]
    low = sum(1 for c in same if strength(c) <= 3)  # 9 8 7 protect
    return points(card) + strength(card) - 3.0 * low


@register("schieberamsch", "basic", "sheds points and pushes the skat by simple rules")
def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    acts = by_act(legal)
    hand = view["hand"]
    if "grand_hand" in acts:
        strong = grand_tricks(hand, forehand=view["seat"] == view.get("forehand"))
        return {"act": "grand_hand"} if strong >= DECLARE_TRICKS else {"act": "pass"}
    if "kontra" in acts:
        return {"act": "kontra"} if defence_tricks(hand) >= KONTRA_TRICKS else {"act": "pass"}
    if "re" in acts:
        return {"act": "re"} if grand_tricks(hand) >= RE_TRICKS else {"act": "pass"}
    if "pickup" in acts:
        dangerous = sum(1 for c in hand if _danger(c, hand) >= 14)
        return {"act": "pickup"} if dangerous >= 2 else {"act": "push"}
    if "discard" in acts:
        entry = acts["discard"][0]
        ranked = sorted(entry["from"], key=lambda c: _danger(c, hand), reverse=True)
        return {"act": "discard", "cards": ranked[: entry["choose"]]}
    plays = [e["card"] for e in acts.get("play", [])]
    if not plays:
        return dict(legal[0])
    me = view["seat"]
    grand = view.get("contract") == "grand_hand"
    if grand:
        declarer = view.get("declarer")
        return {"act": "play", "card": _play_grand(view, plays, me == declarer, declarer)}
    return {"act": "play", "card": _play_ramsch(view, plays)}


def _play_ramsch(view: dict[str, Any], plays: list[str]) -> str:
    trick = [t["card"] for t in view["trick"]]
    hand = view["hand"]
    if not trick:
        # Lead the lowest plain card, from the suit where it is safest; jacks last.
        plain = [c for c in plays if not is_jack(c)] or plays
        return min(plain, key=lambda c: (strength(c), points(c)))
    losers = [c for c in plays if trick_winner([*trick, c]) != len(trick)]
    following = any(follow_suit(c) == follow_suit(trick[0]) for c in plays)
    if losers:
        if not following:
            return max(losers, key=lambda c: (points(c), _danger(c, hand)))  # shed points
        return max(losers, key=strength)  # the highest card that still ducks
    # Every card wins (so far): take as few points as possible, keep low cards for later.
    if len(trick) == 2:
        return max(plays, key=lambda c: (-points(c), _danger(c, hand)))
    return min(plays, key=lambda c: (points(c), strength(c)))


def _play_grand(view: dict[str, Any], plays: list[str], declarer: bool, decl: int | None) -> str:
    trick = [t["card"] for t in view["trick"]]
    seats = [t["seat"] for t in view["trick"]]
    hand = view["hand"]
    gone = seen_cards(view)
    if not trick:
        jacks = [c for c in plays if is_jack(c)]
        if declarer and jacks:
            return max(jacks, key=strength)
        tops = [c for c in plays if not is_jack(c) and _is_top(c, hand, gone)]
        if tops:
            return max(tops, key=points)
        return min(plays, key=lambda c: (points(c), strength(c)))
    win_at = trick_winner(trick)
    partner_winning = not declarer and seats[win_at] != decl
    winners = [c for c in plays if trick_winner([*trick, c]) == len(trick)]
    # Fatten the partner's trick when the declarer cannot take it any more: he has played,
    # or the partner's card is the highest left (smearing before him would feed his trumps).
    safe = len(trick) == 2 or _is_top(trick[win_at], hand, gone)
    if partner_winning and safe and (len(trick) == 2 or not winners):
        # A ten or king first: an ace (a top card) would take a trick of its own later.
        return max(plays, key=lambda c: (not _is_top(c, hand, gone), points(c), -strength(c)))
    if winners:
        return min(winners, key=lambda c: (strength(c), -points(c)))
    return min(plays, key=lambda c: (points(c), -_length(c, hand), strength(c)))


def _length(card: str, hand: list[str]) -> int:
    """How many cards of the card's suit the hand holds: a discard from the longest suit keeps
    the guards of the short ones' tens."""
    return sum(1 for c in hand if follow_suit(c) == follow_suit(card))


def _is_top(card: str, hand: list[str], gone: set[str]) -> bool:
    return all(c in gone or c in hand for c in higher_in_suit(card))
