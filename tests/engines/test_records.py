"""Game records: parsing, replay, scoring, export, the exact error lines, and ``score_record``."""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games import IllegalAction, RecordError, start_match
from games.core.bots.common import expand_random
from games.core.records import replay_record, score_record, score_record_text

from .helpers import play_out

ROOT = Path(__file__).resolve().parents[2]


def finished_record(game="three_five_eight", seed=7, n_deals=2, **kw) -> dict:
    m = start_match(game, seed=seed, n_deals=n_deals, **kw)
    play_out(m, random.Random(seed))
    return m.export()


def error_of(record) -> str:
    with pytest.raises(RecordError) as e:
        score_record(record)
    return str(e.value)


# ---------------------------------------------------------------- scoring


def test_a_record_scores_like_the_match_it_came_from():
    m = start_match("three_five_eight", seed=7, n_deals=2, players=["ana", "ben", "cleo"])
    play_out(m, random.Random(1))
    record = m.export()
    assert record["players"] == ["ana", "ben", "cleo"]
    result = score_record(record)
    assert result == m.result()
    assert set(result) == {"game", "complete", "deals", "totals", "winners"}
    assert result["game"] == "three_five_eight"
    assert result["complete"] is True
    assert [set(d) for d in result["deals"]] == [{"dealer", "scores", "payouts"}] * len(
        result["deals"]
    )


def test_export_round_trips_identically_and_omits_what_was_not_given():
    record = finished_record("saichugen", n_deals=2)
    assert "variant" not in record
    assert "players" not in record
    assert replay_record(record).export() == record
    record = finished_record("three_five_eight", variant={"targets": "9-5-2"})
    assert record["variant"] == {"targets": "9-5-2"}
    assert replay_record(json.loads(json.dumps(record))).export() == record


def test_an_unfinished_record_is_incomplete_with_settled_scores():
    record = finished_record("three_five_eight", n_deals=1)
    record["deals"][0]["actions"] = record["deals"][0]["actions"][: 2 + 3 * 5]  # 5 tricks
    result = score_record(record)
    assert result["complete"] is False
    assert result["winners"] == []
    assert sum(result["deals"][0]["scores"]) == 5
    assert result["deals"][0]["payouts"] == [0, 0, 0]


def test_a_saichugen_record_scores_banked_rounds_only_when_unfinished():
    record = finished_record("saichugen", n_deals=1)
    full = score_record(record)
    assert full["complete"]
    assert sum(full["deals"][0]["payouts"]) == 0
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:10]  # 3 tricks + 1 commit
    part = score_record(record)
    assert part["deals"][0]["payouts"] == [0, 0, 0]
    view = replay_record(record).view(None)
    assert len(view["rounds"]) == 1
    assert part["deals"][0]["scores"] == view["rounds"][0]["banked"] == view["game_scores"]


def test_actions_may_be_omitted_and_unknown_action_fields_are_ignored():
    record = finished_record("saichugen", n_deals=1)
    for a in record["deals"][0]["actions"]:
        a["comment"] = "thinking"
    assert score_record(record)["complete"] is True
    del record["deals"][0]["actions"]
    assert score_record(record)["complete"] is False


# ---------------------------------------------------------------- error lines


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda r: r.update(format="mediana.record/2"), "record: format must be"),
        (lambda r: r.update(game="chess"), "record: unknown game 'chess'"),
        (lambda r: r.update(variant={"x": 1}), "record: unknown variant flag 'x'"),
        (
            lambda r: r.update(variant={"woburn_bidding": 1}),
            "record: variant flag 'woburn_bidding' must be true or false",
        ),
        (
            lambda r: r.update(variant={"win_tricks": 9}),
            "record: variant flag 'win_tricks' must be from 10 to 16, not 9",
        ),
        (
            lambda r: r.update(variant={"targets": "7-5-4"}),
            "record: variant flag 'targets' must be one of",
        ),
        (
            lambda r: r.update(variant={"woburn_bidding": True, "targets": "6-3-8"}),
            "record: woburn_bidding cannot be combined with targets 6-3-8",
        ),
        (lambda r: r.pop("dealer"), "record: dealer is required"),
        (lambda r: r.update(dealer=3), "record: dealer must be a seat from 0 to 2, not 3"),
        (lambda r: r.update(dealer=True), "record: dealer must be a seat"),
        (lambda r: r.update(players=["a"]), "record: players must be a list of 3 names"),
        (lambda r: r.update(deals=[]), "record: deals must be a non-empty list"),
        (lambda r: r.update(variant=[]), "record: variant must be an object"),
    ],
)
def test_whole_record_errors_name_neither_deal_nor_action(change, line):
    record = finished_record()
    change(record)
    assert error_of(record).startswith(line)


