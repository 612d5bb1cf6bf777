"""`Match.deal_summary`: every game explains a finished deal in parts that add up exactly.

The property runs whole random matches of every registered game (random variants, a random
leaning to pass so that thrown-in deals, Chiamo and Mediatore contracts and Ramsch deals come up)
and checks each finished deal's summary against the independent scorer, `score_record`.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import game_names, get_game, start_match
from games.core.records import replay_record, score_record

from .helpers import concrete, random_variant
from .test_mediatore import auction, play_seat0_first
from .test_mediatore import match as mediatore_match
from .test_schieberamsch import durchmarsch_record, play_strong_first
from .test_schieberamsch import match as schieberamsch_match

GAMES = game_names()
PROPS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def play_leaning_to_pass(m, rng: random.Random, lean: float) -> None:
    """Random legal play through `apply`; where passing is legal, pass with chance `lean`."""
    for _ in range(10_000):
        if m.finished:
            return
        seat = rng.choice(m.to_act())
        legal = m.legal(seat)
        if {"act": "pass"} in legal and rng.random() < lean:
            m.apply(seat, {"act": "pass"})
        else:
            m.apply(seat, concrete(rng.choice(legal), rng))
    raise AssertionError("the match did not end")


def check_summary(m, k: int, scored: dict) -> dict:
    """The summary of deal `k` is JSON, uses the game's codes and adds up to `scored`."""
    summary = m.deal_summary(k)
    assert json.loads(json.dumps(summary)) == summary
    deal = scored["deals"][k]
    assert (summary["game"], summary["deal"], summary["dealer"]) == (m.GAME, k, deal["dealer"])
    assert (summary["scores"], summary["payouts"]) == (deal["scores"], deal["payouts"])
    assert [s["seat"] for s in summary["seats"]] == list(range(m.SEATS))
    for seat in summary["seats"]:
        for key, figure in (("score", "scores"), ("payout", "payouts")):
            parts = seat[key]["parts"]
            assert parts, f"seat {seat['seat']} has no {key} parts"
            assert (
                sum(p["value"] for p in parts) == seat[key]["total"] == deal[figure][seat["seat"]]
            )
            for p in parts:
                assert p["code"] in type(m).SUMMARY_CODES, p
                assert isinstance(p["text"], str) and p["text"], p
                assert isinstance(p["value"], int) and not isinstance(p["value"], bool), p
            check_ops(parts)
    for n in summary["notes"]:
        assert n["code"] in type(m).SUMMARY_CODES, n
        assert isinstance(n["text"], str) and n["text"], n
    assert summary["kind"]
    return summary


def check_ops(parts: list[dict]) -> None:
    """A part with an ``op`` adds exactly what its operation does to the running figure, so a
    client can write the arithmetic from the ``op`` alone (docs/engines.md, "Deal summary")."""
    running = 0
    for p in parts:
        op = p.get("op")
        if op is not None:
            ((kind, by),) = op.items()
            assert kind in ("times", "divide") and isinstance(by, int) and by, p
            if kind == "times":
                after = running * by
            else:
                after = running // by if running >= 0 else -(-running // by)
            assert p["value"] == after - running, p
        running += p["value"]


def test_every_game_declares_its_summary_codes():
    for spec in (get_game(g) for g in GAMES):
        assert spec.engine.SUMMARY_CODES, f"{spec.name} needs SUMMARY_CODES and _summarize"


@pytest.mark.parametrize("game", GAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), n_deals=st.integers(1, 3), lean=st.floats(0, 1))
def test_the_parts_add_up_to_every_deals_score_and_payout(game, seed, n_deals, lean):
    rng = random.Random(seed)
    dealer = rng.randrange(get_game(game).seats)
    variant = random_variant(game, rng)
    m = start_match(game, dealer=dealer, variant=variant, n_deals=n_deals, seed=seed)
    play_leaning_to_pass(m, rng, lean)
    before = m.dump()
    scored = score_record(m.export())
    for k in range(len(m.results)):
        check_summary(m, k, scored)
    assert m.dump() == before, "a summary changes nothing"


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_in_progress_or_out_of_range_has_no_summary(game):
    m = start_match(game, seed=1, n_deals=2)
    for k in (0, -1, 5, True):
        with pytest.raises(IndexError):
            m.deal_summary(k)


def test_a_loaded_or_replayed_match_gives_the_same_summary():
    m = start_match("three_five_eight", seed=7, n_deals=3)
    play_leaning_to_pass(m, random.Random(7), 0.0)
    again = replay_record(m.export())
    for k in range(len(m.results)):
        assert again.deal_summary(k) == m.deal_summary(k)


def codes(parts: list[dict]) -> list[tuple[str, int]]:
    return [(p["code"], p["value"]) for p in parts]


