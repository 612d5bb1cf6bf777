"""Mediatore: the worked examples of rules/mediatore.md, the auction, the five contracts, signals,
scoring and every variant flag. The secret partner has its own file (test_mediatore_secrets.py)."""

from __future__ import annotations

import copy
import json

import pytest

from games import IllegalAction, RecordError, start_match, visible
from games.core.records import replay_record, score_record
from games.mediatore.engine import (
    CHIAMO,
    DECK,
    MEDIATORE,
    SOLISSIMO,
    SOLO,
    payments,
    signal_true,
)

C = DECK.parse
# Seat 0 is the eldest (dealer 3) and holds the 3, 2 and A of three suits: as leader he takes
# every trick whatever the others play.
H0 = ["3d", "2d", "Ad", "3c", "2c", "Ac", "3s", "2s", "As"]
H1 = ["Rd", "Cd", "Fd", "7d", "6d", "5d", "4d", "Rc", "Cc"]
H2 = ["Fc", "7c", "6c", "5c", "4c", "Rs", "Cs", "Fs", "7s"]
H3 = ["6s", "5s", "4s", "3b", "2b", "Ab", "Rb", "Cb", "Fb"]
MONTE = ["7b", "6b", "5b", "4b"]
DEAL = {"hands": [H0, H1, H2, H3], "stock": MONTE}


def match(variant=None, deal=DEAL, dealer=3, n_deals=1):
    return start_match(
        "mediatore",
        dealer=dealer,
        variant=variant,
        deals=[copy.deepcopy(deal)],
        n_deals=n_deals,
    )


def auction(m, contract, declarer=0):
    m.apply(declarer, {"act": "bid", "contract": contract})
    for seat in range(1, 4):
        m.apply((declarer + seat) % 4, {"act": "pass"})


def play_seat0_first(m, order=H0):
    order = list(order)
    while not m.finished:
        seat = m.to_act()[0]
        card = order.pop(0) if seat == 0 else m.legal(seat)[0]["card"]
        m.apply(seat, {"act": "play", "card": card})


# ---------------------------------------------------------------- worked examples
def test_example_1_chiamo_won_two_against_two():
    # declarer 0, partner 2; 19 thirds (6 points) against 16 (5)
    assert payments(CHIAMO, 0, 2, False, True, False, "add2") == [5, -4, 3, -4]


def test_example_2_mediatore_lost():
    assert payments(MEDIATORE, 0, 3, False, False, False, "add2") == [-22, 8, 8, 6]


def test_example_3_solo_slam():
    assert payments(SOLO, 0, -1, True, True, True, "add2") == [42, -14, -14, -14]


def test_example_4_chiamo_alone_wins_with_exactly_eighteen_thirds():
    assert payments(CHIAMO, 1, -1, True, True, False, "add2") == [-4, 12, -4, -4]


def test_example_5_chiamo_defenders_take_every_trick():
    assert payments(CHIAMO, 0, 1, False, False, True, "add2") == [-7, -5, 6, 6]


@pytest.mark.parametrize(
    ("contract", "helper", "decl", "defender", "other"),
    [
        (MEDIATORE, -1, 24, -8, None),
        (SOLO, -1, 36, -12, None),
        (SOLISSIMO, -1, 48, -16, None),
        (4, -1, 54, -18, None),
        (MEDIATORE, 2, 22, -8, -6),
    ],
)
def test_stake_table(contract, helper, decl, defender, other):
    pay = payments(contract, 0, helper, helper < 0, True, False, "add2")
    assert pay[0] == decl
    assert pay[1] == defender
    assert pay[2] == (defender if other is None else other)
    assert sum(pay) == 0
    assert payments(contract, 0, helper, helper < 0, False, False, "add2") == [-p for p in pay]


def test_slam_flags():
    assert payments(CHIAMO, 0, 2, False, True, True, "double") == [10, -8, 6, -8]
    assert payments(CHIAMO, 0, 2, False, True, True, "none") == [5, -4, 3, -4]
    assert payments(MEDIATORE, 0, 3, False, True, True, "add2") == [28, -10, -10, -8]


