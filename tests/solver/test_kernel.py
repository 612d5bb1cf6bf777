"""The fast kernel (``games.core.kernel``) against the generic search it replaces for the trick
games (``games.core.solver._Search``: the match cloned and played at every node, the engine's
own payouts at the end), on many random positions: every seat, mid-trick positions, random
variants, Grand Hand and Ramsch alike."""

from __future__ import annotations

import random

import pytest

from games.core import solver
from games.core.kernel import Budget
from games.core.solver import random_position
from tests.engines.helpers import random_variant

KERNEL_GAMES = ["mediatore", "schieberamsch", "three_five_eight"]


def position(game: str, key: str, tricks: int):
    rng = random.Random(f"kernel/{game}/{key}")
    match = random_position(game, tricks, rng, random_variant(game, rng))
    for _ in range(rng.randrange(4)):  # often into the trick
        if match.finished:
            break
        seat = match.actor()
        match.play(seat, match.random_move(seat, rng))
    return match


def generic(match, seat: int) -> float:
    return solver._Search(match, seat).exact(match)


@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_the_kernel_is_used_for_the_trick_games(game):
    match = position(game, "used", 3)
    hook = solver.game_solver(match)
    assert hook.position(match, match.actor(), Budget()) is not None


@pytest.mark.parametrize("game", KERNEL_GAMES)
@pytest.mark.parametrize("tricks", [2, 3, 4])
def test_the_kernel_agrees_with_the_generic_search(game, tricks):
    checked = 0
    for n in range(30 if tricks < 4 else 12):
        match = position(game, f"{tricks}/{n}", tricks)
        if match.finished:
            continue
        for seat in range(match.SEATS):
            assert solver.solve(match, seat) == generic(match, seat), (game, tricks, n, seat)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_the_kernel_agrees_with_the_generic_search_further_from_the_end(game):
    for n, tricks in enumerate((5, 5, 6)):
        match = position(game, f"deep/{n}", tricks)
        if match.finished:
            continue
        seat = match.actor()
        assert solver.solve(match, seat) == generic(match, seat), (game, n)


@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_action_values_are_the_generic_values_of_each_card(game):
    for n in range(6):
        match = position(game, f"actions/{n}", 3)
        if match.finished:
            continue
        seat = match.actor()
        for action, value in solver.action_values(match, seat):
            after = match.clone()
            after.apply(seat, action)
            if after.finished or after.deal_no != match.deal_no:
                want = after.results[match.deal_no]["payouts"][seat]
            else:
                want = generic(after, seat)
            assert value == want, (game, n, action)


def test_a_node_budget_stops_the_kernel():
    match = random_position("mediatore", 9, random.Random("budget"))
    with pytest.raises(solver.TooHard):
        solver.solve(match, match.actor(), max_nodes=50)


@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_best_action_is_the_first_action_of_the_highest_value(game):
    # best_action asks one threshold question a card; action_values solves every card.
    for n in range(10):
        match = position(game, f"best/{n}", 3 + n % 3)
        if match.finished:
            continue
        seat = match.actor()
        found = solver.action_values(match, seat)
        top = max(v for _, v in found)
        assert solver.best_action(match, seat) == next(a for a, v in found if v == top)
