"""Why a card is not playable (`Match.why_not`) and the reasons of refused actions.

table-protocol.md, "Additions": a seat to act learns, for each card of its hand that no legal
action uses, a stable code, its parameters and an English message; an illegal action carries the
same kind of code (`IllegalAction.reason`, `.params`). Properties over random play of every game,
then one worked example per game and per code.
"""

from __future__ import annotations

import ast
import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import IllegalAction, game_names, get_game, start_match
from games.core.base import COMMON_REASONS
from games.core.errors import GENERIC_REASON

from .helpers import concrete, random_action, random_variant

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names()
PROPS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


# ---------------------------------------------------------------- helpers
def cards_used(legal: list[dict[str, Any]]) -> set[str]:
    """Every card some legal action (or template) of the list may use."""
    used: set[str] = set()
    for entry in legal:
        if "card" in entry:
            used.add(entry["card"])
        if "from" in entry:
            used.update(entry["from"])
        for part in ("discard", "give"):
            if isinstance(entry.get(part), dict):
                used.update(entry[part]["from"])
    return used


def attempt(legal: list[dict[str, Any]], card: str) -> dict[str, Any]:
    """The action that tries to use ``card`` the way the legal actions use cards: played,
    committed or called in its place, or chosen with the first other cards of a template."""
    for entry in legal:
        if "card" in entry and "signal" not in entry:
            return {**entry, "card": card}
    entry = legal[0]
    if "choose" in entry:
        others = [c for c in entry["from"] if c != card][: entry["choose"] - 1]
        action = {"act": entry["act"], "cards": [card, *others]}
        if "to" in entry:
            action["to"] = entry["to"]
        return action
    if entry["act"] == "exchange":  # Mediatore: the card among the four discarded
        discard = [card, *[c for c in entry["discard"]["from"] if c != card][:3]]
        give = entry["give"] and next(c for c in entry["give"]["from"] if c not in discard)
        return {"act": "exchange", "discard": discard, "give": give}
    raise AssertionError(f"no card action in {legal}")


def refusal(m, seat: int, action: Any) -> IllegalAction:
    before = m.dump()
    with pytest.raises(IllegalAction) as caught:
        m.apply(seat, action)
    assert m.dump() == before, "a refused action changes nothing"
    return caught.value


def check_reason(m, why: dict[str, Any]) -> None:
    assert set(why) == {"code", "params", "message"}
    assert why["code"] in m.REASONS, why
    assert isinstance(why["params"], dict) and isinstance(why["message"], str) and why["message"]
    json.dumps(why)


