"""A three-player game at a table of four (../shared/rules/tables-of-four.md): the dealer sits
out, the roles pass to the three after him, the sitter scores 0, and records say who sat out.

The generic engine properties (zero-sum, no hidden card in any view, replay identity, the fast
path) run for tables of four in test_properties.py; these are the rules of the seating itself.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import IllegalAction, RecordError, VariantError, games, get_game, start_match
from games.bots import choose_action
from games.core.four import fold_view
from games.core.records import replay_record, score_record
from games.core.replay import replay_steps
from games.three_five_eight.engine import EXCHANGE

from .helpers import concrete, play_out, random_action

THREE_PLAYER = [g.name for g in games() if g.four is not None]
PROPS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def test_the_three_player_games_have_tables_of_four_and_mediatore_does_not():
    assert sorted(THREE_PLAYER) == ["saichugen", "schieberamsch", "three_five_eight"]
    assert get_game("mediatore").table_sizes == (4,)
    with pytest.raises(KeyError):
        start_match("mediatore", seats=3)
    for game in THREE_PLAYER:
        assert get_game(game).table_sizes == (3, 4)


@pytest.mark.parametrize("game", THREE_PLAYER)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_the_dealer_sits_out_never_acts_and_sees_what_a_spectator_sees(game, seed, dealer):
    m = start_match(game, seats=4, dealer=dealer, n_deals=4, seed=seed)
    rng = random.Random(seed)
    sat_out = []
    while not m.finished:
        s = m.sitter
        assert s == (dealer + m.deal_no) % 4
        if not sat_out or sat_out[-1] != (m.deal_no, s):
            sat_out.append((m.deal_no, s))
        assert s not in m.to_act()
        assert m.legal(s) == []
        assert m.view(s)["playing"] == [(s + 1) % 4, (s + 2) % 4, (s + 3) % 4]
        spectator, sitter = m.view(None), m.view(s)
        assert sitter["hand"] == []
        assert {**sitter, "seat": None, "hand": None} == {**spectator, "hand": None}
        before = m.dump()
        with pytest.raises(IllegalAction) as refused:
            m.apply(s, concrete(m.legal(m.to_act()[0])[0], rng))
        assert refused.value.reason == "sits_out"
        assert m.dump() == before, "a refused action changes nothing"
        m.apply(*random_action(m, rng))
    sitters = [s for _, s in sat_out]
    assert len(sat_out) == len(m.results)
    if len(m.results) == 4:
        assert sorted(sitters) == [0, 1, 2, 3], "over four deals each seat sits out once"
    for r in m.results:
        assert r["payouts"][r["dealer"]] == 0 and r["scores"][r["dealer"]] == 0
        assert sum(r["payouts"]) == 0


@pytest.mark.parametrize("game", THREE_PLAYER)
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_a_bot_decides_from_the_deal_as_its_three_players_see_it(game, seed):
    """fold_view is exactly the three-seat match's own view: a bot of the game needs no
    change, and its action is the table's."""
    m = start_match(game, seats=4, dealer=seed % 4, n_deals=8, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):
        if m.finished:
            break
        seat = m.to_act()[0]
        inner_seat = m.seating.inner(seat)
        assert fold_view(m.view(seat)) == m.inner.view(inner_seat)
        action = choose_action(game, m.view(seat), m.legal(seat), rng, "basic")
        m.apply(seat, action)


@pytest.mark.parametrize("game", THREE_PLAYER)
def test_a_record_says_who_sat_out_and_scores_like_the_table(game):
    m = start_match(game, seats=4, dealer=2, n_deals=8, seed=11, players=["a", "b", "c", "d"])
    play_out(m, random.Random(11))
    record = json.loads(json.dumps(m.export()))
    assert record["players"] == ["a", "b", "c", "d"]
    for k, deal in enumerate(record["deals"]):
        assert deal["sitter"] == (2 + k) % 4
        assert deal["hands"][deal["sitter"]] == []
        assert all(a["seat"] != deal["sitter"] for a in deal["actions"])
    scored = score_record(record)
    assert scored == m.result()
    for k, deal in enumerate(scored["deals"]):
        assert deal["sitter"] == deal["dealer"] == (2 + k) % 4
        assert deal["payouts"][deal["sitter"]] == 0
    assert replay_record(record).export() == record
    # the deal summary has an empty column for the sitter
    for k, deal in enumerate(scored["deals"]):
        summary = m.deal_summary(k)
        sitter = summary["seats"][deal["sitter"]]
        assert sitter["score"] == {"parts": [], "total": 0}
        assert [e["payout"]["total"] for e in summary["seats"]] == deal["payouts"]
        for row in summary["table"]:
            assert len(row["values"]) == 4 and row["values"][deal["sitter"]] is None
        # a line's figures are the game's own: the cards one seat won are not per seat
        for entry in summary["seats"]:
            for p in entry["score"]["parts"] + entry["payout"]["parts"]:
                assert None not in (p.get("cards") or [])


