"""The perfect-information solver against plain minimax (no pruning, no table, no equivalent
cards) on endgames of every game, and its two entry points against each other."""

from __future__ import annotations

import random

import pytest

from games.core import solver
from games.core.solver import NotInPlay, action_values, random_position, solve
from games.registry import game_names, start_match
from tests.engines.helpers import random_variant

GAMES = game_names()
# Saichugen's trick is three cards from full hands (17 cards for 15 tricks): plain minimax over
# its last three tricks takes seconds, so its endgames are two tricks long.
MOST = {"saichugen": 2}


def minimax(match, seat: int, allies: frozenset[int], hook) -> float:
    """The definition the solver implements, spelled out: every legal fast-path move (signals,
    equivalent cards and all), the allies maximising ``seat``'s payout, the others minimising it."""
    deal = match.deal_no
    mover = hook.mover(match, seat)
    values = []
    for move in match.moves(mover):
        child = match.clone()
        child.play(mover, move)
        if child.finished or child.deal_no != deal:
            values.append(child.results[deal]["payouts"][seat])
        else:
            values.append(minimax(child, seat, allies, hook))
    return max(values) if mover in allies else min(values)


def endgame(game: str, seed: int, tricks: int):
    rng = random.Random(f"{game}/{seed}")
    return random_position(game, tricks, rng, random_variant(game, rng)), rng


@pytest.mark.parametrize("game", GAMES)
def test_the_solver_agrees_with_plain_minimax_on_endgames(game):
    # Two tricks from many positions, three from a few (plain minimax over more is slow);
    # every seat, mid-trick positions too, random variants.
    checked = 0
    for seed in range(40):
        tricks = min(3 if seed % 8 == 0 else 2, MOST.get(game, 3))
        match, rng = endgame(game, seed, tricks)
        for _ in range(rng.randrange(3)):  # sometimes into the trick
            seat = match.actor()
            match.play(seat, match.random_move(seat, rng))
        hook = solver.game_solver(match)
        for seat in range(match.SEATS):
            want = minimax(match, seat, hook.allies(match, seat), hook)
            assert solve(match, seat) == want, (game, seed, seat)
            checked += 1
    assert checked == 40 * len(range(start_match(game).SEATS))


@pytest.mark.parametrize("game", GAMES)
def test_solve_is_the_best_of_the_action_values_and_changes_nothing(game):
    for seed in range(12):
        match, rng = endgame(game, 100 + seed, MOST.get(game, 3))
        for _ in range(rng.randrange(3)):
            seat = match.actor()
            match.play(seat, match.random_move(seat, rng))
        seat = match.actor()
        before = match.dump()
        found = action_values(match, seat)
        assert match.dump() == before
        # Every legal action is valued, each as the solve of the position after it.
        assert len(found) == len(match.moves(seat))
        for action, value in found:
            after = match.clone()
            after.apply(seat, action)
            if not after.finished:
                assert solve(after, seat) == value
        assert solve(match, seat) == max(v for _, v in found)


def test_equivalent_cards_are_searched_once():
    # Schieberamsch: the ace and ten of a suit differ in points, so never merge; the nine,
    # eight and seven of a suit with no card of another hand between them do.
    hook = solver.game_solver(start_match("schieberamsch"))
    match = start_match("schieberamsch")
    match.hands = [[0, 1, 5, 6, 7], [2, 3], [8]]  # ♣A ♣T ♣9 ♣8 ♣7 | ♣K ♣Q | ♠A
    match.trick = []
    assert hook.distinct(match, 0, [0, 1, 5, 6, 7]) == [0, 1, 5]
    match.hands[1] = [2, 6]  # ♣8 elsewhere splits the run: ♣9 | ♣8 | ♣7
    assert hook.distinct(match, 0, [0, 1, 5, 7]) == [0, 1, 5, 7]


def test_the_solver_solves_card_play_only():
    match = start_match("mediatore", seed=3)  # the auction
    with pytest.raises(NotInPlay):
        solve(match, 0)
    with pytest.raises(NotInPlay):
        action_values(match, match.actor())
