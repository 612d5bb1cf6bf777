"""The engine side of duplicate events (duplicate.md): 3-5-8's `fixed_length` (a match of
exactly its hands), which variants `duplicate_problem` refuses, and the travellers' one line
per deal (`deal_outcomes`). The tables themselves: tests/gameplay/test_duplicate_tables.py."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay import api
from games import VariantError, catalogue, registry
from games.core.bots.common import expand_random
from games.core.errors import RecordError

VARIANTS: dict[str, dict[str, Any]] = {
    "saichugen": {},
    "three_five_eight": {"fixed_length": True},
    "schieberamsch": {},
    "mediatore": {},
}
GAMES = sorted(VARIANTS)


# --- 3-5-8 with a fixed number of hands ------------------------------------------------------

SPADES = [f"{r}S" for r in "AKQJT98765432"]
KITTY = ["AD", "KD", "QD", "JD"]


def slam_deal() -> dict[str, Any]:
    """Seat 0 (the first dealer) holds every spade and the three top hearts, the kitty the top
    diamonds: with spades trumps he takes every trick."""
    rest = [
        c
        for c in (f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432")
        if c not in [*SPADES, "AH", "KH", "QH", *KITTY]
    ]
    return {"hands": [[*SPADES, "AH", "KH", "QH"], rest[:16], rest[16:]], "stock": KITTY}


def play_slam_match(variant: dict[str, Any], n_deals: int) -> Any:
    match = registry.start_match(
        "three_five_eight", variant=variant, n_deals=n_deals, deals=[slam_deal()], seed=5
    )
    rng = random.Random(0)
    match.apply(0, {"act": "trump", "suit": "S"})
    match.apply(0, {"act": "discard", "cards": ["2S", "3S", "4S", "5S"]})
    while not match.finished:
        seat = match.to_act()[0]
        legal = match.legal(seat)
        if match.deal_no == 0 and seat == 0:
            plays = [a["card"] for a in legal if a.get("act") == "play"]
            trumps = [c for c in plays if c.endswith("S")]
            # A trump when void, else the highest card of the suit led: every trick is his.
            card = trumps[0] if trumps else min(plays, key=lambda c: "AKQJT98765432".index(c[0]))
            match.apply(0, {"act": "play", "card": card})
        else:
            match.apply(seat, expand_random(rng.choice(legal), rng))
    return match


def test_fixed_length_3_5_8_plays_every_hand_even_after_a_hand_of_16_tricks():
    usual = play_slam_match({}, 3)
    assert usual.results[0]["scores"] == [16, 0, 0]
    assert len(usual.results) == 1 and usual.winners == [0]  # 12+ tricks end the usual match

    fixed = play_slam_match({"fixed_length": True}, 3)
    assert fixed.results[0]["scores"] == [16, 0, 0]
    assert len(fixed.results) == 3  # exactly its number of hands
    result = fixed.result()
    best = max(result["totals"]["payouts"])
    assert result["winners"] == [s for s in range(3) if result["totals"]["payouts"][s] == best]
    # The record scores the same, and only under the flag: without it the match was over.
    record = fixed.export()
    assert catalogue.score_record(record) == result
    with pytest.raises(RecordError, match=r"deal 1, action 0 .*: the match is over"):
        catalogue.score_record({**record, "variant": {}})
    # A typed score sheet follows the same rule.
    sheet = {"deals": [{"scores": s} for s in ([16, 0, 0], [2, 9, 5], [5, 3, 8])]}
    scored = catalogue.score_sheet("three_five_eight", {"fixed_length": True}, sheet, n_seats=3)
    assert scored["complete"] and len(scored["deals"]) == 3
    with pytest.raises(catalogue.EngineError, match="already won"):
        catalogue.score_sheet("three_five_eight", {}, sheet, n_seats=3)


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n_deals=st.integers(1, 4),
    six=st.booleans(),
    win_tricks=st.integers(10, 12),
)
def test_a_fixed_length_3_5_8_match_is_always_exactly_its_hands(seed, n_deals, six, win_tricks):
    variant = {"fixed_length": True, "win_tricks": win_tricks}
    if six:
        variant["targets"] = "6-3-8"
    record = catalogue.random_record(
        "three_five_eight", players=["a", "b", "c"], variant=variant, n_deals=n_deals, seed=seed
    )
    result = catalogue.score_record(record)
    assert len(record["deals"]) == n_deals and result["complete"]
    totals = result["totals"]["payouts"]
    assert result["winners"] == [s for s in range(3) if totals[s] == max(totals)]
    assert [d["dealer"] for d in result["deals"]] == [k % 3 for k in range(n_deals)]


# --- what may be played in duplicate, and the travellers' lines ------------------------------


def test_duplicate_problem_names_the_variants_where_play_changes_the_length_or_the_dealer():
    for game in ("saichugen", "schieberamsch", "mediatore"):
        assert api.duplicate_problem(game, None) is None
    assert api.duplicate_problem("mediatore", {"chiamo_threes_only": True, "slam": "none"}) is None
    assert "12 tricks" in api.duplicate_problem("three_five_eight", {})
    assert "12 tricks" in api.duplicate_problem("three_five_eight", {"targets": "6-3-8"})
    assert api.duplicate_problem("three_five_eight", {"fixed_length": True}) is None
    woburn = {"fixed_length": True, "woburn_bidding": True}
    assert "Woburn" in api.duplicate_problem("three_five_eight", woburn)
    assert "Woburn" in api.duplicate_problem("three_five_eight", {"woburn_bidding": True})
    with pytest.raises(VariantError, match="must be true or false"):
        api.duplicate_problem("three_five_eight", {"fixed_length": 1})
    with pytest.raises(VariantError, match="Unknown game"):
        api.duplicate_problem("whist", {})


@pytest.mark.parametrize("game", GAMES)
def test_deal_outcomes_word_every_deal_of_a_record_in_one_line(game):
    n = 3
    seats = registry.get_game(game).seats
    record = catalogue.random_record(
        game, players=[f"p{i}" for i in range(seats)], variant=VARIANTS[game], n_deals=n
    )
    lines = api.deal_outcomes(record)
    assert len(lines) == n and all(isinstance(line, str) and line for line in lines)
    assert not any(line.startswith("Scores ") for line in lines)  # a real summary each
    unfinished = {**record, "deals": [*record["deals"][:-1], {**record["deals"][-1]}]}
    unfinished["deals"][-1]["actions"] = record["deals"][-1]["actions"][:1]
    assert api.deal_outcomes(unfinished)[-1] == "Not finished"
    with pytest.raises(RecordError):
        api.deal_outcomes({**record, "dealer": 9})


def test_deal_outcomes_say_what_the_deal_was():
    match = play_slam_match({"fixed_length": True}, 1)
    assert api.deal_outcomes(match.export()) == ["Trumps ♠: tricks 16/0/0 against targets 8/5/3"]
    passed = registry.start_match("mediatore", seed=2, n_deals=1)
    for seat in (1, 2, 3, 0):
        passed.apply(seat, {"act": "pass"})
    assert api.deal_outcomes(passed.export()) == ["Thrown in: everybody passed"]