@pytest.mark.parametrize("game", THREE_PLAYER)
def test_a_record_with_the_wrong_sitter_or_cards_for_the_sitter_is_refused(game):
    whole = {"fixed_length": True} if game == "three_five_eight" else None  # all four deals
    m = start_match(game, seats=4, dealer=0, n_deals=4, seed=5, variant=whole)
    play_out(m, random.Random(5))
    record = m.export()
    wrong = json.loads(json.dumps(record))
    wrong["deals"][1]["sitter"] = 3
    with pytest.raises(RecordError, match=r"^deal 1: sitter must be seat 1"):
        score_record(wrong)
    missing = json.loads(json.dumps(record))
    del missing["deals"][2]["sitter"]
    with pytest.raises(RecordError, match=r"^deal 2: sitter must be seat 2"):
        score_record(missing)
    dealt = json.loads(json.dumps(record))
    deal = dealt["deals"][0]
    deal["hands"][0], deal["hands"][1] = deal["hands"][1], deal["hands"][0]
    with pytest.raises(RecordError, match=r"^deal 0: "):
        score_record(dealt)
    # a table of three's record is read as before (no sitter anywhere)
    three = start_match(game, n_deals=2, seed=5)
    play_out(three, random.Random(5))
    assert "sitter" not in json.dumps(three.export())
    assert score_record(three.export()) == three.result()


def test_schieberamsch_rearhand_is_the_third_after_the_sitter():
    m = start_match("schieberamsch", seats=4, dealer=1, n_deals=4, seed=3)
    view = m.view(None)
    assert view["sitter"] == 1 and view["dealer"] == 1
    assert view["forehand"] == 2
    assert m.to_act() == [2], "forehand is the first after the sitter"


def test_three_five_eight_targets_pass_to_the_seats_after_the_sitter():
    m = start_match("three_five_eight", seats=4, dealer=3, n_deals=4, seed=3)
    view = m.view(None)
    # sitter 3: the dealer's role (8) is seat 2's, the first after it (0) has 5, then 1 has 3
    assert view["targets"] == [5, 3, 8, 0]
    assert view["dealer"] == 2 and view["dealt_by"] == 3
    assert m.to_act() == [2], "the dealer's role names trumps"


def test_three_five_eight_woburn_bidding_is_refused_at_a_table_of_four():
    with pytest.raises(VariantError, match="Woburn"):
        start_match("three_five_eight", seats=4, variant={"woburn_bidding": True})


@given(seed=st.integers(0, 2**32 - 1))
@PROPS
def test_three_five_eight_exchange_settles_only_between_seats_that_play_both_hands(seed):
    m = start_match(
        "three_five_eight", seats=4, dealer=0, n_deals=8, seed=seed, variant={"fixed_length": True}
    )
    rng = random.Random(seed)
    while not m.finished:
        previous = m.results[-1] if m.results else None
        if previous is not None and m.inner.phase == EXCHANGE:
            old_sitter, new_sitter = previous["dealer"], m.sitter
            assert new_sitter == (old_sitter + 1) % 4
            both = set(range(4)) - {old_sitter, new_sitter}
            diff = previous["payouts"]
            for giver, to, count in (
                (p["from"], p["to"], p["count"]) for p in m.view(None)["exchange"]["pending"]
            ):
                assert {giver, to} <= both
                assert diff[giver] > 0 > diff[to], "an up player gives to a down player"
                assert count <= min(diff[giver], -diff[to])
        m.apply(*random_action(m, rng))
    assert m.view(None)["cum"] == [sum(r["payouts"][s] for r in m.results) for s in range(4)]


def test_saichugen_at_a_table_of_four_has_no_dealer_role_but_the_sitter_rotates():
    m = start_match("saichugen", seats=4, dealer=0, n_deals=4, seed=9)
    assert m.to_act() == [1, 2, 3]
    play_out(m, random.Random(9))
    assert [r["dealer"] for r in m.results] == [0, 1, 2, 3]


@pytest.mark.parametrize("game", THREE_PLAYER)
def test_the_replay_of_a_table_of_four_walks_each_deal_with_its_sitter(game):
    whole = {"fixed_length": True} if game == "three_five_eight" else None
    m = start_match(game, seats=4, dealer=1, n_deals=4, seed=2, variant=whole)
    play_out(m, random.Random(2))
    record = json.loads(json.dumps(m.export()))
    for k, deal in enumerate(replay_steps(record)):
        sitter = (1 + k) % 4
        assert deal["dealer"] == sitter
        assert len(deal["steps"]) == len(record["deals"][k]["actions"])
        start = deal["start"]["view"]
        assert start["sitter"] == sitter and start["hands"][sitter] == []
        assert all(step["action"]["seat"] != sitter for step in deal["steps"])
        assert deal["steps"][-1]["deal_over"]


def test_three_five_eight_summary_balance_is_the_tables_after_the_hand():
    m = start_match(
        "three_five_eight", seats=4, dealer=0, n_deals=8, seed=3, variant={"fixed_length": True}
    )
    play_out(m, random.Random(3))
    for k in range(len(m.results)):
        note = next(n for n in m.deal_summary(k)["notes"] if n["code"] == "balance")
        after = [sum(r["payouts"][s] for r in m.results[: k + 1]) for s in range(4)]
        assert note["balance"] == after