def test_malformed_json():
    with pytest.raises(RecordError, match=r"^record: malformed JSON: "):
        score_record_text("{nope")
    with pytest.raises(RecordError, match=r"^record: a record must be a JSON object$"):
        score_record_text("[]")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["hands"][1].pop(), "seat 1 has 15 cards, expected 16"),
        (lambda d: d["stock"].append("ZZ"), "stock: 'ZZ' is not a card of the french52 deck"),
        (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "appears twice"),
        (lambda d: d["hands"].pop(), "hands must be a list of 3 hands"),
        (lambda d: d.update(stock="AS"), "stock must be a list of cards"),
    ],
)
def test_a_wrong_deck_names_only_its_deal(change, reason):
    record = finished_record()
    change(record["deals"][1])
    line = error_of(record)
    assert line.startswith("deal 1: wrong deck: ")
    assert reason in line


def test_six_three_eight_needs_the_51_card_deck():
    record = finished_record(variant={"targets": "6-3-8"})
    assert all("2C" not in h for d in record["deals"] for h in d["hands"])
    record["deals"][0]["stock"] = ["2C"]
    assert error_of(record) == "deal 0: wrong deck: stock: '2C' is not a card of the french51 deck"


def _find_follow_suit_violation(record):
    """Replace the first play where the seat could have broken suit by an off-suit card."""
    deal = copy.deepcopy(record)
    deal["deals"] = deal["deals"][:1]
    m = start_match("three_five_eight", deals=[record["deals"][0]])
    for j, action in enumerate(record["deals"][0]["actions"]):
        seat = action["seat"]
        if action["act"] == "play" and m.trick:
            legal = [a["card"] for a in m.legal(seat)]
            off = [c for c in m.view(seat)["hand"] if c not in legal]
            if off:
                led = m.deck_for(m.variant).code(m.trick[0])[1]
                return j, seat, off[0], led
        m.apply(seat, action)
    raise AssertionError("no follow-suit situation")


def test_an_illegal_action_names_deal_action_seat_and_reason():
    record = finished_record()
    j, seat, card, led = _find_follow_suit_violation(record)
    record["deals"][0]["actions"][j] = {"seat": seat, "act": "play", "card": card}
    assert (
        error_of(record) == f"deal 0, action {j} (seat {seat} play {card}): must follow suit {led}"
    )


def test_out_of_turn_wrong_phase_and_after_the_match():
    record = finished_record()
    first = record["deals"][0]["actions"][0]
    assert first == {"seat": 0, "act": "trump", "suit": first["suit"]}
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0] = {"seat": 2, "act": "trump", "suit": "H"}
    assert error_of(bad) == "deal 0, action 0 (seat 2 trump H): not your turn (waiting for seat 0)"
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0] = {"seat": 0, "act": "play", "card": "AS"}
    assert error_of(bad) == (
        "deal 0, action 0 (seat 0 play AS): wrong phase: the dealer names trump now"
    )
    bad = copy.deepcopy(record)
    bad["deals"][-1]["actions"].append({"seat": 1, "act": "play", "card": "AS"})
    n = len(bad["deals"][-1]["actions"]) - 1
    assert error_of(bad) == f"deal 1, action {n} (seat 1 play AS): the match is over"
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"].append({"seat": 0, "act": "trump", "suit": "S"})
    line = error_of(bad)
    assert line.startswith("deal 0, action ")
    assert line.endswith(": the deal is over")


def test_no_deal_may_follow_a_twelve_trick_hand():
    spades = [r + "S" for r in "AKQJT98765432"]
    rest = [c for c in start_match("saichugen").deck_for({}).code_of if c not in spades]
    hands = [[*spades, "AH", "KH", "QH"], rest[3:19], rest[19:35]]
    deal = {"hands": hands, "stock": rest[35:]}
    m = start_match("three_five_eight", n_deals=3, deals=[deal])
    m.apply(0, {"act": "trump", "suit": "S"})
    m.apply(0, {"act": "discard", "cards": ["2S", "AH", "KH", "QH"]})  # 12 trumps stay
    play_out(m, random.Random(2))
    record = m.export()
    assert len(record["deals"]) == 1
    assert m.winners == [0]
    record["deals"].append(copy.deepcopy(record["deals"][0]))
    first = record["deals"][1]["actions"][0]
    assert error_of(record) == (
        f"deal 1, action 0 (seat {first['seat']} trump {first['suit']}): the match is over"
    )
    record["deals"][1]["actions"] = []
    assert error_of(record) == "deal 1: the match is over"