def varied_action(m, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random legal action, the first listed one (a pass, a low bid) more often than the rest:
    auctions then end in every contract, not mostly in the highest."""
    seat = rng.choice(m.to_act())
    legal = m.legal(seat)
    return seat, concrete(legal[0] if rng.random() < 0.4 else rng.choice(legal), rng)


def new_match(game: str, seed: int):
    rng = random.Random(seed)
    variant = random_variant(game, rng)
    dealer = rng.randrange(get_game(game).seats)
    return start_match(game, dealer=dealer, variant=variant, n_deals=2, seed=seed), rng


# ---------------------------------------------------------------- properties
@pytest.mark.parametrize("game", GAMES)
@PROPS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_why_not_lists_exactly_the_cards_no_legal_action_uses_and_apply_agrees(game, seed):
    m, rng = new_match(game, seed)
    tried = 0
    for _ in range(2000):
        if m.finished:
            break
        to_act = m.to_act()
        for seat in range(m.SEATS):
            why_not = m.why_not(seat)
            if seat not in to_act:
                assert why_not is None, "no reasons for a seat that is not to act"
                continue
            legal = m.legal(seat)
            hand = set(m.view(seat)["hand"])
            used = cards_used(legal)
            if why_not is None:  # a phase that chooses no card: bidding, trump, announcing
                assert not used & hand
                continue
            assert set(why_not) == hand - used
            for why in why_not.values():
                check_reason(m, why)
            if why_not and tried < 40:
                card = rng.choice(sorted(why_not))
                error = refusal(m, seat, attempt(legal, card))
                assert (error.reason, error.params) == (
                    why_not[card]["code"],
                    why_not[card]["params"],
                )
                assert str(error) == why_not[card]["message"]
                tried += 1
        m.apply(*varied_action(m, rng))
    assert m.why_not(0) is None or not m.finished


@pytest.mark.parametrize("game", GAMES)
@PROPS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_refusal_has_a_code_of_its_game(game, seed):
    m, rng = new_match(game, seed)
    for _ in range(rng.randrange(80)):
        if m.finished:
            return
        m.apply(*random_action(m, rng))
    if m.finished:  # a short game can end within the 80 actions
        return
    deck = m.deck_for(m.variant)
    seat = m.to_act()[0]
    hand = m.view(seat)["hand"]
    others = [c for c in deck.codes(deck.ids) if c not in hand]
    tries = [
        {"act": "nonsense"},
        {"act": "pass", "signal": "busso"},
        {"act": "play", "card": "ZZ"},
        {"act": "play", "card": rng.choice(others) if others else "ZZ"},
        {"act": "commit", "card": rng.choice(hand)},
        {"act": "discard", "cards": "AS"},
        {"act": "discard", "cards": hand[:1] * 2},
        {"act": "give", "to": 9, "cards": hand[:1]},
        {"act": "trump", "suit": "X"},
        {"act": "bid", "tricks": 99, "contract": "grand"},
        {"act": "call", "card": rng.choice(hand)},
        {"act": "exchange", "discard": hand[:4], "give": hand[0]},
    ]
    legal = {json.dumps(a, sort_keys=True) for a in m.legal(seat)}
    for action in tries:
        if json.dumps(action, sort_keys=True) in legal:
            continue
        error = refused_or_none(m, seat, action)
        if error is None:
            return  # it happened to be legal (a template's choice): it was applied
        assert error.reason in m.REASONS, (action, str(error))
        assert error.reason != GENERIC_REASON, (action, str(error))
        json.dumps(error.params)


def refused_or_none(m, seat: int, action: Any) -> IllegalAction | None:
    try:
        m.apply(seat, action)
    except IllegalAction as e:
        return e
    return None


@pytest.mark.parametrize("game", GAMES)
def test_no_reason_for_anyone_once_the_match_is_over(game):
    m, rng = new_match(game, 3)
    while not m.finished:
        m.apply(*random_action(m, rng))
    assert all(m.why_not(s) is None for s in range(m.SEATS))
    error = refusal(m, 0, {"act": "pass"})
    assert error.reason == "match_over"


def test_every_raise_site_gives_a_reason():
    """No engine refuses an action with the generic fallback code: every ``IllegalAction`` is
    built with a code (``refuse``, ``IllegalAction.because``)."""
    sites = 0
    for path in (ROOT / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                sites += 1
                has_reason = len(node.args) >= 2 or any(k.arg == "reason" for k in node.keywords)
                assert has_reason, f"{path.name}:{node.lineno} raises without a reason"
    assert sites >= 1  # base.refuse


@pytest.mark.parametrize("game", GAMES)
def test_the_codes_of_every_game_are_documented(game):
    engine = get_game(game).engine
    assert engine.REASONS >= COMMON_REASONS
    docs = (ROOT / "docs" / "engines.md").read_text()
    section = re.split(r"\n#{2,3} ", docs.split("### Why not: reasons", 1)[1], maxsplit=1)[0]
    common = next(line for line in section.splitlines() if line.startswith("| every game"))
    # the game's own codes: its package's README.md, section "Reasons"
    readme = (get_game(game).site_dir.parent / "README.md").read_text()
    own = re.split(r"\n## ", readme.split("\n## Reasons\n", 1)[1], maxsplit=1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", own + common)) - {game}
    assert documented == set(engine.REASONS)


# ---------------------------------------------------------------- worked examples: Saichugen
def test_saichugen_every_card_may_be_committed_and_a_commit_ends_the_seats_turn():
    m = start_match("saichugen", seed=1)
    assert [m.why_not(s) for s in range(3)] == [{}, {}, {}]
    card = m.view(0)["hand"][0]
    m.apply(0, {"act": "commit", "card": card})
    assert m.why_not(0) is None  # committed: not to act, nothing to explain
    error = refusal(m, 0, {"act": "commit", "card": m.view(0)["hand"][0]})
    assert (error.reason, error.params) == ("already_committed", {})
    hand1 = m.view(1)["hand"]
    assert refusal(m, 1, {"act": "commit", "card": card}).params == {"card": card}
    assert refusal(m, 1, {"act": "commit", "card": card}).reason == "card_not_held"
    assert refusal(m, 1, {"act": "commit", "card": "XX"}).reason == "unknown_card"
    assert refusal(m, 1, {"act": "play", "card": hand1[0]}).reason == "unknown_act"
    error = refusal(m, 1, {"act": "commit", "card": hand1[0], "signal": "busso"})
    assert error.reason == "no_signals"
    assert refusal(m, 3, {"act": "commit", "card": hand1[0]}).reason == "no_such_seat"
    assert refusal(m, 1, ["commit"]).reason == "malformed_action"


# ---------------------------------------------------------------- worked examples: 3-5-8
def cards(text: str) -> list[str]:
    return text.split()


H358 = [
    cards("AS KS QS JS TS 9S 8S 7S AH KH QH JH TH 9H 8H 7H"),
    cards("6S 5S AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D 6H"),
    cards("4S 3S 2S 5H 4H 3H 2H AC KC QC JC TC 9C 8C 7C 6C"),
]
KITTY = ["5C", "4C", "3C", "2C"]


def test_three_five_eight_must_follow_suit_and_no_reason_outside_card_phases():
    m = start_match("three_five_eight", deals=[{"hands": H358, "stock": KITTY}])
    assert m.why_not(0) is None  # naming trump chooses no card
    error = refusal(m, 0, {"act": "trump", "suit": "N"})
    assert (error.reason, error.params) == ("no_such_suit", {"suits": ["S", "H", "D", "C"]})
    assert refusal(m, 0, {"act": "play", "card": "AS"}).reason == "wrong_phase"
    assert refusal(m, 0, {"act": "play", "card": "AS"}).params == {
        "phase": "trump",
        "acts": ["trump"],
    }
    error = refusal(m, 1, {"act": "trump", "suit": "S"})
    assert (error.reason, error.params) == ("not_your_turn", {"to_act": [0]})
    m.apply(0, {"act": "trump", "suit": "C"})
    assert m.why_not(0) == {}  # the kitty discard takes any four cards
    assert refusal(m, 0, {"act": "discard", "cards": ["AS"]}).params == {"expected": 4, "count": 1}
    assert refusal(m, 0, {"act": "discard", "cards": ["AS"] * 4}).reason == "same_card_twice"
    assert refusal(m, 0, {"act": "discard", "cards": "AS"}).reason == "cards_not_a_list"
    assert refusal(m, 0, {"act": "discard", "cards": ["6C"] * 4}).reason == "card_not_held"
    m.apply(0, {"act": "discard", "cards": ["7S", "8S", "7H", "8H"]})
    # seat 1 (eldest) leads a spade; seat 2 holds 4S 3S 2S and must follow
    m.apply(1, {"act": "play", "card": "6S"})
    why_not = m.why_not(2)
    follow = {"code": "must_follow_suit", "params": {"suit": "S"}, "message": "must follow suit S"}
    assert set(why_not) == set(m.view(2)["hand"]) - {"4S", "3S", "2S"}
    assert all(why == follow for why in why_not.values())
    assert m.why_not(0) is None and m.why_not(1) is None
    error = refusal(m, 2, {"act": "play", "card": "AC"})
    assert (error.reason, error.params) == ("must_follow_suit", {"suit": "S"})
    assert str(error) == "must follow suit S"


def test_three_five_eight_exchange_and_woburn_reasons():
    m = start_match("three_five_eight", seed=4, variant={"woburn_bidding": True})
    assert m.why_not(0) is None  # bidding chooses no card
    error = refusal(m, 0, {"act": "bid", "tricks": 7})
    assert (error.reason, error.params) == ("bid_out_of_range", {"min": 8, "max": 16})
    m.apply(0, {"act": "bid", "tricks": 9})
    error = refusal(m, 1, {"act": "bid", "tricks": 9})
    assert (error.reason, error.params) == ("bid_too_low", {"high": 9})
    # an exchange: play a seeded match until one starts, then give to the wrong seat
    rng = random.Random(1)
    m = start_match("three_five_eight", seed=2, n_deals=5)
    while m.view(None)["phase"] != "exchange":
        m.apply(*random_action(m, rng))
    seat = m.to_act()[0]
    pending = m.view(None)["exchange"]["pending"][0]
    assert m.why_not(seat) == {}  # any card may be given; the returns are the engine's
    wrong = next(s for s in range(3) if s not in (seat, pending["to"]))
    error = refusal(m, seat, {"act": "give", "to": wrong, "cards": m.view(seat)["hand"][:1]})
    assert (error.reason, error.params) == ("wrong_recipient", {"to": pending["to"]})


# ---------------------------------------------------------------- worked examples: Schieberamsch
HS = [
    ["AC", "7S", "8S", "9S", "QS", "KS", "TS", "AS", "7H", "8H"],
    ["JC", "KC", "9H", "QH", "KH", "TH", "AH", "7D", "8D", "9D"],
    ["JS", "JH", "JD", "TC", "QC", "9C", "8C", "7C", "QD", "KD"],
]


def schieberamsch(variant=None, hands=HS, skat=("TD", "AD")):
    variant = {"grand_hand": False, **(variant or {})}
    deal = {"hands": copy.deepcopy(hands), "stock": list(skat)}
    return start_match("schieberamsch", dealer=2, variant=variant, deals=[deal])


def test_schieberamsch_a_jack_cannot_go_to_the_skat():
    hands = [HS[0], HS[1], [*HS[2][:2], "TD", *HS[2][3:]]]  # JD in the skat
    m = schieberamsch(skat=("JD", "AD"), hands=hands)
    assert m.why_not(0) is None  # pick up or push: no card yet
    m.apply(0, {"act": "pickup"})
    why_not = m.why_not(0)
    no_jack = {
        "code": "jack_cannot_go_to_skat",
        "params": {"card": "JD"},
        "message": "a jack may not be discarded to the skat",
    }
    assert why_not == {"JD": no_jack}
    error = refusal(m, 0, {"act": "discard", "cards": ["JD", "7S"]})
    assert (error.reason, error.params) == ("jack_cannot_go_to_skat", {"card": "JD"})
    assert refusal(m, 0, {"act": "discard", "cards": ["7S"]}).reason == "wrong_card_count"
    m = schieberamsch({"jacks_in_skat": True}, skat=("JD", "AD"), hands=hands)
    m.apply(0, {"act": "pickup"})
    assert m.why_not(0) == {}  # with jacks_in_skat any two cards go


def test_schieberamsch_follow_suit_and_a_jack_led():
    m = schieberamsch()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    assert m.why_not(0) == {}  # the lead takes any card
    m.apply(0, {"act": "play", "card": "AC"})
    why_not = m.why_not(1)
    assert set(why_not) == set(m.view(1)["hand"]) - {"KC"}  # JC is a trump, not a club
    assert why_not["JC"]["code"] == "must_follow_suit" and why_not["JC"]["params"] == {"suit": "C"}
    error = refusal(m, 1, {"act": "play", "card": "JC"})
    assert (error.reason, error.params) == ("must_follow_suit", {"suit": "C"})
    hands = [
        ["JD", "7S", "8S", "9S", "QS", "KS", "TS", "AS", "7H", "8H"],
        ["JC", "KC", "9H", "QH", "KH", "TH", "AH", "7D", "8D", "9D"],
        ["JS", "JH", "AC", "TC", "QC", "9C", "8C", "7C", "QD", "KD"],
    ]
    m = schieberamsch(hands=hands)
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    m.apply(0, {"act": "play", "card": "JD"})
    message = "a jack was led: you must play a jack"
    jack = {"code": "must_play_jack", "params": {}, "message": message}
    assert m.why_not(1) == {c: jack for c in m.view(1)["hand"] if c != "JC"}
    error = refusal(m, 1, {"act": "play", "card": "KC"})
    assert (error.reason, error.params) == ("must_play_jack", {})
    assert refusal(m, 1, {"act": "pickup"}).reason == "wrong_phase"
    assert refusal(m, 1, {"act": "schieben"}).reason == "unknown_act"


# ---------------------------------------------------------------- worked examples: Mediatore
H0 = ["3d", "2d", "Ad", "3c", "2c", "Ac", "3s", "2s", "As"]
H1 = ["Rd", "Cd", "Fd", "7d", "6d", "5d", "4d", "Rc", "Cc"]
H2 = ["Fc", "7c", "6c", "5c", "4c", "Rs", "Cs", "Fs", "7s"]
H3 = ["6s", "5s", "4s", "3b", "2b", "Ab", "Rb", "Cb", "Fb"]
MONTE = ["7b", "6b", "5b", "4b"]


def mediatore(variant=None, hands=(H0, H1, H2, H3)):
    deal = {"hands": [list(h) for h in hands], "stock": list(MONTE)}
    return start_match("mediatore", dealer=3, variant=variant, deals=[deal])


def auction(m, contract):
    m.apply(0, {"act": "bid", "contract": contract})
    for seat in (1, 2, 3):
        m.apply(seat, {"act": "pass"})


def test_mediatore_the_auction_chooses_no_card_and_its_reasons():
    m = mediatore()
    assert m.why_not(0) is None
    error = refusal(m, 0, {"act": "bid", "contract": "grand"})
    assert error.reason == "unknown_contract" and "chiamo" in error.params["contracts"]
    m.apply(0, {"act": "bid", "contract": "solo"})
    error = refusal(m, 1, {"act": "bid", "contract": "mediatore"})
    assert (error.reason, error.params) == ("bid_too_low", {"high": "solo"})
    assert refusal(m, 1, {"act": "pass", "signal": "busso"}).reason == "signal_not_on_lead"
    threes = ["3d", "3c", "3s", "3b", "2d", "2c", "2s", "2b", "Ad"]
    rest = [c for c in H0 + H1 + H2 + H3 if c not in threes]
    m = mediatore({"chiamo_threes_only": True}, hands=(threes, rest[:9], rest[9:18], rest[18:27]))
    error = refusal(m, 0, {"act": "bid", "contract": "chiamo"})
    assert error.reason == "chiamo_with_all_threes"


def test_mediatore_the_called_card_is_not_one_of_the_hand():
    m = mediatore({"chiamo_threes_only": True})
    auction(m, "chiamo")
    why_not = m.why_not(0)
    assert set(why_not) == set(H0)  # the call names a card the declarer does not hold
    assert why_not["3d"] == {
        "code": "called_card_held",
        "params": {"card": "3d"},
        "message": "you cannot call 3d: you hold it",
    }
    error = refusal(m, 0, {"act": "call", "card": "3d"})
    assert (error.reason, error.params) == ("called_card_held", {"card": "3d"})
    error = refusal(m, 0, {"act": "call", "card": "2b"})
    assert (error.reason, error.params) == ("call_must_be_three", {"card": "2b"})
    assert refusal(m, 0, {"act": "call", "card": "9z"}).reason == "unknown_card"
    m.apply(0, {"act": "call", "card": "3b"})
    assert m.why_not(0) == {}  # any four cards go to the new monte, the called one too


def test_mediatore_the_exchange_reasons():
    m = mediatore()
    auction(m, "mediatore")
    m.apply(0, {"act": "call", "card": "3b"})  # seat 3 hands it over
    assert m.why_not(0) == {}
    four = ["7b", "6b", "5b", "4b"]
    error = refusal(m, 0, {"act": "exchange", "discard": four, "give": None})
    assert (error.reason, error.params) == ("give_missing", {"to": 3})
    error = refusal(m, 0, {"act": "exchange", "discard": four, "give": "4b"})
    assert (error.reason, error.params) == ("give_also_discarded", {"card": "4b"})
    m = mediatore()
    auction(m, "mediatore")
    m.apply(0, {"act": "call", "card": "7b"})  # in the monte: nobody hands it over
    error = refusal(m, 0, {"act": "exchange", "discard": four, "give": "3d"})
    assert error.reason == "give_must_be_null"


def test_mediatore_follow_suit_and_the_signals():
    m = mediatore()
    auction(m, "arcisolissimo")
    assert m.why_not(0) == {}  # a lead takes any card (with "no signal" at least)
    error = refusal(m, 0, {"act": "play", "card": "3d", "signal": "volo"})
    assert (error.reason, error.params) == ("false_volo", {"suit": "d", "signal": "volo"})
    error = refusal(m, 0, {"act": "play", "card": "3d", "signal": "striscio"})
    assert error.reason == "false_striscio"
    error = refusal(m, 0, {"act": "play", "card": "3d", "signal": "knock"})
    assert error.reason == "unknown_signal"
    m.apply(0, {"act": "play", "card": "3d"})
    why_not = m.why_not(1)
    assert set(why_not) == {"Rc", "Cc"}
    assert why_not["Rc"] == {
        "code": "must_follow_suit",
        "params": {"suit": "d"},
        "message": "must follow suit d",
    }
    error = refusal(m, 1, {"act": "play", "card": "Rc"})
    assert (error.reason, str(error)) == ("must_follow_suit", "must follow suit d")
    error = refusal(m, 1, {"act": "play", "card": "Rd", "signal": "busso"})
    assert error.reason == "signal_not_on_lead"
    m = mediatore({"signals": "off"})
    auction(m, "arcisolissimo")
    assert refusal(m, 0, {"act": "play", "card": "3d", "signal": "busso"}).reason == "signals_off"
