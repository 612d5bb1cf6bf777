"""Schieberamsch: the worked examples of rules/schieberamsch.md, every variant flag, the phases."""

from __future__ import annotations

import copy
import json

import pytest

from games import IllegalAction, RecordError, start_match, visible
from games.core.records import replay_record, score_record, score_record_text
from games.schieberamsch.engine import (
    DECK,
    grand_scores,
    grand_value,
    matadors,
    payouts_of,
    pen,
    ramsch_scores,
)

DEFAULT = {
    "score_divisor": 10,
    "grand_hand": True,
    "kontra_re": True,
    "grand_loss_factor": 1,
    "jacks_in_skat": False,
    "skat_to": "last_trick",
    "durchmarsch_pushes": True,
}
C = DECK.parse

# Seat 0 is forehand (dealer 2) and holds every jack, every ace and two tens: he can take every
# trick whatever the others play.
STRONG = ["JC", "JS", "JH", "JD", "AC", "AS", "AH", "AD", "TC", "TS"]
MIDDLE = ["KC", "QC", "9C", "KS", "QS", "9S", "KH", "QH", "9H", "TH"]
REAR = ["8C", "7C", "8S", "7S", "8H", "7H", "TD", "KD", "QD", "9D"]
SKAT = ["8D", "7D"]
DEAL = {"hands": [STRONG, MIDDLE, REAR], "stock": SKAT}


def match(variant=None, deal=DEAL, dealer=2, n_deals=1):
    return start_match(
        "schieberamsch",
        dealer=dealer,
        variant=variant,
        deals=[copy.deepcopy(deal)],
        n_deals=n_deals,
    )


def play_strong_first(m, order=STRONG):
    """Seat 0 plays ``order``; the others play their first legal card."""
    order = list(order)
    while not m.finished and m.phase == 5:
        seat = m.to_act()[0]
        card = order.pop(0) if seat == 0 else m.legal(seat)[0]["card"]
        m.apply(seat, {"act": "play", "card": card})


# ---------------------------------------------------------------- worked examples (pure)
def test_scale_drops_the_fraction_towards_zero():
    assert pen(45, 10) == 4
    assert pen(-96, 10) == -9
    assert pen(-960, 10) == -96
    assert pen(-5, 10) == 0
    assert pen(45, 1) == 45


def test_example_1_no_pushes_skat_to_the_last_trick():
    # trick points A 38, B 45, C 27; the skat TD 7C (10) goes to C, who took the last trick
    points = [38, 45, 27 + 10]
    scores, kind = ramsch_scores(points, [3, 4, 3], 0, DEFAULT)
    assert (scores, kind) == ([0, 4, 0], "normal")
    assert payouts_of(scores) == [4, -8, 4]


def test_example_2_jungfrau_doubles():
    scores, kind = ramsch_scores([0, 82, 38], [0, 6, 4], 1, DEFAULT)
    assert (scores, kind) == ([0, 32, 0], "jungfrau")


def test_example_3_two_equal_losers_both_score():
    assert ramsch_scores([50, 50, 20], [4, 4, 2], 2, DEFAULT) == ([20, 20, 0], "normal")


def test_example_4_durchmarsch_with_three_pushes():
    scores, kind = ramsch_scores([0, 0, 120], [0, 0, 10], 3, DEFAULT)
    assert (scores, kind) == ([0, 0, -96], "durchmarsch")
    flat = {**DEFAULT, "durchmarsch_pushes": False}
    assert ramsch_scores([0, 0, 120], [0, 0, 10], 3, flat)[0] == [0, 0, -12]


def test_all_three_at_forty_nobody_scores():
    assert ramsch_scores([40, 40, 40], [3, 3, 4], 1, DEFAULT) == ([0, 0, 0], "even")


def test_example_5_grand_hand_with_two():
    hand = ["JC", "JS", "AC", "TC", "KC", "AS", "TS", "AH", "9H", "7D"]
    m = matadors([C(c) for c in [*hand, "QS", "KD"]])
    assert m == 2
    assert grand_value(m, 77, 7, False, False) == (4, 96)
    assert grand_scores(0, m, 77, 7, False, False, DEFAULT) == [-9, 0, 0]
    assert grand_scores(0, m, 77, 7, True, True, DEFAULT) == [-38, 0, 0]


