"""Saichugen's strong level: it models the others as basic bots for the current trick, stops
when its (injected) clock says so, and a seed with an iteration budget fixes its move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import bots
from games.core.bots.search import Budget
from games.registry import start_match
from games.saichugen import strong as saichugen_strong
from tests.bots.test_strong import Clock


def a_decision():
    """Seat 2's commit to the second trick, seat 0 having committed: 16 candidates."""
    match = start_match("saichugen", seed=3, n_deals=1)
    rng = random.Random(1)
    for seat in (0, 1, 2, 0):
        match.apply(seat, bots.random_action(match.legal(seat), rng))
    return match.view(2), match.legal(2)


def test_saichugen_has_its_own_strong_level():
    assert bots.get_bot("saichugen", "strong").choose is saichugen_strong.choose
    assert bots.get_bot("schieberamsch", "strong").choose is not saichugen_strong.choose


def test_it_stops_when_its_clock_says_the_budget_is_spent():
    view, legal = a_decision()
    for step, worlds in ((0.1, 3), (0.03, 10), (1.0, 1)):
        out = saichugen_strong.decide(
            view, legal, random.Random(0), budget=Budget(seconds=0.3, clock=Clock(step))
        )
        assert out.worlds == worlds, step
        assert out.rollouts == worlds * saichugen_strong.FUTURES * len(out.means)


def test_an_iteration_budget_gives_the_same_move_for_the_same_seed():
    view, legal = a_decision()
    runs = [
        saichugen_strong.decide(view, legal, random.Random(7), budget=Budget(iterations=5))
        for _ in "ab"
    ]
    assert runs[0].action == runs[1].action and runs[0].means == runs[1].means
    assert runs[0].worlds == 5
    assert {m[0]["card"] for m in runs[0].means} == {e["card"] for e in legal}


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), tricks=st.integers(0, 14))
def test_the_model_of_another_seat_commits_a_card_it_holds(seed, tricks):
    rng = random.Random(seed)
    match = start_match("saichugen", seed=seed, n_deals=1)
    for _ in range(3 * tricks):
        seat = match.to_act()[0]
        match.apply(seat, bots.random_action(match.legal(seat), rng))
    hand = match.view(1)["hand"]  # what seat 1 holds at the start of the trick
    card = saichugen_strong.model_choice(match.view(0), 1, list(hand), "zero_sum", rng)
    assert card in hand
