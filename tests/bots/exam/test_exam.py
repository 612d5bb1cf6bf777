"""The exam's positions are sound (each replays to a decision, can be passed and can be failed,
says why), every game has enough of them, and strong passes them at a small budget: a
regression net; the strength claim is measured at the default budget (docs/bots.md)."""

from __future__ import annotations

import copy
import random

import pytest

from games import registry
from games.ask import position
from games.bots import expand_random, levels
from games.core.bots.search import Budget
from games.core.errors import IllegalAction
from games.core.records import replay_record
from tests.bots.exam.exam import SPECIAL, games, questions, sit

QUESTIONS = [q for game in games() for q in questions(game)]
MIN_PER_GAME = 25
# The regression net's budget and floor: few worlds, so the suite stays quick; the default
# budget's share (docs/bots.md) is higher.
NET_ITERATIONS = 12
NET_FLOOR = 0.8


def test_every_game_with_a_strong_bot_has_an_exam_of_at_least_25_positions():
    for spec in registry.games():
        if "strong" in levels(spec.name):
            assert len(questions(spec.name)) >= MIN_PER_GAME, spec.name


def test_the_positions_have_unique_ids_reasons_and_sources():
    ids = [(q.game, q.id) for q in QUESTIONS]
    assert len(ids) == len(set(ids))
    for q in QUESTIONS:
        assert (q.good is None) != (q.bad is None), q.id
        assert len(q.reason) >= 20 and q.source, q.id


def _legal(q, action) -> bool:
    match = replay_record(q.record)
    seat = position(q.record, q.seat).seat
    try:
        match.apply(seat, copy.deepcopy({"seat": seat, **action}))
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: f"{q.game}:{q.id}")
def test_a_position_is_a_decision_that_can_be_passed_and_failed(q):
    pos = position(q.record, q.seat)
    rng = random.Random(q.id)
    tries = [expand_random(entry, rng) for entry in pos.legal for _ in range(60)]
    assert not all(q.passes(a) for a in tries), "no legal action fails it"
    exact = [s for s in q.good or [] if not SPECIAL & s.keys()]
    assert any(q.passes(a) for a in tries) or any(_legal(q, s) for s in exact), "none passes"
    for spec in (q.good or []) + (q.bad or []):
        if not SPECIAL & spec.keys() and "act" in spec and len(spec) > 1:
            assert _legal(q, spec), f"{spec} is not legal there"


@pytest.mark.slow
@pytest.mark.parametrize("game", games())
def test_strong_passes_the_exam_at_a_small_budget(game):
    answers = [sit(q, "strong", Budget(iterations=NET_ITERATIONS)) for q in questions(game)]
    failed = [(a.question.id, a.action) for a in answers if not a.passed]
    assert len(failed) <= (1 - NET_FLOOR) * len(answers), failed