def test_example_6_grand_hand_without_two_lost():
    hand = ["JH", "JD", "AS", "TS", "KS", "AH", "TH", "KH", "8C", "7C"]
    m = matadors([C(c) for c in [*hand, "9D", "8D"]])
    assert m == 2
    assert grand_scores(1, m, 58, 5, False, False, DEFAULT) == [0, 9, 0]
    assert grand_scores(1, m, 58, 5, False, False, {**DEFAULT, "grand_loss_factor": 2}) == [
        0,
        19,
        0,
    ]


def test_matadors_without_any_jack_is_four():
    assert matadors([C(c) for c in ["AC", "TC"]]) == 4
    assert matadors([C(c) for c in ["JS", "JH"]]) == 1


def test_schneider_counts_thirty_or_fewer_and_schwarz_zero_tricks():
    assert grand_value(1, 30, 2, False, False)[0] == 4  # 1 + game + hand + schneider
    assert grand_value(1, 0, 0, False, False)[0] == 5  # + schwarz


# ---------------------------------------------------------------- worked examples (played)
def test_example_4_played_durchmarsch_with_three_pushes():
    m = match()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    assert m.view(1)["multiplier"] == 8
    play_strong_first(m)
    assert m.result()["deals"] == [{"dealer": 2, "scores": [-96, 0, 0], "payouts": [192, -96, -96]}]
    assert m.result()["winners"] == [0]


def test_example_7_played_grand_hand_with_all_four_jacks_takes_every_trick():
    m = match()
    m.apply(0, {"act": "grand_hand"})
    assert m.to_act() == [1]  # the offer stops: later seats are not asked
    m.apply(1, {"act": "pass"})
    m.apply(2, {"act": "pass"})
    assert m.phase == 5  # no re without a kontra
    play_strong_first(m)
    outcome = m.view(0)["outcome"]
    assert (outcome["matadors"], outcome["levels"], outcome["value"]) == (4, 8, 192)
    assert m.result()["deals"][0]["scores"] == [-19, 0, 0]


def test_played_grand_hand_with_kontra_and_re_doubles_twice():
    m = match(variant={"score_divisor": 1})
    m.apply(0, {"act": "grand_hand"})
    m.apply(1, {"act": "kontra"})
    assert m.to_act() == [0]  # the other opponent is not asked
    assert m.legal(0) == [{"act": "re"}, {"act": "pass"}]
    m.apply(0, {"act": "re"})
    play_strong_first(m)
    assert m.result()["deals"][0]["scores"] == [-192 * 4, 0, 0]


def test_grand_hand_declared_by_middlehand_is_asked_from_forehand():
    m = match()
    m.apply(0, {"act": "pass"})
    m.apply(1, {"act": "grand_hand"})
    assert m.to_act() == [0]
    m.apply(0, {"act": "pass"})
    assert m.to_act() == [2]
    m.apply(2, {"act": "pass"})
    assert (m.view(None)["phase"], m.to_act()) == ("play", [0])  # forehand leads


def test_skat_points_go_to_the_last_tricks_winner_or_to_the_losers():
    m = match()
    m.pts, m.won, m.skat, m.last = [30, 50, 30], [3, 4, 3], [C("TD"), C("AD")], 2
    scores, outcome = m._settle()
    assert (outcome["points"], scores) == ([30, 50, 51], [0, 0, 5])
    m.variant = {**DEFAULT, "skat_to": "loser"}
    scores, outcome = m._settle()
    assert (outcome["points"], scores) == ([30, 71, 30], [0, 7, 0])
    m.pts = [45, 45, 9]
    scores, outcome = m._settle()
    assert (outcome["points"], scores) == ([66, 66, 9], [6, 6, 0])


