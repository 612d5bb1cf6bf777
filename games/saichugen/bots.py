"""Saichugen bot: aim for the median — of the trick, the round and the game.

The rule: commit the card whose sampled futures most often leave this seat at the median of
the game scores (the payout). Each candidate card is tried in the same sampled worlds (the
unseen cards dealt at random to the other seats, the rest of the game played at random), so
the bot never takes every trick of a round, keeps winning cards for rounds it can bank, and
sheds high cards when it is ahead.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.bots.registry import register
from games.saichugen.engine import (
    DECK,
    card_value,
    game_payouts,
    payout_mode,
    round_banked,
    trick_winner,
)

BUDGET = 480  # rollouts per decision: sampled worlds x candidate cards


@register(
    "saichugen",
    "basic",
    "aims for the median by sampling the unseen cards",
    rollout=False,  # 25 ms a decision: a search plays its rollouts at random instead
)
def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    cards = [e["card"] for e in legal if e["act"] == "commit"]
    if len(cards) <= 1:
        return dict(legal[0])
    me = view["seat"]
    revealed = {c for t in view["tricks"] for c in t["cards"]}
    unseen = [c for c in DECK.code_of if c not in revealed and c not in view["hand"]]
    sizes = view["hand_sizes"]
    committed = view["committed"]
    mode = payout_mode(view.get("variant"))
    totals = dict.fromkeys(cards, 0)
    for _ in range(max(12, BUDGET // len(cards))):
        rng.shuffle(unseen)
        hands: list[list[str]] = [[], [], []]
        current: list[str | None] = [None, None, None]
        at = 0
        for s in range(3):
            if s == me:
                continue
            if committed[s]:
                current[s] = unseen[at]
                at += 1
            hands[s] = unseen[at : at + sizes[s]]
            at += sizes[s]
        seed = rng.random()
        for card in cards:
            totals[card] += rollout(view, me, card, hands, current, mode, random.Random(seed))
    best = max(totals.values())
    return {"act": "commit", "card": rng.choice([c for c in cards if totals[c] == best])}


def rollout(
    view: dict[str, Any],
    me: int,
    card: str,
    others: list[list[str]],
    current: list[str | None],
    mode: str,
    rng: random.Random,
) -> int:
    """Seat `me`'s payout when it commits `card` now (the others' hands `others`, their
    commits of this trick `current`, None: not yet) and the rest of the game is played at
    random: the basic bot's and the strong level's future (one list pass, no engine)."""
    hands = [h[:] for h in others]
    hands[me] = [c for c in view["hand"] if c != card]
    trick_cards = current[:]
    trick_cards[me] = card
    for s in range(3):
        if trick_cards[s] is None:
            trick_cards[s] = hands[s].pop(int(rng.random() * len(hands[s])))
    round_pts = list(view["round_scores"])
    game = list(view["game_scores"])
    rnd, trick = view["round"], view["trick"]
    while True:
        w = trick_winner(trick_cards)
        round_pts[w] += card_value(trick_cards[w])
        if trick == 2:
            bank = round_banked(round_pts)
            game = [g + x for g, x in zip(game, bank)]
            round_pts = [0, 0, 0]
            trick = 0
            rnd += 1
            if rnd == 5:
                return game_payouts(game, mode)[me]
        else:
            trick += 1
        trick_cards = [h.pop(int(rng.random() * len(h))) for h in hands]