# ---------------------------------------------------------------- the games, deal by deal
def test_saichugen_rounds_bank_at_the_median_and_the_median_game_wins():
    m = start_match("saichugen", seed=3, n_deals=1)
    play_leaning_to_pass(m, random.Random(1), 0.0)
    summary = check_summary(m, 0, m.result())
    for seat in summary["seats"]:
        rounds = seat["score"]["parts"]
        assert [p["round"] for p in rounds] == [0, 1, 2, 3, 4]
        for p in rounds:
            banked = p["points"] == p["median"]
            assert p["code"] == ("round_banked" if banked else "round_not_banked")
            assert p["value"] == (p["points"] if banked else 0)
    raw = start_match("saichugen", seed=3, n_deals=1, variant={"payout": "raw"})
    play_leaning_to_pass(raw, random.Random(1), 0.0)
    g = raw.results[0]["scores"]
    for s, seat in enumerate(check_summary(raw, 0, raw.result())["seats"]):
        assert codes(seat["payout"]["parts"]) == [("raw_own", 3 * g[s]), ("raw_field", -sum(g))]


def test_three_five_eight_payout_is_tricks_less_target():
    m = start_match("three_five_eight", seed=11, n_deals=1, dealer=1)
    play_leaning_to_pass(m, random.Random(2), 0.0)
    summary = check_summary(m, 0, m.result())
    won = m.results[0]["scores"]
    targets = [3, 8, 5]  # dealer 1: 8, his left (seat 2) 5, his right (seat 0) 3
    for s, seat in enumerate(summary["seats"]):
        assert codes(seat["score"]["parts"]) == [("tricks", won[s])]
        assert codes(seat["payout"]["parts"]) == [("tricks", won[s]), ("target", -targets[s])]
    assert {n["code"] for n in summary["notes"]} == {"trump", "targets", "balance"}


def test_three_five_eight_woburn_all_pass_is_a_thrown_in_summary():
    m = start_match("three_five_eight", seed=1, n_deals=2, variant={"woburn_bidding": True})
    for _ in range(3):
        m.apply(m.to_act()[0], {"act": "pass"})
    summary = check_summary(m, 0, m.result())
    assert summary["kind"] == "thrown_in"
    assert codes(summary["seats"][1]["payout"]["parts"]) == [("thrown_in", 0)]


def test_schieberamsch_durchmarsch_after_three_pushes():
    m = replay_record(durchmarsch_record())
    summary = check_summary(m, 0, m.result())
    assert summary["kind"] == "durchmarsch"
    # -120, x 8 for three pushes = -960, ÷ 10 = -96
    assert codes(summary["seats"][0]["score"]["parts"]) == [
        ("durchmarsch", -120),
        ("pushes", -840),
        ("divisor", 864),
    ]
    assert codes(summary["seats"][0]["payout"]["parts"]) == [("settle", 96), ("settle", 96)]
    assert codes(summary["seats"][1]["score"]["parts"]) == [("no_penalty", 0)]


def test_schieberamsch_grand_hand_with_kontra_and_re():
    m = schieberamsch_match(variant={"score_divisor": 1})
    m.apply(0, {"act": "grand_hand"})
    m.apply(1, {"act": "kontra"})
    m.apply(0, {"act": "re"})
    play_strong_first(m)
    summary = check_summary(m, 0, m.result())
    assert summary["kind"] == "grand_hand"
    # 24 x 8 levels (with 4, game, hand, schneider, schwarz) = 192, kontra 384, re 768, won
    assert codes(summary["seats"][0]["score"]["parts"]) == [
        ("grand_value", 192),
        ("kontra", 192),
        ("re", 384),
        ("grand_won", -1536),
    ]
    assert codes(summary["seats"][2]["score"]["parts"]) == [("grand_opponent", 0)]


def test_schieberamsch_three_equal_card_points_is_even():
    """A white-box end state (the deal is hard to arrange): 40 card points each, skat included."""
    m = schieberamsch_match()
    m.declarer, m.pushes, m.last = -1, 1, 2
    m.pts, m.won = [40, 40, 36], [3, 4, 3]
    m.skat = [m.deck_for(m.variant).parse("KC"), m.deck_for(m.variant).parse("7D")]  # 4 points
    out = m._summarize([0, 0, 0], [0, 0, 0])
    assert out["kind"] == "even"
    assert [codes(p) for p in out["score_parts"]] == [[("even", 0)]] * 3


def test_mediatore_solo_slam_in_thirds_then_whole_points():
    m = mediatore_match()
    auction(m, "solo")
    m.apply(0, {"act": "discard", "cards": ["7b", "6b", "5b", "4b"]})
    play_seat0_first(m)
    summary = check_summary(m, 0, m.result())
    assert summary["kind"] == "solo"
    # 32 thirds in tricks, the monte (no points) and the last trick 3: 35 thirds = 11 points
    assert codes(summary["seats"][0]["score"]["parts"]) == [
        ("cards", 32),
        ("monte_last_trick", 3),
        ("whole_points", -24),
    ]
    assert codes(summary["seats"][0]["payout"]["parts"]) == [("stake", 36), ("slam", 6)]
    assert codes(summary["seats"][1]["payout"]["parts"]) == [("stake", -12), ("slam", -2)]
    defender = summary["seats"][2]["score"]["parts"]
    assert [p["seat"] for p in defender[:3]] == [1, 2, 3]  # the defenders' tricks, together


def test_mediatore_all_pass_is_a_thrown_in_summary():
    m = mediatore_match(n_deals=2)
    for seat in (0, 1, 2, 3):
        m.apply(seat, {"act": "pass"})
    summary = check_summary(m, 0, m.result())
    assert summary["kind"] == "thrown_in"
    assert summary["notes"] == []