# ---------------------------------------------------------------- phases and flags
def test_skat_passing_pickup_discard_and_pushes():
    m = match()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    assert m.legal(0) == [{"act": "pickup"}, {"act": "push"}]
    events = m.apply(0, {"act": "pickup"})
    assert next(e for e in visible(events, 0) if e["event"] == "skat")["cards"] == SKAT
    assert not [e for e in visible(events, 1) if e["event"] == "skat"]
    assert (m.to_act(), len(m.view(0)["hand"])) == ([0], 12)
    (template,) = m.legal(0)
    assert (template["act"], template["choose"]) == ("discard", 2)
    assert not any(c.startswith("J") for c in template["from"])  # jacks stay in the hand
    m.apply(0, {"act": "discard", "cards": ["TS", "8D"]})
    assert m.view(0)["skat_seen"] == {"taken": SKAT, "put": ["TS", "8D"]}
    assert m.view(1)["skat_seen"] is None
    m.apply(1, {"act": "push"})
    m.apply(2, {"act": "pickup"})
    assert m.view(2)["skat_seen"]["taken"] == ["TS", "8D"]
    m.apply(2, {"act": "discard", "cards": ["TD", "KD"]})
    assert (m.view(0)["pushes"], m.view(0)["phase"], m.to_act()) == (1, "play", [0])
    assert m.skat == [C("TD"), C("KD")]  # the last discard is the scored skat


def test_jacks_in_skat_flag():
    m = match()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "pickup"})
    with pytest.raises(IllegalAction, match="a jack may not be discarded"):
        m.apply(0, {"act": "discard", "cards": ["JC", "8D"]})
    m = match(variant={"jacks_in_skat": True})
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "pickup"})
    assert "JC" in m.legal(0)[0]["from"]
    m.apply(0, {"act": "discard", "cards": ["JC", "8D"]})


def test_without_grand_hand_there_is_no_offer_and_without_kontra_re_no_doubling():
    m = match(variant={"grand_hand": False})
    assert m.view(0)["phase"] == "skat"
    assert m.legal(0) == [{"act": "pickup"}, {"act": "push"}]
    with pytest.raises(IllegalAction, match="wrong phase"):
        m.apply(0, {"act": "grand_hand"})
    m = match(variant={"kontra_re": False})
    m.apply(0, {"act": "grand_hand"})
    assert m.view(0)["phase"] == "play"
    with pytest.raises(IllegalAction, match="wrong phase: play a card"):
        m.apply(0, {"act": "re"})


def test_a_jack_is_not_of_its_printed_suit():
    hands = [
        ["AC", "7S", "8S", "9S", "QS", "KS", "TS", "AS", "7H", "8H"],
        ["JC", "KC", "9H", "QH", "KH", "TH", "AH", "7D", "8D", "9D"],
        ["JS", "JH", "JD", "TC", "QC", "9C", "8C", "7C", "QD", "KD"],
    ]
    m = match(deal={"hands": hands, "stock": ["TD", "AD"]}, variant={"grand_hand": False})
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    m.apply(0, {"act": "play", "card": "AC"})
    # seat 1 holds JC and KC: KC must follow, JC is a trump, not a club
    assert [a["card"] for a in m.legal(1)] == ["KC"]
    with pytest.raises(IllegalAction, match="must follow suit C"):
        m.apply(1, {"act": "play", "card": "JC"})
    m.apply(1, {"act": "play", "card": "KC"})
    with pytest.raises(IllegalAction, match=r"^must follow suit C$"):
        m.apply(2, {"act": "play", "card": "JS"})  # seat 2 holds plain clubs


def test_jack_led_must_be_answered_with_a_jack_and_the_highest_jack_wins():
    hands = [
        ["JD", "7S", "8S", "9S", "QS", "KS", "TS", "AS", "7H", "8H"],
        ["JC", "KC", "9H", "QH", "KH", "TH", "AH", "7D", "8D", "9D"],
        ["JS", "JH", "AC", "TC", "QC", "9C", "8C", "7C", "QD", "KD"],
    ]
    m = match(deal={"hands": hands, "stock": ["TD", "AD"]}, variant={"grand_hand": False})
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    m.apply(0, {"act": "play", "card": "JD"})
    assert [a["card"] for a in m.legal(1)] == ["JC"]
    with pytest.raises(IllegalAction, match="a jack was led: you must play a jack"):
        m.apply(1, {"act": "play", "card": "KC"})
    m.apply(1, {"act": "play", "card": "JC"})
    m.apply(2, {"act": "play", "card": "JH"})
    assert (m.tricks[-1][-1], m.to_act()) == (1, [1])  # JC wins and leads
    assert m.view(None)["trick_points"] == [0, 6, 0]
    # without a jack the highest card of the suit led wins; an off-suit ace does not
    m.apply(1, {"act": "play", "card": "7D"})
    m.apply(2, {"act": "play", "card": "QD"})
    m.apply(0, {"act": "play", "card": "AS"})
    assert m.tricks[-1][-1] == 2


