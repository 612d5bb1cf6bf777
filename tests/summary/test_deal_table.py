"""A deal summary's `table` (per seat: tricks, card points, the skat / monte / last trick where
they went) agrees with the deal's own scores, for random deals of every game."""

from __future__ import annotations

import random

import pytest

from games import EngineFault, start_match
from games.schieberamsch.engine import SchieberamschMatch
from tests.engines.helpers import concrete, random_variant
from tests.engines.test_deal_summary import play_leaning_to_pass

SEEDS = range(12)


def summaries(game: str, seed: int) -> list[dict]:
    rng = random.Random(seed)
    m = start_match(game, variant=random_variant(game, rng), n_deals=2, seed=seed)
    play_leaning_to_pass(m, rng, rng.random())
    return [m.deal_summary(k) for k in range(len(m.results))]


def rows(summary: dict) -> dict[str, list[int]]:
    table = {r["code"]: r["values"] for r in summary["table"]}
    for r in summary["table"]:
        assert isinstance(r["text"], str) and r["text"]
        assert len(r["values"]) == len(summary["scores"])
    return table


@pytest.mark.parametrize("seed", SEEDS)
def test_saichugen_tricks_and_the_values_won(seed):
    for s in summaries("saichugen", seed):
        t = rows(s)
        assert sum(t["tricks"]) == 15
        for seat in s["seats"]:
            rounds = [p["points"] for p in seat["score"]["parts"]]
            assert sum(rounds) == t["trick_values"][seat["seat"]]


@pytest.mark.parametrize("seed", SEEDS)
def test_three_five_eight_tricks_against_targets(seed):
    for s in summaries("three_five_eight", seed):
        t = rows(s)
        if s["kind"] == "thrown_in":
            assert t == {}
            continue
        assert t["tricks"] == s["scores"]
        assert [a - b for a, b in zip(t["tricks"], t["target"], strict=True)] == s["payouts"]


@pytest.mark.parametrize("seed", SEEDS)
def test_schieberamsch_card_points_count_the_skat_where_it_went(seed):
    for s in summaries("schieberamsch", seed):
        t = rows(s)
        assert sum(t["tricks"]) == 10
        assert sum(t["trick_points"]) + max(t["skat"]) == 120
        assert t["card_points"] == [
            a + b for a, b in zip(t["trick_points"], t["skat"], strict=True)
        ]
        skat = next(n for n in s["notes"] if n["code"] in ("skat_to", "declarer_points"))
        if skat["code"] == "skat_to":
            assert [i for i, v in enumerate(t["skat"]) if v] == (
                skat["seats"] if skat["points"] else []
            )
        for seat in s["seats"]:
            first = seat["score"]["parts"][0]
            if first["code"] == "trick_points":  # the seat that scores its card points
                assert first["points"] == t["trick_points"][seat["seat"]]
                assert first["tricks"] == t["tricks"][seat["seat"]]


@pytest.mark.parametrize("seed", SEEDS)
def test_mediatore_each_sides_thirds_make_its_score(seed):
    for s in summaries("mediatore", seed):
        t = rows(s)
        if s["kind"] == "thrown_in":
            assert t == {}
            continue
        assert sum(t["tricks"]) == 9
        assert sum(t["thirds"]) + sum(t["monte_last_trick"]) == 35
        assert [v // 3 for v in t["side_thirds"]] == s["scores"]


def test_a_failing_summary_never_stops_a_table(monkeypatch, caplog):
    """A bug in a game's `_summarize` is logged; the deal still ends and the next is dealt, the
    views simply carry no summary, and `deal_summary` says it could not be made."""

    def broken(self, scores, payouts):
        raise KeyError("a bug")

    monkeypatch.setattr(SchieberamschMatch, "_summarize", broken)
    m = start_match("schieberamsch", seed=3, n_deals=2)
    rng = random.Random(3)
    while not m.results:
        seat = m.to_act()[0]
        m.apply(seat, concrete(rng.choice(m.legal(seat)), rng))
    assert m.deal_no == 1 and not m.finished
    assert "summary" not in m.view(None)["last_deal"]
    with pytest.raises(EngineFault):
        m.deal_summary(0)
    assert "the deal summary failed" in caplog.text
