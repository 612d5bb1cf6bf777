"""Mediatore's `strong` level: the PIMC search of every game, fenced by what players know.

The generic search (`games.core.bots.search`) judges a decision by playing the deal out with the
basic bot in every seat. Far from the end of a deal — the bid, the call, the discard, the
exchange — those rollouts are too noisy and too weak a defence to tell a sound choice from a bad
one: the level called low cards, played alone with the called card in the monte, and discarded
aces and 3s into the monte (issue "Bots a good player respects II"). So here players' rules
choose the candidates and the search only decides among sound ones:

- bid: pass, or a contract the hand's strength (`bots.hand_strength`) can carry (`BID_FLOOR`);
- call: the players' rule — the 3 of the longest suit that lacks it, else the 2, then the ace
  (`sound_calls`): never a low card;
- discard and exchange: the best few by a hand evaluation (`keep_value`: points and tricks kept,
  the long suit kept whole, low cards of short suits out first);
- play: every legal card.

The search's answer replaces the prior (the basic bot's choice, or the rule's) only when it is
better by more than `MARGIN` standard errors of the paired differences over the same worlds:
a strong prior, so that noise in a few worlds does not overturn sound play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from games.core import registry
from games.core.bots import strong as _level  # noqa: F401  (defines the level played here)
from games.core.bots.common import by_act, suit_of
from games.core.bots.registry import register
from games.core.bots.search import (
    COUNTS,
    Budget,
    Decision,
    draw_world,
    policy_rollout,
    searching,
)
from games.core.determiniser import NoWorld
from games.core.errors import EngineError
from games.mediatore import bots as basic
from games.mediatore.engine import SUITS
from games.mediatore.engine import card_strength as strength
from games.mediatore.engine import card_thirds as thirds

Action = dict[str, Any]

# The least hand strength at which a contract is worth searching: a little under the basic
# bot's thresholds (bots.BID_AT), so the search may bid a borderline hand, never a hopeless one.
BID_FLOOR = {"chiamo": 4.5, "mediatore": 7.5, "solo": 9.5, "solissimo": 11.0, "arcisolissimo": 12.0}
MARGIN = 1.5  # standard errors by which a candidate must beat the prior to replace it
DISCARDS = 6  # discards (or exchanges) by the hand evaluation the search compares
CALL_RANKS = "32A"  # what a player calls: a 3, else a 2, else an ace
GUARD = 1.5  # a low card that keeps a 2 or an ace from falling under a higher card


def sound_bids(hand: list[str], bids: list[Action]) -> list[Action]:
    """Pass and the legal contracts the hand can carry."""
    power = basic.hand_strength(hand)
    return [{"act": "pass"}] + [
        dict(b) for b in bids if power >= BID_FLOOR.get(b["contract"], math.inf)
    ]


def _lengths(hand: list[str]) -> dict[str, int]:
    return {s: sum(1 for c in hand if suit_of(c) == s) for s in SUITS}


def sound_calls(hand: list[str], options: list[str]) -> list[str]:
    """The players' call: of the highest rank missing (a 3, else a 2, else an ace), the card of
    the longest suit — every such card when suits tie in length. Never a low card, unless
    nothing else may be called."""
    lengths = _lengths(hand)
    for rank in CALL_RANKS:
        cards = [c for c in options if c[0] == rank]
        if cards:
            longest = max(lengths[suit_of(c)] for c in cards)
            return [c for c in cards if lengths[suit_of(c)] == longest]
    return [max(options, key=lambda c: (strength(c), lengths[suit_of(c)]))]


def keep_value(card: str, hand: list[str]) -> float:
    """How much keeping `card` is worth to the declarer: a 3, a 2 or an ace (tricks and points)
    far above all else; then a card of the longest suit (its low cards become tricks once the
    top is out); then points and rank, a long suit's cards above a short one's."""
    lengths = _lengths(hand)
    suit = suit_of(card)
    value = 10.0 if card[0] in CALL_RANKS else 0.0
    value += 5.0 if lengths[suit] == max(lengths.values()) else 0.0
    return value + thirds(card) + strength(card) / 10 + lengths[suit] / 5


def guards_needed(suit: str, hand: list[str]) -> int:
    """How many lower cards keep the hand's 2 or ace of `suit` from falling under a higher card
    that is out: one for a 2 without the 3, one for each of the 3 and 2 an ace lacks."""
    ranks = {c[0] for c in hand if suit_of(c) == suit}
    need = 1 if "2" in ranks and "3" not in ranks else 0
    if "A" in ranks:
        need = max(need, len({"3", "2"} - ranks))
    return need


def hand_value(kept: list[str], hand: list[str]) -> float:
    """The worth of the cards kept: their `keep_value` in the whole hand, a bonus for each low
    card that guards a 2 or an ace (`guards_needed`), and a little for a suit emptied (a card
    of it led can be thrown a loser on)."""
    value = sum(keep_value(c, hand) for c in kept)
    for s in SUITS:
        cards = [c for c in kept if suit_of(c) == s]
        if not cards:
            value += 0.5 if any(suit_of(c) == s for c in hand) else 0.0
            continue
        low = sum(1 for c in cards if c[0] not in CALL_RANKS)
        value += GUARD * min(low, guards_needed(s, kept))
    return value


def best_discards(hand: list[str], k: int, n: int = DISCARDS) -> list[list[str]]:
    """The `n` best sets of `k` cards to put away, best first: those that leave the most
    `hand_value`, chosen among the cards of least `keep_value`."""
    pool = sorted(hand, key=lambda c: (keep_value(c, hand), c))[: k + 4]

    def left(cards: tuple[str, ...]) -> float:
        return hand_value([c for c in hand if c not in cards], hand)

    ranked = sorted(combinations(sorted(pool), k), key=lambda cs: (-left(cs), cs))
    return [list(cs) for cs in ranked[:n]]


def candidates(view: dict[str, Any], legal: list[Action], prior: Action) -> list[Action]:
    """The sound actions the search compares, the prior's equal first."""
    acts = by_act(legal)
    hand = view["hand"]
    if "bid" in acts:
        out = sound_bids(hand, acts["bid"])
    elif "call" in acts:
        out = [
            {"act": "call", "card": c} for c in sound_calls(hand, [e["card"] for e in acts["call"]])
        ]
    elif "discard" in acts:
        entry = acts["discard"][0]
        out = [
            {"act": "discard", "cards": cs} for cs in best_discards(entry["from"], entry["choose"])
        ]
    elif "exchange" in acts:
        entry = acts["exchange"][0]
        k = entry["discard"]["choose"]
        out = []
        for cs in best_discards(entry["discard"]["from"], k + (1 if entry.get("give") else 0)):
            if entry.get("give"):
                give = min(cs, key=lambda c: keep_value(c, hand))
                rest = [c for c in cs if c != give]
                out.append({"act": "exchange", "discard": rest, "give": give})
            else:
                out.append({"act": "exchange", "discard": cs, "give": None})
    else:
        out = [dict(e) for e in legal]
    first = [a for a in out if _same(a, prior)]
    return first + [a for a in out if not _same(a, prior)] if first else out