def test_clubs_led_to_a_hand_with_only_the_club_jack_may_be_answered_freely():
    hands = [
        ["AC", "7S", "8S", "9S", "QS", "KS", "TS", "AS", "7H", "8H"],
        ["JC", "JH", "9H", "QH", "KH", "TH", "AH", "7D", "8D", "9D"],
        ["JS", "KC", "JD", "TC", "QC", "9C", "8C", "7C", "QD", "KD"],
    ]
    m = match(deal={"hands": hands, "stock": ["TD", "AD"]}, variant={"grand_hand": False})
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "push"})
    m.apply(0, {"act": "play", "card": "AC"})
    assert len(m.legal(1)) == 10  # no plain club: any card, jacks included
    m.apply(1, {"act": "play", "card": "9H"})
    assert "JS" not in [a["card"] for a in m.legal(2)]
    m.apply(2, {"act": "play", "card": "7C"})
    assert m.tricks[-1][-1] == 0


# ---------------------------------------------------------------- illegal actions
ILLEGAL = [
    (1, {"act": "pass"}, "not your turn"),
    (0, {"act": "push"}, "wrong phase: announce a Grand Hand or pass"),
    (0, {"act": "bid", "contract": "solo"}, "'bid' is not a move in Schieberamsch"),
    (0, {"act": "pass", "signal": "volo"}, "signals are not used"),
    (0, {"act": "play", "card": "JC"}, "wrong phase"),
    (3, {"act": "pass"}, "no such seat"),
]


@pytest.mark.parametrize(("seat", "action", "message"), ILLEGAL)
def test_illegal_actions_in_the_offer_change_nothing(seat, action, message):
    m = match()
    before = m.dump()
    with pytest.raises(IllegalAction, match=message):
        m.apply(seat, action)
    assert m.dump() == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"act": "discard", "cards": ["AC"]}, "discard exactly 2 cards"),
        ({"act": "discard", "cards": ["AC", "AC"]}, "the same card twice"),
        ({"act": "discard", "cards": ["AC", "KC"]}, "you do not hold KC"),
        ({"act": "discard", "cards": ["AC", "XX"]}, "unknown card 'XX'"),
        ({"act": "discard", "cards": "AC AS"}, "must be a list"),
        ({"act": "discard", "cards": ["JC", "AS"]}, "a jack may not be discarded"),
        ({"act": "push"}, "wrong phase: discard 2 cards"),
        ({"act": "play", "card": "AC"}, "wrong phase"),
    ],
)
def test_illegal_discards_change_nothing(action, message):
    m = match()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "pickup"})
    before = m.dump()
    with pytest.raises(IllegalAction, match=message):
        m.apply(0, action)
    assert m.dump() == before


