"""Inference (docs/bots.md, "Inference"): worlds weighed by the others' observed actions.

1. The weights are exact: on small end positions every consistent world is found by brute
   force and its likelihood computed; a drawn world's weight is its world's, and the weighted
   frequencies of the draws converge to the exact posterior (uniform prior * likelihood) within
   a bound computed from the weights' own spread (fixed seed: it cannot fail by chance), while
   the unweighted ones stay as far from it as the prior is.
2. A clear case: in Mediatore a seat that bid Chiamo holds, in the weighted worlds, a hand its
   model would bid on; in the uniform worlds it mostly does not.
3. The search uses the weights and stays reproducible; `Budget(inference=False)` is the
   uniform search of before.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict

import pytest

from games import get_game, start_match
from games.bots import get_bot
from games.core.bots.inference import (
    Inference,
    by_default,
    count_actions,
    log_likelihood,
    model_for,
    softened,
    weighted_draw,
)
from games.core.bots.search import Budget, search
from games.core.determiniser import all_holdings, holding_key
from games.mediatore.bots import BID_AT, hand_strength

from .test_determinisers import end_position

MODELLED = ["mediatore", "schieberamsch", "three_five_eight"]
EPSILON = 0.5  # a soft model: the weights spread less, so few draws test them


def exact_likelihoods(game: str, view, past, slots, model) -> dict:
    """Every consistent world's likelihood, by brute force."""
    det = get_game(game).determiniser
    weights = {}
    for h in all_holdings(slots):
        found = det.replay(view, h, past=past)
        if found is not None:
            weights[holding_key(h)] = math.exp(log_likelihood(det, view, found, model))
    return weights


def tv_bound(posterior: dict, n: int, z: float = 1.5) -> float:
    """A bound on the total variation between the self-normalised weighted frequencies of
    ``n`` uniform draws and the posterior: its expectation is at most half the sum of the
    worlds' standard deviations (delta method), and the bound is ``z`` times that."""
    k = len(posterior)
    # the likelihood relative to its mean under the uniform prior is k * posterior
    sd = []
    for w, p in posterior.items():
        var = sum((k * q) ** 2 * ((v == w) - p) ** 2 for v, q in posterior.items()) / k
        sd.append(math.sqrt(var / n))
    return 0.5 * z * sum(sd)


def tv(a: dict, b: dict) -> float:
    return 0.5 * sum(abs(a.get(w, 0) - b.get(w, 0)) for w in set(a) | set(b))


@pytest.mark.parametrize("game", MODELLED)
def test_weighted_draws_converge_to_the_exact_posterior(game):
    view, past, slots, worlds = end_position(game)
    det = get_game(game).determiniser
    model = softened(get_bot(game, "basic").choose, EPSILON)
    likelihood = exact_likelihoods(game, view, past, slots, model)
    assert set(likelihood) == worlds
    posterior = {w: x / sum(likelihood.values()) for w, x in likelihood.items()}
    rng = random.Random(2027)
    n = 40 * len(worlds)
    weighted: dict = defaultdict(float)
    plain: Counter = Counter()
    for _ in range(n):
        found, lw = weighted_draw(det, view, rng, model, past=past)
        key = holding_key(found.holding)
        # a world's weight is its own, whatever history or draw found it
        assert math.isclose(math.exp(lw), likelihood[key])
        weighted[key] += math.exp(lw)
        plain[key] += 1
    total = sum(weighted.values())
    freq = {w: x / total for w, x in weighted.items()}
    bound = tv_bound(posterior, n)
    uniform = {w: 1 / len(worlds) for w in worlds}
    assert tv(freq, posterior) < bound, (tv(freq, posterior), bound)
    # the check can fail: the unweighted draws miss by as much as the prior does
    prior_gap = tv(uniform, posterior)
    if prior_gap > 2 * bound:
        assert tv({w: c / n for w, c in plain.items()}, posterior) > bound
    print(
        f"{game}: {len(worlds)} worlds, {n} draws, TV {tv(freq, posterior):.3f} "
        f"< {bound:.3f}; prior's TV {prior_gap:.3f}"
    )


def test_the_posterior_check_can_fail():
    """Weights off by a factor 3 on half of the worlds are caught by the bound."""
    posterior = {i: (3 if i < 5 else 1) / 20 for i in range(10)}
    skewed = dict.fromkeys(range(10), 0.1)  # what uniform (unweighted) draws would give
    assert tv(skewed, posterior) > tv_bound(posterior, 400)