def test_example_3_played_solo_slam():
    m = match()
    auction(m, "solo")
    m.apply(0, {"act": "discard", "cards": MONTE})
    play_seat0_first(m)
    assert m.result()["deals"] == [
        {"dealer": 3, "scores": [11, 0, 0, 0], "payouts": [42, -14, -14, -14]}
    ]
    assert m.result()["winners"] == [0]
    assert m.view(1)["outcome"]["thirds"] == [35, 0]


def test_the_monte_and_the_last_trick_go_to_the_side_that_takes_the_last_trick():
    m = match()
    auction(m, "solissimo")
    m.thirds = [15, 5, 4, 5]  # 29 thirds in tricks; the monte (7b 6b 5b 4b) holds 0
    m.won = [5, 2, 1, 1]
    m._score(0, None)
    assert m.results[0]["scores"] == [6, 5, 5, 5]  # 15 + 3 = 18 thirds: exactly 6 points
    assert m.results[0]["payouts"] == [48, -16, -16, -16]
    m = match()
    auction(m, "solissimo")
    m.thirds, m.won = [15, 5, 4, 5], [5, 2, 1, 1]
    m._score(2, None)  # the defenders took the last trick: 15 against 20
    assert m.results[0]["scores"] == [5, 6, 6, 6]
    assert m.results[0]["payouts"] == [-48, 16, 16, 16]


def test_points_are_thirds_rounded_down_per_side_and_always_total_eleven():
    for decl_thirds in range(36):
        assert decl_thirds // 3 + (35 - decl_thirds) // 3 == 11


# ---------------------------------------------------------------- auction
def test_a_seat_that_passed_is_out_and_skipped():
    m = match()
    m.apply(0, {"act": "bid", "contract": "chiamo"})
    m.apply(1, {"act": "pass"})
    m.apply(2, {"act": "bid", "contract": "mediatore"})
    m.apply(3, {"act": "pass"})
    assert m.to_act() == [0]
    with pytest.raises(IllegalAction, match="bid higher than mediatore"):
        m.apply(0, {"act": "bid", "contract": "chiamo"})
    m.apply(0, {"act": "bid", "contract": "solo"})
    assert m.to_act() == [2]  # seat 1 is out
    m.apply(2, {"act": "pass"})
    v = m.view(None)
    assert (v["declarer"], v["contract"], v["phase"]) == (0, "solo", "discard")


def test_all_pass_throws_the_deal_in_and_the_next_dealer_deals():
    m = start_match("mediatore", dealer=3, n_deals=2, seed=5, deals=[copy.deepcopy(DEAL)])
    for seat in (0, 1, 2, 3):
        m.apply(seat, {"act": "pass"})
    assert m.results == [{"dealer": 3, "scores": [0, 0, 0, 0], "payouts": [0, 0, 0, 0]}]
    assert (m.dealer, m.deal_no, m.to_act()) == (0, 1, [1])


def test_after_arcisolissimo_the_others_still_pass():
    m = match()
    m.apply(0, {"act": "bid", "contract": "arcisolissimo"})
    assert m.legal(1) == [{"act": "pass"}]
    for seat in (1, 2, 3):
        m.apply(seat, {"act": "pass"})
    assert m.view(None)["phase"] == "play"
    assert m.view(0)["monte"]["seen"] is None  # the declarer does not see the monte


def test_chiamo_threes_only():
    threes = ["3d", "3c", "3s", "3b", "2d", "2c", "2s", "2b", "Ad"]
    others = [c for c in DECK.codes(DECK.ids) if c not in threes]
    deal = {"hands": [threes, others[:9], others[9:18], others[18:27]], "stock": others[27:]}
    m = match(variant={"chiamo_threes_only": True}, deal=deal)
    assert {"act": "bid", "contract": "chiamo"} not in m.legal(0)
    with pytest.raises(IllegalAction, match="you hold all four 3s"):
        m.apply(0, {"act": "bid", "contract": "chiamo"})
    m = match(variant={"chiamo_threes_only": True})
    auction(m, "chiamo")
    assert m.legal(0) == [{"act": "call", "card": "3b"}]
    with pytest.raises(IllegalAction, match="must be a 3"):
        m.apply(0, {"act": "call", "card": "2b"})