def test_illegal_plays_change_nothing():
    m = match()
    m.apply(0, {"act": "grand_hand"})
    m.apply(1, {"act": "pass"})
    m.apply(2, {"act": "pass"})
    m.apply(0, {"act": "play", "card": "AS"})
    before = m.dump()
    for action, message in [
        ({"act": "play", "card": "AS"}, "you do not hold AS"),
        ({"act": "play", "card": "KC"}, "must follow suit S"),
        ({"act": "play"}, "unknown card None"),
        ({"act": "re"}, "wrong phase: play a card"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            m.apply(1, action)
        assert m.dump() == before


# ---------------------------------------------------------------- views
def test_views_hide_the_skat_until_the_deal_ends():
    m = match()
    for seat in (0, 1, 2):
        m.apply(seat, {"act": "pass"})
    m.apply(0, {"act": "push"})
    for seat in (None, 0, 1, 2):
        text = json.dumps({k: v for k, v in m.view(seat).items() if k != "last_deal"})
        assert '"8D"' not in text
        assert '"7D"' not in text
    m.apply(1, {"act": "push"})
    m.apply(2, {"act": "push"})
    play_strong_first(m)
    assert m.view(None)["skat"] == SKAT  # the deal ended: everything may be shown


def test_grand_hand_skat_is_seen_by_nobody_and_counts_for_the_declarer():
    m = match(variant={"kontra_re": False})
    events = m.apply(0, {"act": "grand_hand"})
    assert not [e for e in events if "cards" in e]
    play_strong_first(m)
    assert m.view(0)["outcome"]["points"][0] == 120


# ---------------------------------------------------------------- records
PLAYS = "JC KC 8C JS QC 7C JH 9C 8S JD KS 7S AC QS 8H AS 9S 7H AH TH TD AD KH KD TC QH QD TS 9H 9D"
PLAYS = PLAYS.split()


def durchmarsch_record(actions=None) -> dict:
    if actions is None:
        actions = [{"seat": s, "act": "pass"} for s in (0, 1, 2)]
        actions += [{"seat": s, "act": "push"} for s in (0, 1, 2)]
        seat = 0
        for i, card in enumerate(PLAYS):
            actions.append({"seat": seat, "act": "play", "card": card})
            seat = 0 if i % 3 == 2 else (seat + 1) % 3
    return {
        "format": "mediana.record/1",
        "game": "schieberamsch",
        "players": ["ana", "ben", "cleo"],
        "dealer": 2,
        "deals": [{**copy.deepcopy(DEAL), "actions": actions}],
    }


def test_score_record_of_a_hand_written_record():
    assert score_record(durchmarsch_record()) == {
        "game": "schieberamsch",
        "complete": True,
        "deals": [{"dealer": 2, "scores": [-96, 0, 0], "payouts": [192, -96, -96]}],
        "totals": {"scores": [-96, 0, 0], "payouts": [192, -96, -96]},
        "winners": [0],
    }
    record = durchmarsch_record()
    assert replay_record(record).export() == record


def test_a_record_that_stops_mid_deal_scores_zero():
    record = durchmarsch_record()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:10]
    result = score_record(record)
    assert (result["complete"], result["winners"]) == (False, [])
    assert result["deals"] == [{"dealer": 2, "scores": [0, 0, 0], "payouts": [0, 0, 0]}]


@pytest.mark.parametrize(
    ("edit", "line"),
    [
        (
            lambda r: r["deals"][0]["actions"].__setitem__(3, {"seat": 0, "act": "pickup"}),
            "deal 0, action 4 (seat 1 push): not your turn (waiting for seat 0)",
        ),
        (
            lambda r: r["deals"][0]["actions"].__setitem__(
                7, {"seat": 1, "act": "play", "card": "JS"}
            ),
            "deal 0, action 7 (seat 1 play JS): you do not hold JS",
        ),
        (
            lambda r: r["deals"][0]["actions"].__setitem__(
                22, {"seat": 1, "act": "play", "card": "TH"}
            ),
            "deal 0, action 22 (seat 1 play TH): must follow suit S",
        ),
        (
            lambda r: r["deals"][0]["actions"].__setitem__(0, {"seat": 1, "act": "pass"}),
            "deal 0, action 0 (seat 1 pass): not your turn (waiting for seat 0)",
        ),
        (
            lambda r: r["deals"][0]["actions"].append({"seat": 0, "act": "pass"}),
            "deal 0, action 36 (seat 0 pass): the match is over",
        ),
        (lambda r: r.__setitem__("variant", {"jacks_in_skat": 1}), "record: variant flag"),
        (lambda r: r.__setitem__("variant", {"skat_to": "winner"}), "record: variant flag"),
        (lambda r: r.__setitem__("variant", {"score_divisor": 5}), "record: variant flag"),
        (
            lambda r: r["deals"][0]["stock"].__setitem__(0, "7D"),
            "deal 0: wrong deck: stock: 7D appears twice",
        ),
    ],
)
def test_illegal_records_name_deal_action_seat_and_reason(edit, line):
    record = durchmarsch_record()
    edit(record)
    with pytest.raises(RecordError) as e:
        score_record(record)
    assert str(e.value).startswith(line)


def test_score_record_text_rejects_malformed_json():
    with pytest.raises(RecordError, match=r"^record: malformed JSON"):
        score_record_text("{")
    assert score_record_text(json.dumps(durchmarsch_record()))["winners"] == [0]


def test_match_winners_are_the_lowest_totals_and_ties_share():
    m = match(n_deals=1)
    m.results = [
        {"dealer": 0, "scores": [4, 0, 0], "payouts": [-8, 4, 4]},
        {"dealer": 1, "scores": [0, 0, 4], "payouts": [4, 4, -8]},
    ]
    assert m._final_winners() == [1]
    m.results = [{"dealer": 0, "scores": [0, 0, 4], "payouts": [4, 4, -8]}]
    assert m._final_winners() == [0, 1]
