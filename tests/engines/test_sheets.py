"""Score sheets typed by an organizer are checked by the rules and scored like records."""

from __future__ import annotations

import pytest

from games.core.sheets import SheetError, score_sheet


def one(game, deal, variant=None, n_seats=None):
    return score_sheet(game, variant or {}, {"deals": [deal]}, n_seats=n_seats)


def test_saichugen_payouts_follow_from_the_game_scores():
    scored = one("saichugen", {"scores": [20, 20, 35]})
    assert scored["deals"][0]["payouts"] == [1, 1, -2]
    assert scored["winners"] == [0, 1]
    raw = one("saichugen", {"scores": [10, 20, 30]}, variant={"payout": "raw"})
    assert raw["totals"]["payouts"] == [-30, 0, 30]


def test_typed_payouts_must_sum_to_zero():
    with pytest.raises(SheetError, match=r"deal 0: payouts \[2, -1, 0\] do not sum to zero"):
        one("saichugen", {"scores": [10, 20, 30], "payouts": [2, -1, 0]})


def test_typed_payouts_must_match_the_rules():
    with pytest.raises(SheetError, match=r"the rules give \[-1, 2, -1\]"):
        one("saichugen", {"scores": [10, 20, 30], "payouts": [2, -1, -1]})


def test_three_five_eight_runs_the_balance_and_stops_at_twelve_tricks():
    sheet = {"deals": [{"scores": [10, 2, 4]}, {"scores": [12, 3, 1]}]}
    scored = score_sheet("three_five_eight", {}, sheet)
    assert [d["payouts"] for d in scored["deals"]] == [[2, -3, 1], [9, -5, -4]]
    assert scored["winners"] == [0]
    sheet["deals"].append({"scores": [5, 5, 6]})
    with pytest.raises(SheetError, match="deal 2: the match was already won"):
        score_sheet("three_five_eight", {}, sheet)


def test_three_five_eight_tricks_must_add_up():
    with pytest.raises(SheetError, match="add up to 16"):
        one("three_five_eight", {"scores": [10, 2, 5]})
    assert one("three_five_eight", {"scores": [9, 4, 4]}, variant={"targets": "6-3-8"})


def test_six_three_eight_is_won_at_plus_ten():
    sheet = {"deals": [{"scores": [17, 0, 0]}, {"scores": [0, 17, 0]}, {"scores": [5, 0, 12]}]}
    scored = score_sheet("three_five_eight", {"targets": "6-3-8"}, sheet)
    # dealer 0: +9 -6 -3; dealer 1: -3 +9 -6; dealer 2: -1 -3 +4 → cum (5, 0, -5)
    assert scored["totals"]["payouts"] == [5, 0, -5]
    assert scored["winners"] == [0]  # nobody reached +10: the highest balance
    sheet["deals"].append({"scores": [13, 2, 2]})  # dealer 0 again: +5 -4 -1 → (10, -4, -6)
    assert score_sheet("three_five_eight", {"targets": "6-3-8"}, sheet)["winners"] == [0]
    sheet["deals"].append({"scores": [6, 6, 5]})
    with pytest.raises(SheetError, match="deal 4: the match was already won"):
        score_sheet("three_five_eight", {"targets": "6-3-8"}, sheet)


def test_woburn_hand_needs_the_bid_and_throw_ins_only_before_it():
    variant = {"woburn_bidding": True}
    sheet = {"deals": [{"thrown_in": True}, {"scores": [2, 10, 4], "bid": 10, "dealer": 1}]}
    scored = score_sheet("three_five_eight", variant, sheet)
    # bidder 1 targets 10, his left (2) 4, his right (0) 2
    assert scored["deals"][1]["payouts"] == [0, 0, 0]
    assert scored["deals"][1]["dealer"] == 1
    with pytest.raises(SheetError, match="winning bid"):
        one("three_five_eight", {"scores": [10, 2, 4]}, variant=variant)
    with pytest.raises(SheetError, match="only a Woburn auction"):
        one("three_five_eight", {"thrown_in": True})


def test_schieberamsch_settles_each_pair_and_lowest_score_wins():
    # B takes the most points (4), then C wins a Grand Hand (-9): the rules file's examples
    sheet = {"deals": [{"scores": [0, 4, 0]}, {"scores": [0, 0, -9]}]}
    scored = score_sheet("schieberamsch", {}, sheet)
    assert [d["payouts"] for d in scored["deals"]] == [[4, -8, 4], [-9, -9, 18]]
    assert scored["winners"] == [2]


@pytest.mark.parametrize(
    ("deal", "payouts"),
    [
        (
            {"contract": "chiamo", "declarer": 0, "partner": 2, "won": True, "points": 6},
            [5, -4, 3, -4],
        ),
        (
            {"contract": "mediatore", "declarer": 0, "giver": 1, "won": False, "points": 5},
            [-22, 6, 8, 8],
        ),
        ({"contract": "solo", "declarer": 3, "won": True, "slam": True}, [-14, -14, -14, 42]),
        (
            {"contract": "chiamo", "declarer": 0, "called_in_monte": True, "won": True},
            [12, -4, -4, -4],
        ),
        (
            {"contract": "chiamo", "declarer": 0, "partner": 1, "won": False, "slam": True},
            [-7, -5, 6, 6],
        ),
    ],
)
def test_mediatore_worked_examples_from_the_stake_table(deal, payouts):
    assert one("mediatore", deal)["deals"][0]["payouts"] == payouts


def test_mediatore_sheet_contradictions_are_refused():
    with pytest.raises(SheetError, match=r"5 points lose: check 'won'"):
        one("mediatore", {"contract": "solo", "declarer": 0, "won": True, "points": 5})
    with pytest.raises(SheetError, match="who held the called card"):
        one("mediatore", {"contract": "chiamo", "declarer": 0, "won": True})
    with pytest.raises(SheetError, match="contract must be one of"):
        one("mediatore", {"contract": "grand", "declarer": 0, "won": True})


def test_malformed_sheets_say_what_is_wrong():
    with pytest.raises(SheetError, match="at least one deal"):
        score_sheet("saichugen", {}, {"deals": []})
    with pytest.raises(SheetError, match="list of 3 whole numbers"):
        one("saichugen", {"scores": [1, 2]})
    with pytest.raises(SheetError, match="played by 3, not 5"):
        one("saichugen", {"scores": [1, 2, 3]}, n_seats=5)
    with pytest.raises(SheetError, match="Mediatore is played by 4, not 3"):
        one("mediatore", {"scores": [1, 2, 3]}, n_seats=3)
    with pytest.raises(SheetError, match="list of 4 whole numbers"):  # a table of four
        one("saichugen", {"scores": [1, 2, 3]}, n_seats=4)
    with pytest.raises(SheetError, match="cannot be thrown in"):
        one("schieberamsch", {"thrown_in": True})