# ---------------------------------------------------------------- contracts
def test_chiamo_the_declarer_takes_the_monte_unseen_and_discards_four():
    m = match()
    auction(m, "chiamo")
    with pytest.raises(IllegalAction, match="you cannot call 3d: you hold it"):
        m.apply(0, {"act": "call", "card": "3d"})
    events = m.apply(0, {"act": "call", "card": "3b"})
    assert [e["event"] for e in visible(events, 1)] == ["call", "monte_taken"]
    assert next(e for e in visible(events, 0) if e["event"] == "monte")["cards"] == MONTE
    assert m.legal(0) == [{"act": "discard", "choose": 4, "from": m.view(0)["hand"]}]
    assert len(m.view(0)["hand"]) == 13
    m.apply(0, {"act": "discard", "cards": ["7b", "6b", "Ac", "As"]})
    assert m.view(0)["monte"]["new"] == ["7b", "6b", "Ac", "As"]
    assert m.view(1)["monte"] == {"shown": None, "seen": None, "new": None}
    assert m.to_act() == [0]  # the eldest leads


def test_mediatore_the_called_card_is_handed_over_openly_and_one_card_goes_back():
    m = match()
    auction(m, "mediatore")
    events = m.apply(0, {"act": "call", "card": "3b"})
    kinds = [e["event"] for e in visible(events, None)]
    assert kinds == ["call", "hand_over", "monte_shown", "monte_taken"]
    assert next(e for e in events if e["event"] == "hand_over")["seat"] == 3
    assert m.view(2)["monte"]["shown"] == MONTE
    assert m.view(2)["giver"] == 3
    hand = m.view(0)["hand"]
    assert len(hand) == 14
    assert m.legal(0) == [
        {
            "act": "exchange",
            "discard": {"choose": 4, "from": hand},
            "give": {"choose": 1, "from": hand},
        }
    ]
    for action, message in [
        ({"act": "exchange", "discard": ["7b", "6b", "5b", "4b"], "give": None}, "give one card"),
        ({"act": "exchange", "discard": ["7b", "6b", "5b", "4b"], "give": "4b"}, "also discarded"),
        ({"act": "exchange", "discard": ["7b", "6b", "5b"], "give": "3d"}, "exactly 4"),
        ({"act": "discard", "cards": ["7b", "6b", "5b", "4b"]}, "wrong phase"),
    ]:
        before = m.dump()
        with pytest.raises(IllegalAction, match=message):
            m.apply(0, action)
        assert m.dump() == before
    events = m.apply(0, {"act": "exchange", "discard": ["7b", "6b", "5b", "4b"], "give": "3b"})
    assert "3b" in m.view(3)["hand"]
    assert (m.view(0)["given"], m.view(3)["given"], m.view(1)["given"]) == ("3b", "3b", None)
    assert not [e for e in visible(events, 1) if "card" in e or "cards" in e]
    assert [len(m.hands[s]) for s in range(4)] == [9, 9, 9, 9]


def test_mediatore_with_the_called_card_in_the_monte_gives_nothing_back():
    m = match()
    auction(m, "mediatore")
    m.apply(0, {"act": "call", "card": "7b"})
    assert m.view(1)["giver"] is None
    assert m.legal(0)[0]["give"] is None
    with pytest.raises(IllegalAction, match="'give' must be null"):
        m.apply(0, {"act": "exchange", "discard": ["7b", "6b", "5b", "4b"], "give": "3d"})
    m.apply(0, {"act": "exchange", "discard": ["7b", "6b", "5b", "4b"], "give": None})
    play_seat0_first(m)
    # mediatore without a giver, slam: defenders -8 - 2, declarer the balance
    assert m.result()["deals"][0]["payouts"] == [30, -10, -10, -10]


def test_solo_shows_the_monte_and_solissimo_lets_only_the_declarer_look():
    m = match()
    events = m.apply(0, {"act": "bid", "contract": "solo"})
    for seat in (1, 2):
        m.apply(seat, {"act": "pass"})
    events = m.apply(3, {"act": "pass"})
    assert next(e for e in visible(events, 2) if e["event"] == "monte_shown")["cards"] == MONTE
    m = match()
    auction(m, "solissimo")
    assert m.view(0)["monte"]["seen"] == MONTE
    assert m.view(1)["monte"]["seen"] is None
    assert m.view(None)["phase"] == "play"
    assert len(m.view(0)["hand"]) == 9


