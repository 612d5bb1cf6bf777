"""The pure evaluator (games/analysis.py): marks by expected payout lost, per game's scale."""

from __future__ import annotations

import pytest

from games import analysis
from tests.analysis.blunders import played, with_choice

ITERATIONS = 8
FEWER = {"saichugen": 3}  # its evaluator models the others' choices: dearer per world


def test_thresholds_scale_with_the_game():
    assert analysis.classify("schieberamsch", 0.0) is None
    assert analysis.classify("schieberamsch", 3.9) is None
    assert analysis.classify("schieberamsch", 4.0) == "inaccuracy"
    assert analysis.classify("schieberamsch", 10.0) == "mistake"
    assert analysis.classify("schieberamsch", 20.0) == "blunder"
    # The same loss is nothing in one game and a blunder in another.
    assert analysis.classify("saichugen", 0.65) == "blunder"
    assert analysis.classify("schieberamsch", 0.65) is None


@pytest.mark.parametrize(
    "game",
    [
        "schieberamsch",
        "mediatore",
        "three_five_eight",
        pytest.param("saichugen", marks=pytest.mark.slow),
    ],
)
def test_a_deliberate_blunder_is_a_blunder_and_the_best_move_is_not_marked(game):
    iterations = FEWER.get(game, ITERATIONS)
    blunder = with_choice(game, seed=11, seat=0, iterations=iterations, pick="worst")
    assert blunder is not None, "no decision with a blunder to make in this deal"
    record, j = blunder
    entry = analysis.judge(record, 0, j, iterations=iterations, seed="t")
    assert entry["mark"] == "blunder"
    assert entry["loss"] >= analysis.scale(game) * 0.5
    assert analysis.key(entry["best"]) != analysis.key(entry["taken"])
    good, j2 = with_choice(game, seed=11, seat=0, iterations=iterations, pick="best")
    assert j2 == j
    entry = analysis.judge(good, 0, j, iterations=iterations, seed="t")
    assert entry["mark"] is None and entry["loss"] == 0


def test_the_whole_record_per_seat_and_deal():
    record = played("schieberamsch", 4)
    result = analysis.analyse(record, [0], iterations=4, seed="x")
    assert result["game"] == "schieberamsch" and set(result["players"]) == {"0"}
    judged = result["decisions"]
    assert judged and {e["seat"] for e in judged} == {0}
    assert all(e["candidates"] >= 2 for e in judged)  # forced moves are not judged
    me = result["players"]["0"]
    marked = sum(me["marks"].values())
    assert me["accuracy"] == round(100 * (len(judged) - marked) / len(judged), 1)
    assert (
        result["deals"][0]["seats"]["0"]["payout"]
        == analysis.replay_record(record).results[0]["payouts"][0]
    )
    # Deterministic: the same seed, the same judgement.
    assert analysis.analyse(record, [0], iterations=4, seed="x") == result


def test_the_double_dummy_part_is_there_only_late_in_the_play():
    record = played("three_five_eight", 2)
    result = analysis.analyse(record, [1], iterations=2)
    assert result["double_dummy"] is True
    cards = [e for e in result["decisions"] if e["taken"].get("act") == "play"]
    assert all(e["dd_loss"] is None for e in result["decisions"] if e not in cards)
    assert any(e["dd_loss"] is not None for e in cards)  # the last tricks are solved


class FakeSolver:
    """What `games.core.solver` offers, with known values: in the play from the last card on,
    the first legal card worth 2, every other 0; the deal worth 5 from there."""

    class Rules:
        def in_play(self, match):
            return True

        def cards_left(self, match):
            return max(len(h) for h in match.hands)

        def allies(self, match, seat):
            return frozenset((seat,))

    def game_solver(self, match):
        return self.Rules()

    def action_values(self, match, seat, max_nodes=None):
        legal = [dict(e) for e in match.legal(seat)]
        return [(a, 2.0 if i == 0 else 0.0) for i, a in enumerate(legal)]

    def solve(self, match, seat, max_nodes=None):
        return 5.0


def test_the_double_dummy_part_is_read_in_one_place(monkeypatch):
    monkeypatch.setattr(analysis, "_solver", FakeSolver)
    record = played("schieberamsch", 4)
    result = analysis.analyse(record, [0], iterations=2, seed="x")
    assert result["double_dummy"] is True
    late = [e for e in result["decisions"] if e["dd_loss"] is not None]
    assert late  # the cards played with few enough left
    for entry in late:
        assert entry["dd_loss"] in (0.0, 2.0)
    made = result["deals"][0]["seats"]["0"]["payout"]
    assert result["deals"][0]["seats"]["0"]["dd"] == {
        "best": 5.0,
        "made": float(made),
        "tricks": analysis.DD_CARDS,
        "from_trick": 10 - analysis.DD_CARDS + 1,  # the last 6 of Schieberamsch's 10 tricks
        "partners": False,
    }


