"""Saichugen: the worked examples of rules/saichugen.md, simultaneous commits and hidden cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import IllegalAction, start_match, visible
from games.core.cards import FRENCH52
from games.saichugen.engine import (
    STRENGTH,
    VALUE,
    game_payouts,
    median_seat,
    round_banked,
)


def arranged(*wanted: list[str]) -> dict:
    """An explicit Saichugen deal: each seat gets its wanted cards first, then fillers."""
    rest = [c for c in FRENCH52.codes(FRENCH52.ids) if all(c not in w for w in wanted)]
    hands = []
    for w in wanted:
        need = 17 - len(w)
        hands.append([*w, *rest[:need]])
        rest = rest[need:]
    return {"hands": hands, "stock": rest}


def trick_winner(*codes: str) -> tuple[str, int]:
    cards = [FRENCH52.parse(c) for c in codes]
    w = median_seat(*(STRENGTH[c] for c in cards))
    return codes[w], VALUE[cards[w]]


@pytest.mark.parametrize(
    ("cards", "winner", "value"),
    [
        (("3S", "7C", "7H"), "7C", 7),
        (("8H", "KH", "8D"), "8H", 8),
        (("5C", "4C", "4D"), "4D", 4),
    ],
)
def test_the_median_card_wins_the_trick_and_scores_its_value(cards, winner, value):
    assert trick_winner(*cards) == (winner, value)


def test_strength_is_rank_then_suit_spades_highest():
    s = {c: STRENGTH[FRENCH52.parse(c)] for c in ("7C", "7H", "8D", "8H", "KH", "AS", "2C")}
    assert s["7H"] > s["7C"]
    assert s["8D"] < s["8H"] < s["KH"]
    assert s["AS"] < s["2C"]  # the ace is worth 1, the lowest rank
    assert len(set(STRENGTH)) == 52


@pytest.mark.parametrize(
    ("scores", "banked"),
    [
        ((12, 7, 5), [0, 7, 0]),
        ((7, 7, 0), [7, 7, 0]),
        ((9, 9, 9), [9, 9, 9]),
        ((0, 0, 23), [0, 0, 0]),
    ],
)
def test_the_median_round_score_banks(scores, banked):
    assert round_banked(list(scores)) == banked


@pytest.mark.parametrize(
    ("game_scores", "payouts"),
    [((10, 20, 30), [-1, 2, -1]), ((20, 20, 35), [1, 1, -2]), ((14, 14, 14), [0, 0, 0])],
)
def test_game_payouts(game_scores, payouts):
    assert game_payouts(list(game_scores)) == payouts


def test_raw_payouts_settle_game_scores_pairwise():
    assert game_payouts([10, 20, 30], "raw") == [-30, 0, 30]


@given(st.integers(3, 39), st.sampled_from([0, 1, 2]))
def test_a_seat_that_wins_all_three_tricks_loses_the_round(total, seat):
    scores = [0, 0, 0]
    scores[seat] = total
    assert round_banked(scores)[seat] == 0


def test_a_round_played_through_the_engine():
    deal = arranged(["3S", "8H", "5C"], ["7C", "KH", "4C"], ["7H", "8D", "4D"])
    m = start_match("saichugen", deals=[deal])
    commits = [("3S", "7C", "7H"), ("8H", "KH", "8D"), ("5C", "4C", "4D")]
    reveals = []
    for trick in commits:
        for seat in (2, 0, 1):  # any order
            events = m.apply(seat, {"act": "commit", "card": trick[seat]})
        reveals += [e for e in events if e["event"] == "reveal"]
    assert [(r["card"], r["winner"], r["value"]) for r in reveals] == [
        ("7C", 1, 7),
        ("8H", 0, 8),
        ("4D", 2, 4),
    ]
    v = m.view(0)
    assert v["rounds"] == [{"scores": [8, 7, 4], "banked": [0, 7, 0]}]
    assert v["game_scores"] == [0, 7, 0]
    assert m.result()["deals"] == [{"dealer": 0, "scores": [0, 7, 0], "payouts": [0, 0, 0]}]


def test_a_seat_that_takes_every_trick_of_a_round_banks_nothing():
    # seat 1 holds the middle card each time
    deal = arranged(["2C", "3C", "4C"], ["6C", "7C", "8C"], ["KS", "QS", "JS"])
    m = start_match("saichugen", deals=[deal])
    for a, b, c in zip(["2C", "3C", "4C"], ["6C", "7C", "8C"], ["KS", "QS", "JS"]):
        m.apply(0, {"act": "commit", "card": a})
        m.apply(1, {"act": "commit", "card": b})
        m.apply(2, {"act": "commit", "card": c})
    assert m.view(None)["rounds"] == [{"scores": [0, 21, 0], "banked": [0, 0, 0]}]


def test_everyone_commits_at_once_and_nobody_sees_a_commit_before_the_reveal():
    m = start_match("saichugen", seed=3)
    assert m.to_act() == [0, 1, 2]
    card = m.legal(1)[0]["card"]
    events = m.apply(1, {"act": "commit", "card": card})
    assert m.to_act() == [0, 2]
    assert m.legal(1) == []
    for seat in (0, 2, None):
        assert card not in str(visible(events, seat))
        view = m.view(seat)
        assert view["committed"] == [False, True, False]
        assert card not in str({k: v for k, v in view.items() if k != "last_deal"})
    assert m.view(1)["my_commit"] == card
    assert "my_commit" not in m.view(None)
    with pytest.raises(IllegalAction, match="already committed a card to this trick"):
        m.apply(1, {"act": "commit", "card": m.view(1)["hand"][0]})


def test_the_unused_card_and_leftovers_stay_hidden_until_the_game_is_over():
    m = start_match("saichugen", seed=9, n_deals=2)
    unused = FRENCH52.code(m.stock[0])
    while m.deal_no == 0:
        for seat in m.to_act():
            m.apply(seat, m.legal(seat)[0])
            assert unused not in str(m.view(seat)) or m.deal_no == 1
    last = m.view(0)["last_deal"]
    assert last["stock"] == [unused]
    assert all(len(h) == 17 for h in last["hands"])


def test_commit_errors_are_clear():
    m = start_match("saichugen", seed=1)
    hand1 = m.view(1)["hand"]
    with pytest.raises(IllegalAction, match=f"you do not hold {hand1[0]}"):
        m.apply(0, {"act": "commit", "card": hand1[0]})
    with pytest.raises(IllegalAction, match="unknown card 'XX'"):
        m.apply(0, {"act": "commit", "card": "XX"})
    with pytest.raises(IllegalAction, match="'play' is not a move in Saichugen"):
        m.apply(0, {"act": "play", "card": m.view(0)["hand"][0]})
    with pytest.raises(IllegalAction, match="signals are not used"):
        m.apply(0, {"act": "commit", "card": m.view(0)["hand"][0], "signal": "volo"})


@given(st.lists(st.integers(0, 40), min_size=3, max_size=3))
def test_round_banked_keeps_exactly_the_median_scores(scores):
    m = sorted(scores)[1]
    assert round_banked(scores) == [r if r == m else 0 for r in scores]