def _same(a: Action, b: Action) -> bool:
    def norm(x: Action) -> dict[str, Any]:
        return {k: sorted(v) if isinstance(v, list) else v for k, v in x.items()}

    return norm(a) == norm(b)


def decide(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    *,
    budget: Budget | None = None,
    past: Sequence[dict[str, Any]] = (),
) -> Decision:
    """The decision with its figures (worlds, rollouts, the candidates' mean payouts)."""
    budget = budget or Budget()
    prior = basic.choose(view, legal, random.Random(rng.getrandbits(32)))
    options = candidates(view, legal, prior)
    prior = options[0]
    if len(options) == 1:
        return Decision(prior, 0, 0, [(prior, 0.0)])
    seat, deal = view["seat"], view["deal"]
    determiniser = registry.get_game(view["game"]).determiniser
    rollout = policy_rollout(basic.choose)
    diffs: list[list[float]] = [[] for _ in options]  # per world: payout minus the prior's
    totals = [0.0] * len(options)
    worlds = rollouts = 0
    started = budget.clock()

    def out_of_time() -> bool:
        return budget.seconds is not None and budget.clock() - started >= budget.seconds

    while True:
        if budget.iterations is not None:
            if worlds >= budget.iterations:
                break
        elif worlds and out_of_time():
            break
        try:
            world = draw_world(
                determiniser,
                view,
                rng,
                past=past,
                give_up=None if budget.iterations is not None else out_of_time,
            )
        except NoWorld:
            break
        seed = rng.getrandbits(32)
        payouts = []
        for action in options:
            trial = world.clone()
            try:
                move, _ = trial.check(seat, action)
            except EngineError:  # cannot happen in a world that fits the view
                payouts.append(None)
                continue
            trial.play(seat, move)
            step = random.Random(seed)
            while not trial.finished and trial.deal_no == deal:
                rollout(trial, step)
            payouts.append(trial.results[deal]["payouts"][seat])
            rollouts += 1
        if payouts[0] is None:
            continue
        for i, p in enumerate(payouts):
            if p is not None:
                diffs[i].append(p - payouts[0])
                totals[i] += p
        worlds += 1
    COUNTS["worlds"] += worlds
    COUNTS["rollouts"] += rollouts
    if not worlds:
        return Decision(prior, 0, 0, [(prior, 0.0)])
    means = [(a, t / worlds) for a, t in zip(options, totals, strict=True)]
    best, best_edge = 0, 0.0
    for i, d in enumerate(diffs[1:], start=1):
        edge = _edge(d)
        if edge > best_edge:
            best, best_edge = i, edge
    return Decision(options[best], worlds, rollouts, means)


def _edge(diffs: list[float]) -> float:
    """A candidate's mean gain over the prior when it is clear of noise (more than `MARGIN`
    standard errors), else 0."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    se = math.sqrt(var / n)
    return mean if mean > MARGIN * se and mean > 0 else 0.0


choose = register(
    "mediatore",
    "strong",
    "searches among sound bids, calls and discards; plays every candidate out in sampled deals",
    searches=True,
)(searching(decide))
