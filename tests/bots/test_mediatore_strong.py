"""Mediatore's own strong level searches only among sound bids, calls and discards, and keeps
its prior unless the search finds a clear gain (issue "Bots a good player respects II")."""

from __future__ import annotations

import random

from games.ask import ask, position
from games.bots import get_bot
from games.core.bots.search import Budget
from games.mediatore import strong
from tests.bots.exam.exam import questions

Q = {q.id: q for q in questions("mediatore")}


def cards(text: str) -> list[str]:
    return text.split()


def test_mediatore_has_its_own_strong_level():
    assert get_bot("mediatore", "strong").choose is strong.choose


def test_the_call_is_the_three_of_the_longest_suit_missing_it():
    others = [f"{r}{s}" for s in "dcsb" for r in "32ARCF7654"]
    hand = cards("2d Ad Rd Cd 7d 5d 3c Ac 4s")
    options = [c for c in others if c not in hand]
    assert strong.sound_calls(hand, options) == ["3d"]
    # Suits of equal length: either 3; all four 3s held: the 2 of the long suit.
    hand = cards("2d Ad Rd 6d 2c Ac Cc 5c 3s")
    assert sorted(strong.sound_calls(hand, [c for c in others if c not in hand])) == ["3c", "3d"]
    hand = cards("3d 3c 3s 3b Ad Rd 7d 5d 4c")
    assert strong.sound_calls(hand, [c for c in others if c not in hand]) == ["2d"]


def test_a_low_card_is_called_only_when_nothing_else_may_be():
    assert strong.sound_calls(["3d"], ["7d", "4c"]) == ["7d"]


def test_the_discards_keep_points_and_the_long_suit():
    hand = cards("2d Ad Rd Cd 7d 5d 3c Ac 4s 6s 4b 7c 5b")
    ranked = strong.best_discards(hand, 4)
    assert len(ranked) == strong.DISCARDS
    assert all(c[0] not in "32A" for cards in ranked for c in cards)
    assert all(c[1] != "d" for c in ranked[0])


def test_a_low_card_guarding_an_ace_is_worth_keeping():
    assert strong.guards_needed("c", ["Ac", "7c"]) == 2
    assert strong.guards_needed("c", ["3c", "Ac"]) == 1
    assert strong.guards_needed("c", ["3c", "2c", "Ac"]) == 0
    # A king of a suit without an ace is worth more than a 7, but not than the ace's guard.
    hand = ["Ac", "7c", "Rs", "Fs"]
    assert strong.keep_value("Rs", hand) > strong.keep_value("7c", hand)
    assert strong.hand_value(["Ac", "7c"], hand) > strong.hand_value(["Ac", "Rs"], hand)


def test_bids_are_pass_or_a_contract_the_hand_can_carry():
    weak = cards("Cd 7d 5c 4c Fs 6s 4s 7b 5b")
    bids = [{"act": "bid", "contract": c} for c in strong.BID_FLOOR]
    assert strong.sound_bids(weak, bids) == [{"act": "pass"}]
    slam = cards("3d 2d Ad 3c 2c Ac 3s 2s 3b")
    assert len(strong.sound_bids(slam, bids)) == 6


def test_the_prior_stands_unless_the_gain_is_clear():
    assert strong._edge([0.0, 0.0, 0.0]) == 0.0
    assert strong._edge([12.0, -12.0, 12.0, -12.0]) == 0.0  # noise
    assert strong._edge([5.0, 6.0, 5.0, 6.0]) == 5.5


def test_the_exchange_gives_and_discards_low_cards():
    q = Q["mediatore-exchange-keep-threes"]
    pos = position(q.record, q.seat)
    options = strong.candidates(pos.view, pos.legal, {"act": "pass"})
    assert options and all(q.passes(a) for a in options)


def test_strong_calls_a_three_and_keeps_the_aces_at_a_small_budget():
    for name in ("chiamo-call-three-of-long-suit", "chiamo-discard-keep-aces"):
        q = Q[name]
        action = ask(position(q.record, q.seat), "strong", Budget(iterations=4), seed=1)
        assert q.passes(action), (name, action)


def test_a_decision_is_reproducible_at_an_iteration_budget():
    q = Q["play-capture-ace-with-three"]
    pos = position(q.record, q.seat)
    first, second = (
        strong.decide(pos.view, pos.legal, random.Random(7), budget=Budget(iterations=3))
        for _ in range(2)
    )
    assert first.action == second.action and first.means == second.means
    assert first.worlds == 3


def test_the_search_stops_when_its_clock_says_the_budget_is_spent():
    q = Q["play-capture-ace-with-three"]
    pos = position(q.record, q.seat)
    readings = []

    def clock() -> float:
        readings.append(None)
        return 0.1 * len(readings)

    out = strong.decide(pos.view, pos.legal, random.Random(0), budget=Budget(clock=clock))
    assert 1 <= out.worlds <= 3
    assert len(readings) <= 8
