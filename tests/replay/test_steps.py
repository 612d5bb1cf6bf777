"""The replay steps of whole matches, computed from the record alone (`games.core.replay`).

Pure: matches played by random legal moves, several seeds and lengths, every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import RecordError, registry
from games.core import replay
from games.core.bots.common import random_action
from games.core.records import score_record

GAMES = [g.name for g in registry.games()]


def played(game: str, n_deals: int, seed: int) -> dict[str, Any]:
    """The record of a whole match of random legal moves."""
    seats = registry.get_game(game).seats
    match = registry.start_match(
        game, n_deals=n_deals, seed=seed, dealer=seed % seats, players=list("abcd")[:seats]
    )
    rng = random.Random(seed)
    while not match.finished:
        seat = match.to_act()[0]
        match.apply(seat, random_action(match.legal(seat), rng))
    return match.export()


def actions_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for d in record["deals"] for a in d["actions"]]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_steps_of_a_whole_match_end_at_its_score(game, seed):
    record = played(game, n_deals=3, seed=seed)
    deals = replay.replay_steps(record, n_deals=3)
    steps = [s for d in deals for s in d["steps"]]

    # One step per action, the record's own, in its order.
    assert [s["action"] for s in steps] == actions_of(record)
    # The last step's score is the record's.
    scored = score_record(record, n_deals=3)
    assert steps[-1]["score"] == scored["totals"]
    assert steps[-1]["view"]["finished"] is True
    assert steps[-1]["view"]["winners"] == scored["winners"]
    for k, (deal, dealt) in enumerate(zip(deals, record["deals"], strict=True)):
        # Every hand as dealt at a deal's start; the record's stock beside them.
        start = deal["start"]["view"]
        assert [sorted(h) for h in start["hands"]] == [sorted(h) for h in dealt["hands"]]
        assert deal["hands"] == dealt["hands"] and deal["stock"] == dealt["stock"]
        assert deal["dealer"] == scored["deals"][k]["dealer"]
        # The deal's results before it and after it.
        assert deal["results"] == scored["deals"][:k]
        assert deal["results_after"] == scored["deals"][: k + 1]
        # The deal's last step shows it ended, with its score, not the next deal dealt.
        last = deal["steps"][-1]
        assert last["deal_over"] is True
        assert last["view"]["deal"] == k
        assert last["view"]["phase"] == "over"
        assert [d["deal_over"] for d in deal["steps"][:-1]] == [False] * (len(deal["steps"]) - 1)
        assert last["view"]["totals"] == [
            sum(d["payouts"][s] for d in scored["deals"][: k + 1])
            for s in range(len(dealt["hands"]))
        ]


@pytest.mark.parametrize("game", GAMES)
def test_every_hand_of_every_step_is_what_that_seat_held(game):
    """The full view's hands are each seat's own view of its hand, step after step, and the
    spectator's view is all in it (nothing public lost, no secret of a seat's view missing)."""
    record = played(game, n_deals=2, seed=5)
    match = registry.start_match(
        game,
        n_deals=2,
        dealer=record["dealer"],
        deals=record["deals"],
        players=record["players"],
    )
    deals = replay.replay_steps(record, n_deals=2)
    for deal, dealt in zip(deals, record["deals"], strict=True):
        for step, action in zip(deal["steps"], dealt["actions"], strict=True):
            match.apply(action["seat"], action)
            if step["deal_over"]:
                continue  # the deal as it ended: the match itself has dealt the next one
            view = step["view"]
            assert view["hands"] == [match.view(s)["hand"] for s in range(match.SEATS)]
            spectator = match.view(None)
            for key, value in spectator.items():
                if key in ("last_deal", "results"):
                    assert key not in view  # given once per deal, not once per step
                else:
                    assert key in view
                    assert value is None or type(view[key]) is type(value)
            assert len(view["private"]) == match.SEATS


def test_the_full_view_fills_in_what_only_one_seat_may_know():
    """3-5-8: the dealer's kitty and discards, hidden from the spectator, are in the full view."""
    record = played("three_five_eight", n_deals=1, seed=3)
    (deal,) = replay.replay_steps(record, n_deals=1)
    playing = next(s for s in deal["steps"] if s["view"]["phase"] == "play")
    assert playing["view"]["kitty"]["cards"] is not None
    assert (
        playing["view"]["discards"]["cards"] is not None
        and len(playing["view"]["discards"]["cards"]) == playing["view"]["discards"]["count"]
    )


def test_saichugen_commits_are_shown_in_the_full_view():
    record = played("saichugen", n_deals=1, seed=1)
    (deal,) = replay.replay_steps(record, n_deals=1)
    first = deal["steps"][0]
    seat = first["action"]["seat"]
    assert first["view"]["private"][seat]["my_commit"] == first["action"]["card"]
    assert all(
        p.get("my_commit") is None for s, p in enumerate(first["view"]["private"]) if s != seat
    )


