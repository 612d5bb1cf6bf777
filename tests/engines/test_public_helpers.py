"""The engines' public pure helpers (what the bots import instead of re-deriving the rules).

Two kinds of property: each helper agrees with the engine's own play (every trick the engine
settled in random games has the winner `trick_winner` names), and each follows the rules file
(checked against a plain statement of the rule, card by card).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import start_match
from games.core.cards import FRENCH32, FRENCH52, ITALIAN40
from games.mediatore import engine as mediatore
from games.saichugen import engine as saichugen
from games.schieberamsch import engine as schieberamsch
from games.three_five_eight import engine as t358

from .helpers import concrete, random_variant

PROPS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def tricks(cards: list[str], size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(cards), min_size=1, max_size=size, unique=True)


def played_tricks(game: str, seed: int) -> tuple[list[tuple[list[str], int, int, str | None]], int]:
    """Every trick of a random match as its `trick` event says: (cards in play order, leader,
    winner, the trump at the time)."""
    rng = random.Random(seed)
    m = start_match(game, seed=seed, n_deals=2, variant=random_variant(game, rng))
    out = []
    while not m.finished:
        trump = m.view(None).get("trump")
        seat = rng.choice(m.to_act())
        for e in m.apply(seat, concrete(rng.choice(m.legal(seat)), rng)):
            if e["event"] == "trick":
                out.append((e["cards"], e["leader"], e["winner"], trump))
    return out, m.SEATS


# ---------------------------------------------------------------- against the engines' play
# (cards, trump) -> index of the winning card, per trick-taking game
WINNERS = {
    "three_five_eight": t358.trick_winner,
    "schieberamsch": lambda cards, _trump: schieberamsch.trick_winner(cards),
    "mediatore": lambda cards, _trump: mediatore.trick_winner(cards),
}


@pytest.mark.parametrize("game", list(WINNERS))
@PROPS
@given(seed=seeds)
def test_trick_winner_names_the_winner_the_engine_settled(game, seed):
    found, seats = played_tricks(game, seed)
    assert found
    for cards, leader, winner, trump in found:
        assert (leader + WINNERS[game](cards, trump)) % seats == winner


@PROPS
@given(seed=seeds)
def test_saichugen_trick_winner_names_the_median_card_the_engine_revealed(seed):
    rng = random.Random(seed)
    m = start_match("saichugen", seed=seed, n_deals=1, variant=random_variant("saichugen", rng))
    reveals = 0
    while not m.finished:
        seat = rng.choice(m.to_act())
        for e in m.apply(seat, rng.choice(m.legal(seat))):
            if e["event"] == "reveal":
                reveals += 1
                assert saichugen.trick_winner(e["cards"]) == e["winner"]
                assert saichugen.card_value(e["card"]) == e["value"]
    assert reveals == 15


# ---------------------------------------------------------------- against the rules
def best(cards: list[str], strength, wins) -> int:
    """The index of the highest card among those that can win (`wins`), first one on a tie."""
    able = [i for i, c in enumerate(cards) if wins(c)]
    return max(able, key=lambda i: (strength(cards[i]), -i))


@PROPS
@given(cards=tricks(FRENCH52.codes(FRENCH52.ids), 3), trump=st.sampled_from([*"SHDC", None]))
def test_three_five_eight_highest_trump_else_highest_of_the_suit_led(cards, trump):
    led = cards[0][1]
    trumps = [c for c in cards if c[1] == trump]
    wins = (lambda c: c[1] == trump) if trumps else (lambda c: c[1] == led)
    assert t358.trick_winner(cards, trump) == best(cards, t358.card_strength, wins)


@PROPS
@given(card=st.sampled_from(FRENCH52.codes(FRENCH52.ids)))
def test_three_five_eight_aces_high_and_the_cards_that_beat_one(card):
    assert t358.card_strength(card) == 13 - "AKQJT98765432".index(card[0])
    higher = t358.higher_in_suit(card)
    assert higher == sorted(higher, key=t358.card_strength, reverse=True)
    assert set(higher) == {
        c
        for c in FRENCH52.codes(FRENCH52.ids)
        if c[1] == card[1] and t358.card_strength(c) > t358.card_strength(card)
    }


@PROPS
@given(cards=tricks(ITALIAN40.codes(ITALIAN40.ids), 4))
def test_mediatore_no_trumps_the_highest_of_the_suit_led(cards):
    led = cards[0][1]
    expected = best(cards, mediatore.card_strength, lambda c: c[1] == led)
    assert mediatore.trick_winner(cards) == expected


def test_mediatore_ranks_and_card_points():
    codes = ITALIAN40.codes(ITALIAN40.ids)
    assert [mediatore.card_strength(r + "d") for r in "32ARCF7654"] == list(range(10, 0, -1))
    assert {c[0]: mediatore.card_thirds(c) for c in codes if c[1] == "b"} == dict(
        zip("32ARCF7654", [1, 1, 3, 1, 1, 1, 0, 0, 0, 0], strict=True)
    )
    # 32 thirds in the cards and 3 for the last trick: the 35 of the rules
    assert sum(map(mediatore.card_thirds, codes)) + mediatore.LAST_TRICK == mediatore.TOTAL_THIRDS
    for card in codes:
        higher = mediatore.higher_in_suit(card)
        assert all(c[1] == card[1] for c in higher)
        assert [mediatore.card_strength(c) for c in higher] == list(
            range(10, mediatore.card_strength(card), -1)
        )


@PROPS
@given(cards=tricks(FRENCH32.codes(FRENCH32.ids), 3))
def test_schieberamsch_highest_jack_else_highest_of_the_suit_led(cards):
    jacks = [c for c in cards if c[0] == "J"]
    led = cards[0][1]
    if jacks:
        expected = cards.index(min(jacks, key=["JC", "JS", "JH", "JD"].index))
    else:
        expected = best(cards, schieberamsch.card_strength, lambda c: c[1] == led)
    assert schieberamsch.trick_winner(cards) == expected


def test_schieberamsch_jacks_are_the_trumps_above_every_plain_card():
    codes = FRENCH32.codes(FRENCH32.ids)
    assert sum(map(schieberamsch.card_points, codes)) == 120
    assert [schieberamsch.card_points(r + "H") for r in "ATKQJ987"] == [11, 10, 4, 3, 2, 0, 0, 0]
    jacks = [c for c in codes if schieberamsch.is_trump(c)]
    assert sorted(jacks) == ["JC", "JD", "JH", "JS"]
    plain = [c for c in codes if c not in jacks]
    lowest_jack = min(map(schieberamsch.card_strength, jacks))
    assert all(schieberamsch.card_strength(c) < lowest_jack for c in plain)
    assert [schieberamsch.card_strength(j) for j in ["JC", "JS", "JH", "JD"]] == [11, 10, 9, 8]
    assert [schieberamsch.card_strength(r + "S") for r in "ATKQ987"] == [7, 6, 5, 4, 3, 2, 1]
    assert {schieberamsch.follow_suit(c) for c in jacks} == {"J"}
    assert all(schieberamsch.follow_suit(c) == c[1] for c in plain)
    assert schieberamsch.higher_in_suit("JH") == ["JC", "JS"]
    assert schieberamsch.higher_in_suit("9S") == ["AS", "TS", "KS", "QS"]  # not the JS
    assert schieberamsch.higher_in_suit("AD") == []


@PROPS
@given(
    three=st.lists(
        st.sampled_from(FRENCH52.codes(FRENCH52.ids)), min_size=3, max_size=3, unique=True
    )
)
def test_saichugen_the_median_strength_wins(three):
    ranked = sorted(three, key=saichugen.card_strength)
    assert saichugen.trick_winner(three) == three.index(ranked[1])


def test_saichugen_values_strengths_and_payout_mode():
    codes = FRENCH52.codes(FRENCH52.ids)
    assert [saichugen.card_value(r + "C") for r in "A23456789TJQK"] == list(range(1, 14))
    strengths = [saichugen.card_strength(c) for c in codes]
    assert len(set(strengths)) == 52  # no two cards tie: every trick has one median
    assert (
        saichugen.card_strength("5S")
        > saichugen.card_strength("5H")
        > saichugen.card_strength("5D")
        > saichugen.card_strength("5C")
    )
    assert saichugen.card_strength("6C") > saichugen.card_strength("5S")
    assert saichugen.payout_mode(None) == saichugen.payout_mode({}) == "zero_sum"
    assert saichugen.payout_mode({"payout": "raw"}) == "raw"