# ---------------------------------------------------------------- signals
def test_signal_truth():
    hand = [C(c) for c in H1]  # Rd Cd Fd 7d 6d 5d 4d Rc Cc
    assert signal_true(1, C("Rd"), hand)  # busso is always true
    assert not signal_true(2, C("Rd"), hand)  # volo: more denari left
    assert signal_true(2, C("Rc"), [C("Rc"), C("Rd")])  # volo: last coppe
    assert signal_true(3, C("Rc"), hand)  # striscio: Cc (lower than R) left
    assert not signal_true(3, C("Rc"), [C("Rc"), C("Rd")])
    assert not signal_true(4, C("Rd"), hand)  # busso+volo checked like volo
    assert signal_true(5, C("Rd"), hand)  # busso+striscio like striscio


def test_signals_on_the_lead_are_checked():
    m = match()
    auction(m, "arcisolissimo")
    lead = m.legal(0)
    assert {"act": "play", "card": "Ac", "signal": "volo"} not in lead
    assert {"act": "play", "card": "As", "signal": "busso"} in lead
    before = m.dump()
    for action, message in [
        ({"act": "play", "card": "3d", "signal": "volo"}, "false volo"),
        ({"act": "play", "card": "3d", "signal": "busso+volo"}, "false volo"),
        ({"act": "play", "card": "3d", "signal": "striscio"}, "false striscio"),
        ({"act": "play", "card": "3d", "signal": "knock"}, "unknown signal 'knock'"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            m.apply(0, action)
        assert m.dump() == before
    events = m.apply(0, {"act": "play", "card": "3d", "signal": "busso"})
    assert events[0] == {
        "seat": 0,
        "card": "3d",
        "signal": "busso",
        "event": "play",
        "visible_to": None,
    }
    assert m.view(2)["signal"] == "busso"
    with pytest.raises(IllegalAction, match="only with the card that leads"):
        m.apply(1, {"act": "play", "card": "Rd", "signal": "busso"})
    m = match()
    with pytest.raises(IllegalAction, match="only with the card that leads"):
        m.apply(0, {"act": "pass", "signal": "busso"})


def test_signals_off_and_signal_check_off():
    m = match(variant={"signals": "off"})
    auction(m, "arcisolissimo")
    assert all("signal" not in a for a in m.legal(0))
    with pytest.raises(IllegalAction, match="signals are off"):
        m.apply(0, {"act": "play", "card": "3d", "signal": "busso"})
    m = match(variant={"signal_check": "off"})
    auction(m, "arcisolissimo")
    assert len(m.legal(0)) == 9 * 6
    m.apply(0, {"act": "play", "card": "3d", "signal": "volo"})  # false, but allowed


# ---------------------------------------------------------------- illegal actions
@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"act": "pass"}, "not your turn"),
        (0, {"act": "call", "card": "3b"}, "wrong phase: bid a contract or pass"),
        (0, {"act": "bid", "contract": "grand"}, "bid a contract: chiamo"),
        (0, {"act": "bid"}, "bid a contract"),
        (0, {"act": "push"}, "'push' is not a move in Mediatore"),
        (0, {"act": "play", "card": "3d"}, "wrong phase"),
        (4, {"act": "pass"}, "no such seat"),
        (0, ["pass"], "an action must be an object"),
    ],
)
def test_illegal_actions_in_the_auction_change_nothing(seat, action, message):
    m = match()
    before = m.dump()
    with pytest.raises(IllegalAction, match=message):
        m.apply(seat, action)
    assert m.dump() == before