def test_an_unfinished_deal_may_only_be_the_last():
    record = finished_record()
    record["deals"][0]["actions"].pop()
    assert error_of(record) == "deal 0: the deal is unfinished but another deal follows"


def test_bad_actions_in_records():
    record = finished_record("saichugen", n_deals=1)
    actions = record["deals"][0]["actions"]
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"].insert(1, dict(actions[0]))
    seat, card = actions[0]["seat"], actions[0]["card"]
    assert error_of(bad) == (
        f"deal 0, action 1 (seat {seat} commit {card}): "
        "you have already committed a card to this trick"
    )
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0] = "commit"
    assert error_of(bad) == "deal 0, action 0: an action must be a JSON object"
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0] = {"seat": 7, "act": "commit", "card": card}
    assert error_of(bad) == f"deal 0, action 0 (seat 7 commit {card}): no such seat 7"
    bad = copy.deepcopy(record)
    bad["deals"][0]["actions"][0]["signal"] = "volo"
    assert error_of(bad).endswith("signals are not used in this game")


# ---------------------------------------------------------------- the command


def test_score_record_command_prints_the_result(tmp_path):
    record = finished_record("saichugen", n_deals=2)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    call_command("score_record", str(path), stdout=out, stderr=err)
    assert json.loads(out.getvalue()) == score_record(record)
    assert err.getvalue() == ""


def test_score_record_command_rejects_an_illegal_record(tmp_path):
    record = finished_record()
    record["variant"] = {"x": True}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("score_record", str(path), stdout=out, stderr=err)
    assert exit_.value.code == 2
    assert out.getvalue() == ""
    assert err.getvalue() == "record: unknown variant flag 'x'\n"


def test_score_record_command_missing_file(tmp_path):
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("score_record", str(tmp_path / "none.json"), stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith("record: cannot read ")


def _run(stdin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SECRET_KEY": "x"}
    return subprocess.run(
        [sys.executable, "manage.py", "score_record", "-"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_score_record_as_a_process_reads_stdin_and_exits_2_on_an_illegal_record():
    record = finished_record()
    j, seat, card, led = _find_follow_suit_violation(record)
    record["deals"][0]["actions"][j] = {"seat": seat, "act": "play", "card": card}
    done = _run(json.dumps(record))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"deal 0, action {j} (seat {seat} play {card}): must follow suit {led}\n"
    )
    done = _run("not json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("record: malformed JSON")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("game", ["three_five_eight", "schieberamsch", "mediatore"])
def test_the_follow_suit_reason_is_the_same_in_every_game(game):
    # records.md's example reason, `must follow suit S`: the led card's suit and nothing more.
    rng = random.Random(5)
    seen = 0
    for seed in range(20):
        m = start_match(game, seed=seed)
        deck = m.deck_for(m.variant)
        while not m.finished and seen < 5:
            seat = m.to_act()[0]
            legal = m.legal(seat)
            plays = {a["card"] for a in legal if a.get("act") == "play"}
            led = deck.code_of[m.trick[0]] if plays and m.trick else None
            off = [c for c in m.view(seat)["hand"] if c not in plays]
            if led and off and led[0] != "J" and all(c[-1] == led[-1] for c in plays):
                with pytest.raises(IllegalAction) as caught:
                    m.apply(seat, {"act": "play", "card": off[0]})
                if not (game == "schieberamsch" and off[0][0] == "J"):
                    assert str(caught.value) == f"must follow suit {led[-1]}"
                    seen += 1
            m.apply(seat, expand_random(rng.choice(legal), rng))
    assert seen == 5


def test_a_signal_key_is_checked_even_when_null():
    # records.md: `signal` is checked wherever it appears; null is no signal value.
    m = start_match("mediatore", seed=1, variant={"signals": "lead_only"})
    seat = m.to_act()[0]
    with pytest.raises(IllegalAction, match="a signal goes only with the card"):
        m.apply(seat, {"act": "pass", "signal": None})


def test_a_byte_order_mark_before_the_json_is_accepted():
    record = finished_record()
    assert score_record_text("\ufeff" + json.dumps(record)) == score_record(record)