def chiamo_position():
    """A Mediatore deal of four basic bots in which a seat bid Chiamo and the others passed,
    seen by a defender at the first lead."""
    basic = get_bot("mediatore", "basic").choose
    for seed in range(100):
        m = start_match("mediatore", seed=f"infer/{seed}", n_deals=1)
        rng = random.Random(seed)
        while m.view(0)["phase"] not in ("play", "over"):
            s = m.to_act()[0]
            m.apply(s, basic(m.view(s), m.legal(s), rng))
        view = m.view(0)
        bids = [b for b in view["bids"] if b["act"] == "bid"]
        if view["contract"] == "chiamo" and len(bids) == 1 and view["declarer"] != 0:
            return view
    raise AssertionError("no Chiamo deal found")


def test_a_chiamo_bidder_holds_a_hand_worth_it_in_the_weighted_worlds():
    view = chiamo_position()
    det = get_game("mediatore").determiniser
    model = model_for("mediatore", 0.1)
    d = view["declarer"]
    rng = random.Random(7)
    strong = {"weighted": 0.0, "uniform": 0}
    mass = 0.0
    n = 150
    for _ in range(n):
        found, lw = weighted_draw(det, view, rng, model, plays=False)
        w = math.exp(lw)
        worth = hand_strength(found.start.view(d)["hand"]) >= BID_AT["chiamo"]
        strong["weighted"] += w * worth
        strong["uniform"] += worth
        mass += w
    weighted, uniform = strong["weighted"] / mass, strong["uniform"] / n
    assert weighted > 0.8
    assert weighted > uniform + 0.3, (weighted, uniform)
    print(f"Chiamo bidder worth it: weighted {weighted:.2f}, uniform {uniform:.2f}")


def test_no_model_for_a_game_whose_basic_bot_searches():
    assert model_for("saichugen") is None
    assert model_for("mediatore") is not None


def test_a_softened_model_is_a_distribution():
    m = start_match("schieberamsch", seed="soft", n_deals=1)
    seat = m.to_act()[0]
    view, legal = m.view(seat), m.legal(seat)
    model = softened(get_bot("schieberamsch", "basic").choose, 0.2)
    total = sum(model(view, legal, dict(a)) for a in legal)
    assert count_actions(legal) == len(legal) and math.isclose(total, 1.0)
    assert count_actions([{"act": "discard", "choose": 2, "from": ["a", "b", "c", "d"]}]) == 6


def test_the_search_weighs_and_stays_reproducible():
    view = chiamo_position()
    m_legal = None
    # the position where seat 0 is to act next in that deal
    basic = get_bot("mediatore", "basic").choose
    for seed in range(100):
        m = start_match("mediatore", seed=f"infer/{seed}", n_deals=1)
        rng = random.Random(seed)
        while m.view(0)["phase"] not in ("play", "over") or m.to_act()[0] != 0:
            s = m.to_act()[0]
            m.apply(s, basic(m.view(s), m.legal(s), rng))
        if m.view(0)["declarer"] == view["declarer"] and m.view(0)["contract"] == "chiamo":
            m_legal = (m.view(0), m.legal(0))
            break
    assert m_legal is not None
    v, legal = m_legal
    prior = basic(v, legal, random.Random(0))
    runs = [
        search(v, legal, random.Random(3), prior=prior, budget=Budget(iterations=4, inference=i))
        for i in (Inference(plays=False), Inference(plays=False), False)
    ]
    assert runs[0].means == runs[1].means and runs[0].action == runs[1].action
    assert runs[0].worlds == 4 and runs[2].worlds == 4
    assert runs[0].means != runs[2].means


def test_only_what_the_seat_saw_weighs_a_world():
    """A stand-in for a hidden choice does not count; a 3-5-8 pass to the seat itself does."""
    view = {"seat": 0}
    det = get_game("schieberamsch").determiniser
    assert det.observed(view, 1, {"act": "pass"})
    assert not det.observed(view, 0, {"act": "pass"})
    assert not det.observed(view, 1, {"act": "discard", "cards": ["7H", "8H"]})
    det = get_game("three_five_eight").determiniser
    assert det.observed(view, 1, {"act": "give", "to": 0, "cards": ["2H"]})
    assert not det.observed(view, 1, {"act": "give", "to": 2, "cards": ["2H"]})


def test_a_game_may_keep_uniform_worlds_by_default():
    """Schieberamsch measured no better with weights: its strong level keeps uniform worlds
    unless asked, and asked, it weighs them."""
    assert not by_default("schieberamsch") and by_default("mediatore")
    assert model_for("schieberamsch") is not None