def test_illegal_plays_change_nothing():
    m = match()
    auction(m, "arcisolissimo")
    m.apply(0, {"act": "play", "card": "3d"})
    before = m.dump()
    for action, message in [
        ({"act": "play", "card": "Rc"}, "must follow suit d"),
        ({"act": "play", "card": "3d"}, "you do not hold 3d"),
        ({"act": "play", "card": "3x"}, "unknown card '3x'"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            m.apply(1, action)
        assert m.dump() == before


# ---------------------------------------------------------------- records
def solo_record() -> dict:
    actions = [{"seat": 0, "act": "bid", "contract": "solo"}]
    actions += [{"seat": s, "act": "pass"} for s in (1, 2, 3)]
    actions.append({"seat": 0, "act": "discard", "cards": MONTE})
    tricks = [
        "3d Rd Fc 6s",
        "2d Cd 7c 5s",
        "Ad Fd 6c 4s",
        "3c Rc 5c 3b",
        "2c Cc 4c 2b",
        "Ac 7d Rs Ab",
        "3s 6d Cs Rb",
        "2s 5d Fs Cb",
        "As 4d 7s Fb",
    ]
    for trick in tricks:
        for seat, card in enumerate(trick.split()):
            actions.append({"seat": seat, "act": "play", "card": card})
    actions[5]["signal"] = "busso"
    return {
        "format": "mediana.record/1",
        "game": "mediatore",
        "variant": {"slam": "add2"},
        "dealer": 3,
        "deals": [{**copy.deepcopy(DEAL), "actions": actions}],
    }


def test_score_record_of_a_hand_written_record():
    assert score_record(solo_record()) == {
        "game": "mediatore",
        "complete": True,
        "deals": [{"dealer": 3, "scores": [11, 0, 0, 0], "payouts": [42, -14, -14, -14]}],
        "totals": {"scores": [11, 0, 0, 0], "payouts": [42, -14, -14, -14]},
        "winners": [0],
    }
    record = solo_record()
    assert replay_record(record).export() == record


def test_a_thrown_in_deal_then_a_stopped_deal():
    record = solo_record()
    thrown = {**copy.deepcopy(DEAL), "actions": [{"seat": s, "act": "pass"} for s in (0, 1, 2, 3)]}
    second = copy.deepcopy(DEAL)
    second["actions"] = [{"seat": 1, "act": "bid", "contract": "chiamo"}]
    record["deals"] = [thrown, second]
    result = score_record(record)
    assert result["complete"] is False
    assert result["deals"] == [
        {"dealer": 3, "scores": [0, 0, 0, 0], "payouts": [0, 0, 0, 0]},
        {"dealer": 0, "scores": [0, 0, 0, 0], "payouts": [0, 0, 0, 0]},
    ]
    assert result["winners"] == []


@pytest.mark.parametrize(
    ("index", "action", "line"),
    [
        (
            5,
            {"seat": 0, "act": "play", "card": "3d", "signal": "volo"},
            "deal 0, action 5 (seat 0 play 3d volo): false volo: you still hold another card",
        ),
        (
            6,
            {"seat": 1, "act": "play", "card": "Rc"},
            "deal 0, action 6 (seat 1 play Rc): must follow suit d",
        ),
        (
            6,
            {"seat": 1, "act": "play", "card": "Rd", "signal": "busso"},
            "deal 0, action 6 (seat 1 play Rd busso): a signal goes only with the card that leads",
        ),
        (
            4,
            {"seat": 0, "act": "discard", "cards": ["7b", "6b", "5b"]},
            "deal 0, action 4 (seat 0 discard 7b 6b 5b): discard exactly 4 cards, not 3",
        ),
        (
            1,
            {"seat": 1, "act": "bid", "contract": "chiamo"},
            "deal 0, action 1 (seat 1 bid chiamo): bid higher than solo",
        ),
        (
            0,
            {"seat": 0, "act": "exchange", "discard": ["7b"], "give": None},
            "deal 0, action 0 (seat 0 exchange 7b None): wrong phase: bid a contract or pass",
        ),
    ],
)
def test_illegal_records_name_deal_action_seat_and_reason(index, action, line):
    record = solo_record()
    record["deals"][0]["actions"][index] = action
    with pytest.raises(RecordError) as e:
        score_record(record)
    assert str(e.value).startswith(line)


@pytest.mark.parametrize(
    ("variant", "line"),
    [
        ({"slam": "triple"}, "record: variant flag 'slam' must be one of"),
        ({"signals": True}, "record: variant flag 'signals' must be one of"),
        ({"chiamo_threes_only": "yes"}, "record: variant flag 'chiamo_threes_only' must be"),
        ({"trumps": True}, "record: unknown variant flag 'trumps'"),
    ],
)
def test_bad_variants_are_record_errors(variant, line):
    record = solo_record()
    record["variant"] = variant
    with pytest.raises(RecordError) as e:
        score_record(record)
    assert str(e.value).startswith(line)


def test_views_are_json_and_a_spectator_sees_no_hand():
    m = match()
    auction(m, "chiamo")
    json.dumps(m.view(None))
    assert "hand" not in m.view(None)
    assert m.view(0)["hand"] == sorted(H0, key=C)
