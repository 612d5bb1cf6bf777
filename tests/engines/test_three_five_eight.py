"""3-5-8: the worked examples of rules/three_five_eight.md and every variant flag."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction, VariantError, start_match, visible
from games.core.cards import FRENCH51, FRENCH52
from games.three_five_eight.engine import (
    TARGETS,
    exchange_plan,
    returns_for,
    seat_targets,
    settle_hand,
)

DEFAULT = {"targets": "8-5-3", "win_tricks": 12}
C = FRENCH52.parse


def arranged(*wanted: list[str], kitty: int = 4, deck=FRENCH52) -> dict:
    """An explicit deal: each seat gets its wanted cards first, then fillers; the rest is kitty."""
    size = (deck.size - kitty) // 3
    rest = [c for c in deck.codes(deck.ids) if all(c not in w for w in wanted)]
    hands = []
    for w in wanted:
        need = size - len(w)
        hands.append([*w, *rest[:need]])
        rest = rest[need:]
    return {"hands": hands, "stock": rest}


def at_hand_start(m, prev_diff, cum):
    """Put ``m`` at the start of a later hand: as if the previous hand ended with ``prev_diff``."""
    m.prev_diff = prev_diff
    m.cum = cum
    m.played_any = True
    hands, stock = m._deal_cards(m.deal_no)
    m._setup_deal(hands, stock)
    return m


def test_example_1_hand_scoring():
    diff, cum, winners = settle_hand([10, 2, 4], [8, 5, 3], [0, 0, 0], DEFAULT)
    assert (diff, cum, winners) == ([2, -3, 1], [2, -3, 1], None)


def test_example_2_the_exchange_with_its_forced_returns():
    seat1 = ["KH", "9H", "8H", "2H", "AC", "JC", "6C", "3C", "5D", "4D", "3D", "2D"]
    seat1 += ["AS", "KS", "QS", "JS"]
    deal = arranged(["2C", "7D"], seat1, ["4H"])
    m = at_hand_start(
        start_match("three_five_eight", dealer=1, deals=[deal]), [2, -3, 1], [2, -3, 1]
    )
    assert m.targets == [3, 8, 5]
    # seat 2 (+1, new target 5) gives first, then seat 0 (+2, new target 3); seat 1 receives
    assert m.plan == [[2, 1, 1], [0, 1, 2]]
    assert m.to_act() == [2]
    assert m.legal(2) == [{"act": "give", "to": 1, "choose": 1, "from": m.view(2)["hand"]}]
    with pytest.raises(IllegalAction, match="not your turn"):
        m.apply(0, {"act": "give", "to": 1, "cards": ["2C", "7D"]})

    events = m.apply(2, {"act": "give", "to": 1, "cards": ["4H"]})
    back = [e for e in events if e["event"] == "return"]
    assert back == [{"event": "return", "seat": 1, "to": 2, "cards": ["KH"], "visible_to": [2, 1]}]
    assert "KH" in m.view(2)["hand"]
    assert "4H" in m.view(1)["hand"]
    assert "KH" not in str(visible(events, 0))
    assert "4H" not in str(visible(events, 0))
    assert m.view(0)["exchange"]["passes"] == [
        {"from": 2, "to": 1, "count": 1, "cards": None, "returned": None}
    ]

    events = m.apply(0, {"act": "give", "to": 1, "cards": ["2C", "7D"]})
    assert [sorted(e["cards"]) for e in events if e["event"] == "return"] == [["7D", "AC"]]
    assert {"AC", "7D"} <= set(m.view(0)["hand"])
    assert m.view(0)["phase"] == "trump"
    assert m.to_act() == [1]


def test_returns_take_the_highest_of_each_suit_passed():
    hand = [C(c) for c in ["KH", "9H", "8H", "2H", "4H"]]
    assert FRENCH52.codes(returns_for(hand, [C("4H")])) == ["KH"]
    hand = [C(c) for c in ["AC", "JC", "6C", "3C", "2C", "5D", "4D", "3D", "2D", "7D"]]
    assert FRENCH52.codes(returns_for(hand, [C("2C"), C("7D")])) == ["7D", "AC"]
    hand = [C(c) for c in ["AH", "KH", "3H", "2H"]]
    assert FRENCH52.codes(returns_for(hand, [C("3H"), C("2H")])) == ["AH", "KH"]


def test_example_3_twelve_tricks_win_the_game():
    diff, _cum, winners = settle_hand([12, 3, 1], [8, 5, 3], [0, 0, 0], DEFAULT)
    assert diff == [4, -2, -2]
    assert winners == [0]


def test_win_tricks_flag():
    v = {"targets": "8-5-3", "win_tricks": 10}
    assert settle_hand([10, 3, 3], [8, 5, 3], [0, 0, 0], v)[2] == [0]
    v["win_tricks"] = 16
    assert settle_hand([15, 1, 0], [8, 5, 3], [0, 0, 0], v)[2] is None


def test_example_4_six_three_eight_plus_ten_wins():
    v = {"targets": "6-3-8", "win_tricks": 12}
    diff, cum, winners = settle_hand([9, 4, 4], [8, 6, 3], [9, 2, -11], v)
    assert (diff, cum, winners) == ([1, -2, 1], [10, 0, -10], [0])
    # two at +10 with the same cum: play on; twelve tricks do not count in 6-3-8
    assert settle_hand([8, 6, 3], [8, 6, 3], [10, 10, -20], v)[2] is None
    assert settle_hand([12, 2, 3], [8, 6, 3], [0, 0, 0], v)[2] is None
    assert settle_hand([8, 6, 3], [8, 6, 3], [12, 10, -22], v)[2] == [0]


def test_targets_by_variant():
    assert seat_targets(0, TARGETS["8-5-3"]) == [8, 5, 3]
    assert seat_targets(1, TARGETS["9-5-2"]) == [2, 9, 5]
    assert seat_targets(2, TARGETS["6-3-8"]) == [6, 3, 8]


def test_six_three_eight_deals_51_cards_and_has_no_kitty():
    m = start_match("three_five_eight", variant={"targets": "6-3-8"}, seed=4)
    assert m.deck_for(m.variant) is FRENCH51
    assert [len(h) for h in m.hands] == [17, 17, 17]
    assert m.kitty == []
    assert "2C" not in str(m.export())
    m.apply(0, {"act": "trump", "suit": "S"})
    assert m.view(0)["phase"] == "play"
    assert m.to_act() == [1]


@pytest.mark.parametrize(
    ("diff", "targets", "priority", "bleed", "plan"),
    [
        # two up: the higher new target gives first
        ([2, -3, 1], [3, 8, 5], "new_target", False, [[2, 1, 1], [0, 1, 2]]),
        # most_up: the one more up first
        ([2, -3, 1], [3, 8, 5], "most_up", False, [[0, 1, 2], [2, 1, 1]]),
        # most_up tie: the higher new target
        ([2, -4, 2], [3, 8, 5], "most_up", False, [[2, 1, 2], [0, 1, 2]]),
        # one up, two down: the lower new target is served first
        ([5, -2, -3], [8, 5, 3], "new_target", False, [[0, 2, 3], [0, 1, 2]]),
        ([1, -1, 0], [8, 5, 3], "new_target", False, [[0, 1, 1]]),
        ([0, 0, 0], [8, 5, 3], "new_target", False, []),
        # maximum bleed: at most 3 given or received each, the rest is forfeited
        ([5, -2, -3], [8, 5, 3], "new_target", True, [[0, 2, 3]]),
        ([4, -7, 3], [3, 8, 5], "new_target", True, [[2, 1, 3]]),
        ([2, -4, 2], [3, 8, 5], "new_target", True, [[2, 1, 2], [0, 1, 1]]),
        ([6, -1, -5], [5, 3, 8], "new_target", True, [[0, 1, 1], [0, 2, 2]]),
    ],
)
def test_exchange_plan(diff, targets, priority, bleed, plan):
    assert exchange_plan(diff, targets, priority, bleed) == plan


def test_no_exchange_in_the_first_hand():
    m = start_match("three_five_eight", seed=1)
    assert m.view(0)["phase"] == "trump"
    assert m.to_act() == [0]


def test_kitty_discard_then_take():
    m = start_match("three_five_eight", seed=2)
    kitty = FRENCH52.codes(m.kitty)
    m.apply(0, {"act": "trump", "suit": "H"})
    [template] = m.legal(0)
    assert template["act"] == "discard"
    assert template["choose"] == 4
    assert len(template["from"]) == 16
    for seat in (1, 2, None):
        assert not set(kitty) & set(str(m.view(seat)).split("'"))
    assert m.view(0)["kitty"] == {"size": 4, "taken": False, "cards": None}
    events = m.apply(0, {"act": "discard", "cards": template["from"][:4]})
    assert m.view(0)["kitty"]["cards"] == kitty
    assert set(kitty) <= set(m.view(0)["hand"])
    assert [e["cards"] for e in visible(events, 0) if e["event"] == "kitty"] == [kitty]
    assert not [e for e in visible(events, 1) if e["event"] == "kitty"]
    assert m.view(1)["discards"] == {"count": 4, "cards": None}
    assert m.view(0)["phase"] == "play"
    assert m.to_act() == [1]


def test_kitty_take_then_discard_from_twenty():
    m = start_match("three_five_eight", seed=2, variant={"kitty_mode": "take_then_discard"})
    kitty = FRENCH52.codes(m.kitty)
    m.apply(0, {"act": "trump", "suit": "H"})
    [template] = m.legal(0)
    assert len(template["from"]) == 20
    assert set(kitty) <= set(template["from"])
    m.apply(0, {"act": "discard", "cards": kitty})  # may discard the kitty itself
    assert len(m.view(0)["hand"]) == 16


def test_woburn_bidding():
    m = start_match("three_five_eight", dealer=0, seed=5, variant={"woburn_bidding": True})
    assert m.to_act() == [0]
    assert m.legal(0)[:2] == [{"act": "pass"}, {"act": "bid", "tricks": 8}]
    m.apply(0, {"act": "bid", "tricks": 8})
    with pytest.raises(IllegalAction, match="bid more than 8"):
        m.apply(1, {"act": "bid", "tricks": 8})
    m.apply(1, {"act": "bid", "tricks": 10})
    m.apply(2, {"act": "pass"})
    assert m.to_act() == [0]
    m.apply(0, {"act": "pass"})
    view = m.view(2)
    assert view["dealer"] == 1
    assert view["dealt_by"] == 0
    assert view["targets"] == [2, 10, 4]  # bid 10: left 4, right 2
    assert view["phase"] == "trump"
    assert m.to_act() == [1]
    assert m.result()["deals"][0]["dealer"] == 1


def test_woburn_after_sixteen_the_others_still_pass():
    m = start_match("three_five_eight", dealer=0, seed=5, variant={"woburn_bidding": True})
    m.apply(0, {"act": "pass"})
    m.apply(1, {"act": "bid", "tricks": 16})
    assert m.legal(2) == [{"act": "pass"}]
    m.apply(2, {"act": "pass"})
    assert m.targets == [0, 16, 0]


def test_woburn_all_pass_throws_the_hand_in_and_the_next_dealer_bids_again():
    m = start_match(
        "three_five_eight", dealer=0, seed=5, n_deals=3, variant={"woburn_bidding": True}
    )
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    assert m.results == [{"dealer": 0, "scores": [0, 0, 0], "payouts": [0, 0, 0]}]
    assert m.deal_no == 1
    assert m.dealer == 1
    assert m.view(0)["phase"] == "bid"
    assert m.to_act() == [1]


def test_woburn_cannot_be_combined_with_six_three_eight():
    with pytest.raises(VariantError, match="woburn_bidding cannot be combined"):
        start_match("three_five_eight", variant={"woburn_bidding": True, "targets": "6-3-8"})


def test_the_match_ends_at_twelve_tricks_after_the_hand_is_played_out():
    # deal every spade and the top hearts to the dealer: he takes at least 12 tricks
    spades = [r + "S" for r in "AKQJT98765432"]
    deal = arranged([*spades, "AH", "KH", "QH"], [], [])
    m = start_match("three_five_eight", seed=1, n_deals=5, deals=[deal])
    m.apply(0, {"act": "trump", "suit": "S"})
    m.apply(0, {"act": "discard", "cards": m.legal(0)[0]["from"][-4:]})
    rng = random.Random(0)
    while not m.finished:
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal(seat)))
    assert m.deal_no == 0
    assert len(m.results) == 1
    assert m.results[0]["scores"][0] >= 12
    assert m.winners == [0]
    assert m.result()["complete"] is True


def test_play_errors_are_clear_and_change_nothing():
    m = start_match("three_five_eight", seed=11)
    with pytest.raises(IllegalAction, match="wrong phase: the dealer names trump now"):
        m.apply(0, {"act": "play", "card": m.view(0)["hand"][0]})
    with pytest.raises(IllegalAction, match="no-trump is not allowed"):
        m.apply(0, {"act": "trump", "suit": "NT"})
    with pytest.raises(IllegalAction, match=r"not your turn \(waiting for seat 0\)"):
        m.apply(1, {"act": "trump", "suit": "S"})
    m.apply(0, {"act": "trump", "suit": "S"})
    hand = m.view(0)["hand"]
    with pytest.raises(IllegalAction, match="discard exactly 4 cards"):
        m.apply(0, {"act": "discard", "cards": hand[:3]})
    with pytest.raises(IllegalAction, match="the same card twice"):
        m.apply(0, {"act": "discard", "cards": [hand[0]] * 4})
    with pytest.raises(IllegalAction, match="you do not hold"):
        m.apply(0, {"act": "discard", "cards": [*hand[:3], m.view(1)["hand"][0]]})
    m.apply(0, {"act": "discard", "cards": hand[:4]})
    rng = random.Random(1)
    while True:  # play on until a seat must follow suit and could play off-suit
        seat = m.to_act()[0]
        legal = [a["card"] for a in m.legal(seat)]
        off = [c for c in m.view(seat)["hand"] if c not in legal]
        if m.trick and off:
            break
        m.apply(seat, {"act": "play", "card": rng.choice(legal)})
    led = FRENCH52.code(m.trick[0])[1]
    before = m.dump()
    with pytest.raises(IllegalAction, match=f"^must follow suit {led}$"):
        m.apply(seat, {"act": "play", "card": off[0]})
    assert m.dump() == before


def test_give_errors():
    deal = arranged(["2C", "7D"], [], ["4H"])
    m = at_hand_start(start_match("three_five_eight", dealer=1, deals=[deal]), [2, -3, 1], [0] * 3)
    with pytest.raises(IllegalAction, match="you must give to seat 1 now"):
        m.apply(2, {"act": "give", "to": 0, "cards": ["4H"]})
    with pytest.raises(IllegalAction, match="give exactly 1 card"):
        m.apply(2, {"act": "give", "to": 1, "cards": []})
    with pytest.raises(IllegalAction, match="wrong phase: the exchange comes first"):
        m.apply(2, {"act": "play", "card": "4H"})


def test_the_match_over_error():
    m = start_match("three_five_eight", seed=3)
    rng = random.Random(3)
    while not m.finished:
        seat = m.to_act()[0]
        a = dict(rng.choice(m.legal(seat)))
        if "choose" in a:
            a["cards"] = rng.sample(a.pop("from"), a.pop("choose"))
        m.apply(seat, a)
    with pytest.raises(IllegalAction, match="the match is over"):
        m.apply(0, {"act": "pass"})