def test_only_the_decisions_a_person_made_and_had_a_choice_in():
    record = played("schieberamsch", 4)
    actions = record["deals"][0]["actions"]
    seat = actions[0]["seat"]
    everything = analysis.decisions(record, [seat])
    assert analysis.decisions(record, [seat], made=[]) == []
    assert analysis.decisions(record, [seat], made=[0]) == [(0, 0, seat)]
    assert analysis.choices(record, [seat], [0]) == 1  # Grand Hand or not: a choice
    # A hand's last card is forced: nothing to analyse.
    last = len(actions) - 1
    assert analysis.choices(record, [actions[last]["seat"]], [last]) == 0
    assert analysis.choices(record, [seat], []) == 0
    assert 0 < analysis.choices(record, [seat]) < len(everything)


def test_an_unmarked_decision_costs_nothing_and_the_totals_add_up_the_marks():
    record = played("schieberamsch", 4)
    result = analysis.analyse(record, [0, 1, 2], iterations=4, seed="x")
    entries = result["decisions"]
    assert entries
    for entry in entries:
        assert entry["gap"] >= 0
        if entry["mark"] is None:
            assert entry["loss"] == 0.0  # as good as the best, within the search's noise
        else:
            assert entry["loss"] == pytest.approx(entry["gap"], abs=0.006) and entry["loss"] > 0
            assert entry["loss"] == round(entry["loss"], 2)  # in hundredths, as shown
    for seat, player in result["players"].items():
        mine = [e for e in entries if str(e["seat"]) == seat]
        marked = [e for e in mine if e["mark"]]
        assert player["loss"] == pytest.approx(sum(e["loss"] for e in marked), abs=1e-6)
        free = sum(1 for e in mine if e["loss"] == 0)
        assert player["accuracy"] == round(100 * free / len(mine), 1)
        deal = result["deals"][0]["seats"][seat]
        assert deal["loss"] == pytest.approx(player["loss"], abs=1e-6)


def test_a_stored_first_version_result_reads_as_this_one():
    old = {
        "version": 1,
        "decisions": [
            {"deal": 0, "index": 1, "seat": 0, "loss": 3.4, "mark": None},
            {"deal": 0, "index": 4, "seat": 0, "loss": 21.2, "mark": "blunder"},
        ],
        "deals": [{"deal": 0, "seats": {"0": {"loss": 24.6, "marks": {}}}}],
        "players": {"0": {"loss": 24.6, "accuracy": 50.0}},
    }
    new = analysis.upgrade(old)
    assert [e["loss"] for e in new["decisions"]] == [0.0, 21.2]
    assert new["decisions"][0]["gap"] == 3.4
    assert new["deals"][0]["seats"]["0"]["loss"] == 21.2
    assert new["players"]["0"]["loss"] == 21.2 and new["version"] == analysis.VERSION


def test_a_second_version_result_adds_up_the_costs_it_shows():
    """Costs of 0.254 and 0.404 are shown as 0.25 and 0.40: the total shown is 0.65."""
    old = {
        "version": 2,
        "decisions": [
            {"deal": 0, "index": 1, "seat": 0, "loss": 0.254, "gap": 0.254, "mark": "mistake"},
            {"deal": 0, "index": 4, "seat": 0, "loss": 0.404, "gap": 0.404, "mark": "mistake"},
        ],
        "deals": [{"deal": 0, "seats": {"0": {"loss": 0.658, "marks": {}}}}],
        "players": {"0": {"loss": 0.658, "accuracy": 0.0}},
    }
    new = analysis.upgrade(old)
    assert [e["loss"] for e in new["decisions"]] == [0.25, 0.4]
    assert new["players"]["0"]["loss"] == new["deals"][0]["seats"]["0"]["loss"] == 0.65


@pytest.mark.parametrize("game", ["saichugen", "three_five_eight"])
def test_the_double_dummy_line_names_the_trick_it_starts_from(game):
    record = played(game, 3)
    found = analysis.double_dummy(record, [], [0])  # no crash on a game's own trick state
    assert found, "every deal's end is within the solver's reach: a figure, not 'not worked out'"
    for seats in found.values():
        for line in seats.values():
            assert line["from_trick"] >= 1 and line["tricks"] <= analysis.DD_CARDS
    if game == "three_five_eight":
        assert found[0][0]["from_trick"] == 16 - found[0][0]["tricks"] + 1  # 16 tricks a deal
