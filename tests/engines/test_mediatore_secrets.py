"""Mediatore's secret partner: until the called card is played, no view or event to any other seat
may reveal who holds it, nor that the declarer is alone (rules/mediatore.md, "Chiamo").

The test builds two worlds that differ only in where the called card lies, plays the same actions
in both, and checks that every observer who may not know sees exactly the same views and events.
"""

from __future__ import annotations

import copy
import random

import pytest

from games import start_match, visible

from .test_mediatore import DEAL, H0, MONTE


def swap(deal: dict, a: str, b: str) -> dict:
    """The deal with cards ``a`` and ``b`` exchanged (between hands or with the monte)."""
    out = copy.deepcopy(deal)
    for cards in [*out["hands"], out["stock"]]:
        for i, c in enumerate(cards):
            if c == a:
                cards[i] = b
            elif c == b:
                cards[i] = a
    return out


def same_for_observers(deal_a, deal_b, observers, hidden, seed, discard, steps=24):
    """Play identical actions in both worlds (never the cards in ``hidden``) and compare what
    each observer sees after every action."""
    worlds = [
        start_match("mediatore", dealer=3, deals=[copy.deepcopy(d)]) for d in (deal_a, deal_b)
    ]
    rng = random.Random(seed)
    script = [
        (0, {"act": "bid", "contract": "chiamo"}),
        (1, {"act": "pass"}),
        (2, {"act": "pass"}),
        (3, {"act": "pass"}),
        (0, {"act": "call", "card": "3b"}),
        (0, {"act": "discard", "cards": discard}),
    ]
    for n in range(len(script) + steps):
        if n < len(script):
            seat, action = script[n]
        else:
            seat = worlds[0].to_act()[0]
            assert worlds[1].to_act() == [seat]
            common = [
                a
                for a in worlds[0].legal(seat)
                if a in worlds[1].legal(seat) and a.get("card") not in hidden
            ]
            if not common:
                break
            action = rng.choice(common)
        events = [w.apply(seat, action) for w in worlds]
        for obs in observers:
            assert visible(events[0], obs) == visible(events[1], obs), (obs, action)
            assert worlds[0].view(obs) == worlds[1].view(obs), (obs, action)
    return worlds


@pytest.mark.parametrize("seed", range(4))
def test_nobody_but_the_holder_learns_who_the_partner_is(seed):
    # world A: seat 3 holds the called 3b; world B: seat 2 holds it (it swapped with Fc)
    a, b = DEAL, swap(DEAL, "3b", "Fc")
    worlds = same_for_observers(
        a, b, observers=[0, 1, None], hidden={"3b", "Fc"}, seed=seed, discard=MONTE
    )
    for w, holder in zip(worlds, (3, 2)):
        assert w.partner == holder
        assert w.view(holder)["partner"] == holder  # he knows from his own hand
        for obs in (0, 1, None):
            assert w.view(obs)["partner"] is None
            assert w.view(obs)["alone"] is None


@pytest.mark.parametrize("seed", range(4))
def test_nobody_else_learns_that_the_declarer_is_alone(seed):
    # world A: seat 3 holds 3b; world C: 3b lies in the monte (swapped with 7b)
    a, c = DEAL, swap(DEAL, "3b", "7b")
    discard = ["6b", "5b", "4b", "As"]
    worlds = same_for_observers(
        a, c, observers=[1, 2, None], hidden={"3b", "7b"}, seed=seed, discard=discard
    )
    alone = worlds[1]
    assert alone.partner == -1
    assert alone.view(0)["alone"] is True  # the declarer took the monte: only he knows
    assert alone.view(3)["alone"] is None


def test_the_partner_is_revealed_when_the_called_card_is_played():
    m = start_match("mediatore", dealer=3, deals=[copy.deepcopy(DEAL)])
    m.apply(0, {"act": "bid", "contract": "chiamo"})
    for seat in (1, 2, 3):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "call", "card": "3b"})
    m.apply(0, {"act": "discard", "cards": MONTE})
    # seat 0 leads clubs three times; seat 3 (no clubs) discards 3b on the first
    m.apply(0, {"act": "play", "card": "3c"})
    m.apply(1, {"act": "play", "card": "Rc"})
    m.apply(2, {"act": "play", "card": "7c"})
    events = m.apply(3, {"act": "play", "card": "3b"})
    assert {"event": "partner", "seat": 3, "card": "3b", "visible_to": None} in events
    for obs in (0, 1, 2, None):
        assert m.view(obs)["partner"] == 3
        assert m.view(obs)["alone"] is False


def test_the_unchecked_path_reveals_the_partner_too():
    # Bots and record replays play without events; the views after it must be the same.
    checked = start_match("mediatore", dealer=3, deals=[copy.deepcopy(DEAL)])
    fast = checked.clone()
    script = [
        (0, {"act": "bid", "contract": "chiamo"}),
        *((seat, {"act": "pass"}) for seat in (1, 2, 3)),
        (0, {"act": "call", "card": "3b"}),
        (0, {"act": "discard", "cards": MONTE}),
        (0, {"act": "play", "card": "3c"}),
        (1, {"act": "play", "card": "Rc"}),
        (2, {"act": "play", "card": "7c"}),
        (3, {"act": "play", "card": "3b"}),
    ]
    for seat, action in script:
        move, _ = fast.check(seat, action)
        fast.play(seat, move)
        checked.apply(seat, action)
        for obs in (0, 1, 2, 3, None):
            assert fast.view(obs) == checked.view(obs), (obs, action)
    assert fast.view(1)["partner"] == 3


def test_playing_the_called_card_himself_shows_the_declarer_alone():
    deal = swap(DEAL, "3b", "7b")  # 3b in the monte
    m = start_match("mediatore", dealer=3, deals=[deal])
    m.apply(0, {"act": "bid", "contract": "chiamo"})
    for seat in (1, 2, 3):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "call", "card": "3b"})
    m.apply(0, {"act": "discard", "cards": ["6b", "5b", "4b", "As"]})
    events = m.apply(0, {"act": "play", "card": "3b"})
    assert {"event": "alone", "seat": 0, "card": "3b", "visible_to": None} in events
    assert m.view(1)["alone"] is True


def test_at_the_end_everything_is_revealed_and_a_lone_chiamo_pays_twelve():
    deal = swap(DEAL, "3b", "7b")  # 3b in the monte: the declarer is alone
    m = start_match("mediatore", dealer=3, deals=[deal])
    m.apply(0, {"act": "bid", "contract": "chiamo"})
    for seat in (1, 2, 3):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "call", "card": "3b"})
    m.apply(0, {"act": "discard", "cards": ["3b", "6b", "5b", "4b"]})  # he may discard it
    order = list(H0)
    while not m.finished:
        seat = m.to_act()[0]
        card = order.pop(0) if seat == 0 else m.legal(seat)[0]["card"]
        m.apply(seat, {"act": "play", "card": card})
    assert m.view(1)["alone"] is True
    assert m.view(1)["outcome"]["partner"] == -1
    assert m.result()["deals"][0]["payouts"] == [12 + 6, -6, -6, -6]  # slam: +2 each
