"""Determinisers (docs/bots.md, "Determinisers"): every game's, found through the registry.

1. A sampled world never contradicts a public fact: replayed, the sampled history gives the seat
   exactly the view it had at every step (compared wherever the two histories have had the same
   seats act: Saichugen's commits within a trick come in an order nobody sees), its cards are
   one full deck, and play goes on from it on the fast path.
2. On small end positions the samples are uniform over the consistent worlds: those are found by
   brute force (every assignment of the unseen cards, no pruning, each replayed through the
   engine), the sampler's own support must be exactly that set, and a chi-square test on fixed
   seeds (deterministic: it cannot fail by chance) compares the counts with uniform.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from math import sqrt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import game_names, get_game, start_match
from games.core.determiniser import all_holdings, count_holdings, holding_key

from ..engines.helpers import random_action, random_variant

GAMES = game_names()
PROPS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def position(game: str, seed: int, n_deals: int = 2):
    """A random position of a random variant: the real match, a seat, its view, the past."""
    rng = random.Random(seed)
    variant = random_variant(game, rng)
    seats = get_game(game).seats
    m = start_match(game, dealer=rng.randrange(seats), variant=variant, n_deals=n_deals, seed=seed)
    steps = rng.randrange(0, 90)
    for _ in range(steps):
        if m.finished:
            break
        seat, action = random_action(m, rng)
        m.apply(seat, action)
    if m.finished:
        return None
    seat = rng.randrange(seats)
    json.dumps(m.view(seat))
    return m, seat, m.view(seat), m.export()["deals"][: m.deal_no]


def views_along(m, seat: int) -> list[tuple[Counter, dict]]:
    """The seat's view after each action of the current deal, replayed from the deal's start,
    with the seats that had acted by then."""
    deal = m.deal_no
    rec = m.export()
    first = start_match(
        m.GAME,
        dealer=m.first_dealer,
        variant=m.variant,
        n_deals=m.n_deals,
        deals=[{"hands": d["hands"], "stock": d["stock"]} for d in rec["deals"][: deal + 1]],
    )
    for d in rec["deals"][:deal]:
        for a in d["actions"]:
            first.apply(a["seat"], {k: v for k, v in a.items() if k != "seat"})
    out = [(Counter(), first.view(seat))]
    acted: Counter = Counter()
    for a in rec["deals"][deal]["actions"]:
        first.apply(a["seat"], {k: v for k, v in a.items() if k != "seat"})
        acted[a["seat"]] += 1
        out.append((acted.copy(), first.view(seat)))
    return out


@pytest.mark.parametrize("game", GAMES)
@PROPS
@given(seed=seeds)
def test_a_sample_contradicts_no_public_fact(game, seed):
    found = position(game, seed)
    if found is None:
        return
    real, seat, view, past = found
    det = get_game(game).determiniser
    holding, world = det.draw(view, random.Random(seed), past=past)
    assert world.view(seat) == view
    # the same view at every step where the same seats had acted
    truth = views_along(real, seat)
    sampled = views_along(world, seat)
    by_seats = {}
    for acted, v in sampled:
        by_seats.setdefault(tuple(sorted(acted.items())), []).append(v)
    compared = 0
    for acted, v in truth:
        key = tuple(sorted(acted.items()))
        if key in by_seats:
            assert v in by_seats[key]
            compared += 1
    assert compared >= 1
    # one full deck: the sampled deal's cards, and the unseen cards with what the seat knows
    deck = world.deck_for(world.variant)
    hands, stock, _ = world.log[world.deal_no]
    assert sorted([*(c for h in hands for c in h), *stock]) == sorted(deck.ids)
    slots = det.slots(view)
    assert sorted(c for cs in holding.values() for c in cs) == sorted(slots.pool)
    # play goes on from it on the fast path
    rng = random.Random(seed)
    copy = world.clone()
    for _ in range(500):
        if copy.finished:
            break
        s = copy.actor()
        copy.play(s, copy.random_move(s, rng))
    assert copy.finished or copy.actor() >= 0


TARGET_WORLDS = 40


def end_position(game: str, deal: int = 0, limit: int = 150, budget: int = 400):
    """The position of deal ``deal`` whose number of consistent worlds (2 to ``limit``) is the
    nearest to ``TARGET_WORLDS``, among those of the first fixed seed that has one, each with
    at most ``budget`` unpruned assignments (enumerated by brute force)."""
    det = get_game(game).determiniser
    for seed in range(200):
        rng = random.Random(seed)
        variant = random_variant(game, rng)
        seats = get_game(game).seats
        m = start_match(
            game, dealer=rng.randrange(seats), variant=variant, n_deals=deal + 1, seed=seed
        )
        seat = rng.randrange(seats)
        best = None
        while not m.finished:
            if m.deal_no == deal:
                view = m.view(seat)
                past = m.export()["deals"][:deal]
                slots = det.slots(view)
                every = slots.__class__(slots.pool, slots.counts)  # no pruning
                if 2 <= count_holdings(every) <= budget:
                    worlds = {
                        holding_key(h)
                        for h in all_holdings(slots, ignore_allowed=True)
                        if det.world(view, h, past=past) is not None
                    }
                    near = abs(len(worlds) - TARGET_WORLDS)
                    if 2 <= len(worlds) <= limit and (
                        best is None or near < abs(len(best[3]) - TARGET_WORLDS)
                    ):
                        best = (view, past, slots, worlds)
            s, action = random_action(m, rng)
            m.apply(s, action)
        if best is not None:
            return best
    raise AssertionError(f"no small {game} end position found")


def chi2_bound(df: int) -> float:
    """A generous upper bound of the chi-square statistic: the 99.99th percentile (z = 3.72) by
    the Wilson-Hilferty approximation."""
    z = 3.72
    return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("deal", [0, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.parametrize("game", GAMES)
def test_samples_are_uniform_over_the_consistent_worlds(game, deal):
    """Deal 1 too: a 3-5-8 hand with an exchange, a later deal replayed from the past."""
    view, past, slots, worlds = end_position(game, deal)
    det = get_game(game).determiniser
    # the sampler's support (pruned proposal + replay) is exactly the brute-force set
    support = {
        holding_key(h) for h in all_holdings(slots) if det.world(view, h, past=past) is not None
    }
    assert support == worlds
    per_world = 20
    n = per_world * len(worlds)
    rng = random.Random(2026)
    counts = Counter(holding_key(det.draw(view, rng, past=past)[0]) for _ in range(n))
    assert set(counts) <= worlds
    expected = n / len(worlds)
    chi2 = sum((counts.get(w, 0) - expected) ** 2 / expected for w in worlds)
    assert chi2 < chi2_bound(len(worlds) - 1), (chi2, len(worlds))
    print(f"{game} deal {deal}: {len(worlds)} worlds, {n} draws, chi2 {chi2:.1f}")


def test_a_biased_sampler_fails_the_uniformity_check():
    """The check can fail: 10 worlds, 30 draws each expected, half of them drawn three times as
    often as the other half (a greedy deal's kind of bias) is caught; a fair count is not."""
    skewed = [45] * 5 + [15] * 5
    assert sum((c - 30) ** 2 / 30 for c in skewed) > chi2_bound(9)
    fair = [30, 28, 33, 31, 27, 30, 29, 32, 30, 30]
    assert sum((c - 30) ** 2 / 30 for c in fair) < chi2_bound(9)


def test_every_game_has_a_determiniser():
    for game in GAMES:
        assert game == get_game(game).determiniser.GAME
