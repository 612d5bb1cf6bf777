"""Saichugen's `strong` level: a search that expects the others to play like the basic bot.

Saichugen's tricks are simultaneous, so the best card depends on what the others commit now.
The basic bot answers uniformly random opponents (its rollouts play at random), and the
generic strong search (`games.core.bots.strong`) with the same model in ten times as many worlds
only answered random opponents better: level with basic on 200 duplicate deals (docs/bots.md).
This level models the others one step deeper. In every sampled world (the unseen cards dealt
uniformly: a commit says nothing of its card), each other seat's card for the current trick is
the one a small basic-bot search (`MODEL_ROLLOUTS` futures per card) commits with that seat's
hand and what that seat knows; a seat that has committed holds its card among those. Then every
candidate card of ours is played against those cards, the rest of the game at random, in the
same futures (common random numbers). The best mean payout wins; the basic bot's own choice
comes first, so it wins ties. It is anytime like the generic search (`Budget`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.bots import strong as _level  # noqa: F401  (defines the level played here)
from games.core.bots.registry import register
from games.core.bots.search import COUNTS, Budget, Decision, searching, truth
from games.saichugen import bots as basic
from games.saichugen.engine import DECK, payout_mode

MODEL_ROLLOUTS = 6  # futures per card in the model of another seat's choice
FUTURES = 4  # futures per candidate card of ours in one world


def model_choice(
    view: dict[str, Any], seat: int, hand: list[str], mode: str, rng: random.Random
) -> str:
    """The card a small basic-bot search commits for `seat` holding `hand`, from what that
    seat knows: the revealed tricks, the scores and its own hand (nobody's commit)."""
    if len(hand) == 1:
        return hand[0]
    revealed = {c for t in view["tricks"] for c in t["cards"]}
    held = set(hand)
    unseen = [c for c in DECK.code_of if c not in revealed and c not in held]
    size = len(hand)  # everyone holds as many cards at the start of a trick
    totals = dict.fromkeys(hand, 0)
    own = {**view, "hand": hand}
    for _ in range(MODEL_ROLLOUTS):
        rng.shuffle(unseen)
        hands: list[list[str]] = [[], [], []]
        at = 0
        for s in range(3):
            if s != seat:
                hands[s] = unseen[at : at + size]
                at += size
        seed = rng.random()
        for card in hand:
            totals[card] += basic.rollout(
                own, seat, card, hands, [None, None, None], mode, random.Random(seed)
            )
    best = max(totals.values())
    return rng.choice([c for c in hand if totals[c] == best])


def decide(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    budget: Budget | None = None,
    past: Sequence[dict[str, Any]] = (),  # every reveal is public: the view has it all
) -> Decision:
    """The decision with its figures (worlds, rollouts, the candidates' mean payouts)."""
    cards = [e["card"] for e in legal if e["act"] == "commit"]
    if len(cards) <= 1:
        return Decision(dict(legal[0]), 0, 0, [(dict(legal[0]), 0.0)])
    budget = budget or Budget()
    prior = basic.choose(view, legal, random.Random(rng.getrandbits(32)))["card"]
    me = view["seat"]
    revealed = {c for t in view["tricks"] for c in t["cards"]}
    unseen = [c for c in DECK.code_of if c not in revealed and c not in view["hand"]]
    sizes, committed = view["hand_sizes"], view["committed"]
    mode = payout_mode(view.get("variant"))
    order = [prior] + [c for c in cards if c != prior]
    totals = dict.fromkeys(order, 0)
    worlds = 0
    real = truth()  # the clairvoyant level: the others' real hands (and committed cards)
    started = budget.clock()
    while True:
        if budget.iterations is not None:
            if worlds >= budget.iterations:
                break
        elif worlds and budget.clock() - started >= budget.seconds:
            break
        rng.shuffle(unseen)
        hands: list[list[str]] = [[], [], []]
        current: list[str | None] = [None, None, None]
        at = 0
        for s in range(3):
            if s == me:
                continue
            size = sizes[s] + (1 if committed[s] else 0)  # a committed card is still theirs
            if real is not None:
                held = real.hands[s] + ([real.commits[s]] if committed[s] else [])
                pool = DECK.codes(held)
            else:
                pool = unseen[at : at + size]
                at += size
            if real is not None and committed[s]:
                current[s] = DECK.code_of[real.commits[s]]
            else:
                current[s] = model_choice(view, s, pool, mode, rng)
            hands[s] = [c for c in pool if c != current[s]]
        for _ in range(FUTURES):
            seed = rng.random()
            for card in order:
                totals[card] += basic.rollout(
                    view, me, card, hands, current, mode, random.Random(seed)
                )
        worlds += 1
    rollouts = worlds * FUTURES * len(order)
    COUNTS["worlds"] += worlds
    COUNTS["rollouts"] += rollouts
    n = worlds * FUTURES
    means = [({"act": "commit", "card": c}, totals[c] / n) for c in order]
    best = max(totals.values())
    action = {"act": "commit", "card": next(c for c in order if totals[c] == best)}
    return Decision(action, worlds, rollouts, means)


choose = register(
    "saichugen",
    "strong",
    "searches: expects the others to aim for the median too",
    searches=True,
)(searching(decide))