@pytest.mark.parametrize("game", GAMES)
def test_one_deal_alone_is_that_deal_of_the_whole_replay(game):
    record = played(game, n_deals=3, seed=7)
    every = replay.replay_steps(record, n_deals=3)
    for k in range(len(record["deals"])):
        assert replay.deal_steps(record, k, n_deals=3) == every[k]
    summary = replay.replay_summary(record, n_deals=3, deal=1)
    assert summary["steps"] == every[1]
    assert summary["actions"] == len(actions_of(record))
    assert [d["actions"] for d in summary["deals"]] == [len(d["actions"]) for d in record["deals"]]
    assert summary["result"] == score_record(record, n_deals=3)


def test_a_deal_the_record_does_not_have_is_an_index_error():
    record = played("schieberamsch", n_deals=1, seed=1)
    for k in (1, -1, True, "0"):
        with pytest.raises(IndexError):
            replay.deal_steps(record, k)  # type: ignore[arg-type]


def test_a_bad_record_is_a_record_error():
    record = played("schieberamsch", n_deals=1, seed=1)
    record["deals"][0]["actions"][3]["card"] = "ZZ"
    for replayed in (
        lambda: replay.replay_summary(record, deal=0),
        lambda: replay.deal_steps(record, 0),
        lambda: replay.replay_steps(record),
    ):
        with pytest.raises(RecordError, match=r"deal 0, action 3"):
            replayed()


def test_one_deal_is_checked_as_strictly_as_the_whole_record():
    """A deal replayed alone: an action after its end, or not an action, is a `RecordError`
    (never an action applied to a deal the record does not hold)."""
    record = played("mediatore", n_deals=2, seed=2)
    first, second = record["deals"]
    record["deals"][0] = {**first, "actions": [*first["actions"], second["actions"][0]]}
    with pytest.raises(RecordError, match="the deal is over"):
        replay.deal_steps(record, 0, n_deals=2)
    record["deals"][0] = {**first, "actions": [*first["actions"][:3], "pass"]}
    with pytest.raises(RecordError, match="an action must be a JSON object"):
        replay.deal_steps(record, 0, n_deals=2)
    record["deals"][0] = first
    record["deals"][1] = {**second, "hands": second["hands"][:3]}
    with pytest.raises(RecordError, match="deal 1: wrong deck"):
        replay.deal_steps(record, 1, n_deals=2)
    with pytest.raises(RecordError, match="record: "):
        replay.deal_steps({"format": "mediana.record/1", "game": "mediatore"}, 0)


def test_labels_say_what_was_done_with_which_cards():
    text, params = replay.action_label({"seat": 2, "act": "play", "card": "7H"})
    assert replay.label_parts(text, params) == [
        {"seat": 2},
        {"text": " plays "},
        {"cards": ["7H"]},
    ]
    text, params = replay.action_label({"seat": 1, "act": "give", "to": 0, "cards": ["2C", "AS"]})
    assert replay.label_parts(text, params) == [
        {"seat": 1},
        {"text": " gives "},
        {"cards": ["2C", "AS"]},
        {"text": " to "},
        {"seat": 0},
    ]
    text, params = replay.action_label({"seat": 0, "act": "bid", "contract": "solissimo"})
    assert replay.label_parts(text, params)[-1] == {"text": "Solissimo"}
    text, params = replay.action_label({"seat": 0, "act": "trump", "suit": "H"})
    assert {"suit": "H"} in replay.label_parts(text, params)
    text, params = replay.action_label({"seat": 3, "act": "play", "card": "3d", "signal": "busso"})
    assert replay.label_parts(text, params)[-1] == {"text": "busso"}
    # A translation may put the placeholders in another order, or drop one.
    assert replay.label_parts("%(card)s: %(who)s", params) == [
        {"cards": ["3d"]},
        {"text": ": "},
        {"seat": 3},
    ]
    # An act this code does not know still reads.
    text, params = replay.action_label({"seat": 0, "act": "shuffle"})
    assert replay.label_parts(text, params) == [{"seat": 0}, {"text": ": "}, {"text": "shuffle"}]


def test_every_act_of_the_records_spec_has_its_own_label():
    acts = ["play", "commit", "pass", "bid", "call", "discard", "exchange", "give", "trump"]
    acts += ["grand_hand", "pickup", "push", "kontra", "re"]
    for act in acts:
        text, _ = replay.action_label({"seat": 0, "act": act})
        assert text != replay.LABELS[""], act
