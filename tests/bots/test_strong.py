"""The strong level: a legal action in every phase of every game, an anytime search that stops
when its (injected) clock says so, and figures that a seed and an iteration budget fix."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import bots, evaluate
from games.core.bots import search
from games.core.bots.search import Budget
from games.core.bots.strong import decide
from games.core.errors import EngineError
from games.registry import game_names, get_game, start_match
from tests.engines.helpers import random_variant

GAMES = game_names()
FEW = Budget(iterations=2)


def legal_for(match, seat: int, action: dict) -> bool:
    try:
        match.clone().check(seat, action)
    except EngineError:
        return False
    return True


def strong(match, seat: int, rng: random.Random, budget: Budget = FEW) -> dict:
    past = match.export()["deals"][: match.deal_no]
    view, legal = match.view(seat), match.legal(seat)
    return bots.choose_action(match.GAME, view, legal, rng, "strong", budget=budget, past=past)


def test_strong_is_a_level_of_every_game_stronger_than_basic():
    for game in GAMES:
        assert bots.levels(game) == ["random", "basic", "strong"]
        assert bots.get_bot(game, "strong").searches


def first_position_of_each_phase(game: str, matches: int = 40) -> dict[str, tuple]:
    """For every phase that random play of random variants reaches (two-deal matches, so a
    3-5-8 exchange too), the first position in it: (match, seat to act)."""
    found: dict[str, tuple] = {}
    for seed in range(matches):
        rng = random.Random(seed)
        match = start_match(game, variant=random_variant(game, rng), n_deals=2, seed=seed)
        while not match.finished:
            seat = match.to_act()[0]
            found.setdefault(match.view(seat)["phase"], (match.clone(), seat))
            match.apply(seat, bots.random_action(match.legal(seat), rng))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_strong_plays_a_legal_action_in_every_phase(game):
    positions = first_position_of_each_phase(game)
    phases = get_game(game).engine.PHASES
    assert set(positions) <= set(phases)
    assert len(positions) >= min(3, len(phases))  # bids, play… (Saichugen: commits only)
    for phase, (match, seat) in positions.items():
        action = strong(match, seat, random.Random(phase))
        assert legal_for(match, seat, action), (phase, action)


@pytest.mark.parametrize("game", GAMES)
def test_strong_bots_play_whole_matches_in_every_seat(game):
    rng = random.Random(game)
    match = start_match(game, variant=random_variant(game, rng), n_deals=2, seed=11)
    while not match.finished:
        seat = match.to_act()[0]
        action = strong(match, seat, rng, Budget(iterations=1))
        assert legal_for(match, seat, action)
        match.apply(seat, action)
    assert len(match.results) >= 1


@settings(
    max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
@pytest.mark.parametrize("game", GAMES)
def test_strong_returns_a_legal_action_at_random_positions(game, seed, steps):
    rng = random.Random(seed)
    variant = random_variant(game, rng)
    seats = get_game(game).seats
    match = start_match(game, dealer=rng.randrange(seats), variant=variant, n_deals=2, seed=seed)
    for _ in range(steps):
        if match.finished:
            return
        seat = match.to_act()[0]
        match.apply(seat, bots.random_action(match.legal(seat), rng))
    if match.finished:
        return
    seat = match.to_act()[0]
    assert legal_for(match, seat, strong(match, seat, rng))


class Clock:
    """A CPU clock the test winds: each reading is `step` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def a_decision(game: str = "schieberamsch"):
    """A position with several candidates: the first trick's lead."""
    match = start_match(game, seed=3, n_deals=1)
    rng = random.Random(1)
    while True:
        seat = match.to_act()[0]
        legal = match.legal(seat)
        if match.view(seat)["phase"] == "play" and len(legal) > 3:
            return match.view(seat), legal
        match.apply(seat, bots.random_action(legal, rng))


def test_the_search_stops_when_its_clock_says_the_budget_is_spent():
    view, legal = a_decision()
    for step, worlds in ((0.1, 3), (0.03, 10), (1.0, 1)):
        clock = Clock(step)
        out = decide(view, legal, random.Random(0), budget=Budget(seconds=0.3, clock=clock))
        # read at the start, then after each world: it stops at the first reading >= 0.3 s
        assert out.worlds == worlds, step
        assert out.rollouts == worlds * len(out.means)


def test_a_world_that_cannot_be_found_in_time_leaves_the_basic_bots_choice(monkeypatch):
    view, legal = a_decision()
    det = get_game("schieberamsch").determiniser
    monkeypatch.setattr(det, "world", lambda *a, **k: None)  # every proposal refused
    clock = Clock(0.2)
    out = decide(view, legal, random.Random(0), budget=Budget(seconds=0.3, clock=clock))
    basic = bots.get_bot("schieberamsch", "basic").choose
    rng = random.Random(0)
    assert out.worlds == 0
    assert out.action == basic(view, legal, random.Random(rng.getrandbits(32)))
    assert clock.readings <= 4  # it gave up with the budget, not after every proposal


def test_an_iteration_budget_gives_the_same_move_for_the_same_seed():
    view, legal = a_decision()
    runs = [decide(view, legal, random.Random(7), budget=Budget(iterations=6)) for _ in "ab"]
    assert runs[0].action == runs[1].action and runs[0].means == runs[1].means
    assert runs[0].worlds == 6


def test_candidates_cover_templates_and_keep_the_prior_first():
    rng = random.Random(0)
    legal = [{"act": "discard", "from": ["7C", "8C", "9C", "TC"], "choose": 2}]
    prior = {"act": "discard", "cards": ["TC", "9C"]}
    got = search.candidates(legal, rng, prior)
    assert got[0] == prior
    assert len(got) == 6  # C(4, 2): every discard, the prior once
    many = [{"act": "discard", "from": [f"{r}C" for r in "789TJQKA"], "choose": 3}]
    assert 2 <= len(search.candidates(many, rng, prior)) <= search.MAX_CANDIDATES


def test_the_evaluation_gives_the_same_figures_for_the_same_seed_and_iterations():
    runs = [
        evaluate.duplicate("schieberamsch", "strong", "basic", deals=2, seed=5, budget=FEW)
        for _ in "ab"
    ]
    for run in runs:  # everything but what the CPU clock says
        del run["seconds"], run["cpu_per_move_ms"], run["searched"]["rollouts_per_cpu_second"]
    assert runs[0] == runs[1]
    assert runs[0]["searched"]["worlds_per_move"] > 1
    assert runs[0]["deals"] == 2 and runs[0]["moves"] > 0


def test_the_evaluation_command_prints_json_per_game(capsys):
    evaluate.main(
        ["--bot", "basic", "--against", "random", "--deals", "3", "--seed", "1", "--json",
         "--games", "three_five_eight"]
    )  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "three_five_eight" and out["bot"] == "basic"
    assert out["won"] + out["tied"] + out["lost"] == pytest.approx(1.0, abs=0.01)
    lo, hi = out["ci95"]
    assert lo <= out["mean_diff"] <= hi
    with pytest.raises(SystemExit):
        evaluate.main(["--bot", "grandmaster", "--games", "three_five_eight"])
