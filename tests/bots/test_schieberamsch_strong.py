"""Schieberamsch's strong level counts sure tricks before it announces a Grand Hand, kontra or
re (games/schieberamsch/hand.py, strong.py): clear hands counted as a Skat player counts them,
the gate that keeps hopeless announcements from the search, and the basic bot's defence."""

from __future__ import annotations

import random

import pytest

from games import bots
from games.schieberamsch import strong
from games.schieberamsch.hand import defence_tricks, grand_tricks, jack_tricks, suit_tricks
from games.schieberamsch.strong import OFFER_GATE, gate

# The issue's two lost Grand Hands, and hands any Skat player declares or passes.
ISSUE_HANDS = ["JH JD AC 9C 8S 7S KH QH 9D 8D", "JC AS 9S KC 8C 7H 9H QD 8D 7D"]
COLD_GRANDS = ["JC JS JH JD AS AC AD TC TD KC", "JC JS JH AC TC KC 9C AS TS AH"]
HOPELESS = [*ISSUE_HANDS, "JC JS JH 7C 8C 9S 8S 7H 8H 9D", "JC JS TH KH QD 9D 8C 7C QS 8S"]


def cards(text: str) -> list[str]:
    return text.split()


def test_jacks_in_unbroken_order_from_the_club_jack_are_sure_tricks_the_rest_half():
    assert jack_tricks(cards("JC JS JH JD")) == 4
    assert jack_tricks(cards("JC JS JD")) == 2.5
    assert jack_tricks(cards("JS JH")) == 1  # no Spitze: two half tricks
    assert jack_tricks(cards("7C 8C")) == 0


def test_a_suit_counts_its_top_from_the_ace_and_the_length_of_an_ace_suit():
    assert suit_tricks(cards("AS TS KS QS 9S"), "S") == 5
    assert suit_tricks(cards("AS TS 9S"), "S") == 2
    assert suit_tricks(cards("AS 9S 8S 7S"), "S") == 1
    assert suit_tricks(cards("AS QS 9S 8S 7S"), "S") == 2  # the fifth card runs
    assert suit_tricks(cards("TS KS 7S"), "S") == 0.5  # no ace: a guarded ten, half a trick
    assert suit_tricks(cards("TS 7S"), "S") == 0
    assert suit_tricks(cards("JS 7S"), "S") == 0  # a jack is no spade


@pytest.mark.parametrize("hand", COLD_GRANDS)
def test_a_cold_grand_counts_beyond_the_gate(hand):
    assert grand_tricks(cards(hand)) >= OFFER_GATE[1]


@pytest.mark.parametrize("hand", HOPELESS)
def test_a_hopeless_grand_counts_below_the_gate(hand):
    assert grand_tricks(cards(hand), forehand=True) < OFFER_GATE[0]


def test_forehand_is_worth_half_a_trick():
    hand = cards(COLD_GRANDS[1])
    assert grand_tricks(hand, forehand=True) == grand_tricks(hand) + 0.5
    assert defence_tricks(hand) == grand_tricks(hand)


def view(hand: str, seat: int = 1, forehand: int = 1) -> dict:
    return {"hand": cards(hand), "seat": seat, "forehand": forehand}


OFFER = [{"act": "grand_hand"}, {"act": "pass"}]
KONTRA = [{"act": "kontra"}, {"act": "pass"}]
RE = [{"act": "re"}, {"act": "pass"}]


def test_the_gate_drops_a_hopeless_announcement_and_makes_a_sure_one():
    for hand in ISSUE_HANDS:
        assert gate(view(hand), OFFER) == [{"act": "pass"}]
        assert gate(view(hand), RE) == [{"act": "pass"}]
    assert gate(view(COLD_GRANDS[0]), OFFER) == [{"act": "grand_hand"}]
    assert gate(view(COLD_GRANDS[0]), RE) == [{"act": "re"}]
    assert gate(view("7C 8C 9C 7S 8S 7H 8H 9H QD 8D"), KONTRA) == [{"act": "pass"}]
    assert gate(view("JC JS AC TC AS TS AH 8D 7D 9H"), KONTRA) == [{"act": "kontra"}]


def test_between_the_gates_the_search_decides_and_other_decisions_pass_through():
    middling = "JC JS JD AC TC 9C AH 8H 7S 8S"  # 2.5 + 2 + 1 = 5.5, +½ leading: 6
    assert OFFER_GATE[0] <= grand_tricks(cards(middling), forehand=True) < OFFER_GATE[1]
    assert gate(view(middling), OFFER) == OFFER
    play = [{"act": "play", "card": "7S"}, {"act": "play", "card": "8S"}]
    assert gate(view(middling), play) == play


def test_the_strong_level_is_the_gated_search_and_passes_the_issues_hands_without_searching():
    bot = bots.get_bot("schieberamsch", "strong")
    assert bot.choose is strong.choose and bot.searches
    for hand in ISSUE_HANDS:
        out = strong.decide(view(hand), OFFER, random.Random(0))
        assert out.action == {"act": "pass"} and out.worlds == 0


def test_the_basic_defence_doubles_a_grand_it_beats_and_only_a_sure_declarer_redoubles():
    basic = bots.get_bot("schieberamsch", "basic").choose
    rng = random.Random(0)
    assert basic(view("JC JS AC TC AS TS AH 8D 7D 9H"), KONTRA, rng) == {"act": "kontra"}
    assert basic(view("7C 8C 9C 7S 8S 7H 8H 9H QD 8D"), KONTRA, rng) == {"act": "pass"}
    assert basic(view(COLD_GRANDS[0]), RE, rng) == {"act": "re"}
    assert basic(view(ISSUE_HANDS[0]), RE, rng) == {"act": "pass"}
    assert basic(view(ISSUE_HANDS[0]), OFFER, rng) == {"act": "pass"}
    assert basic(view(COLD_GRANDS[1]), OFFER, rng) == {"act": "grand_hand"}
