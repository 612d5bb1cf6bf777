"""What a person reads of an analysis: each game's payout unit with its plural, one number
format, the better decision as a proposal, the double-dummy line that says what it is."""

from __future__ import annotations

import pytest
from django.utils import translation

from gameplay.services import analysis
from games.core import replay


@pytest.mark.parametrize(
    ("lang", "game", "x", "text"),
    [
        ("en", "three_five_eight", 1, "1 trick"),
        ("en", "three_five_eight", 0.55, "0.55 tricks"),
        ("en", "schieberamsch", 21.2, "21.2 points"),
        ("en", "schieberamsch", 1.0, "1 point"),
        ("en", "saichugen", 0.15, "0.15 payout points"),
        ("de", "schieberamsch", 1, "1 Punkt"),
        ("de", "mediatore", 2.5, "2,5 Punkte"),
        ("it", "mediatore", 1, "1 punto"),
        ("it", "three_five_eight", 0.55, "0,55 prese"),
        ("ja", "three_five_eight", 1, "1トリック"),
    ],
)
def test_a_cost_in_the_games_unit_with_its_plural(lang, game, x, text):
    with translation.override(lang):
        assert analysis.amount(game, x) == text


@pytest.mark.parametrize(
    ("lang", "past", "proposal"),
    [("ja", "を出しました", "を出す"), ("de", "spielt", "spielen"), ("it", "gioca", "giocare")],
)
def test_the_better_decision_reads_as_a_proposal(lang, past, proposal):
    entry = {"best": {"act": "play", "card": "S9"}, "seat": 0}
    with translation.override(lang):
        text = "".join(p.get("text", "") for p in analysis._best_label(entry))
    assert proposal in text and past not in text.replace(proposal, "")
    assert set(replay.PROPOSALS) == set(replay.LABELS)  # every act has its proposal


def result(dd=None):
    """A stored result of one person in one deal of Schieberamsch: one blunder, one good move."""
    entries = [
        {
            "deal": 0,
            "index": 3,
            "seat": 0,
            "best": {"act": "play", "card": "S9"},
            "loss": 21.2,
            "gap": 21.2,
            "mark": "blunder",
            "dd_loss": None,
        },
        {
            "deal": 0,
            "index": 6,
            "seat": 0,
            "best": {"act": "play", "card": "D8"},
            "loss": 0.0,
            "gap": 3.4,
            "mark": None,
            "dd_loss": None,
        },
    ]
    marks = {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    seat = {"loss": 21.2, "marks": marks, "decisions": 2, "dd": dd, "payout": -74}
    return {
        "version": 2,
        "game": "schieberamsch",
        "double_dummy": True,
        "decisions": entries,
        "deals": [{"deal": 0, "seats": {"0": seat}}],
        "players": {"0": {"loss": 21.2, "marks": marks, "decisions": 2, "accuracy": 50.0}},
    }


def test_the_totals_the_accuracy_and_the_double_dummy_line_as_read():
    dd = {"best": -160.0, "made": -74.0, "tricks": 6, "from_trick": 5}
    with translation.override("en"):
        out = analysis._texts(result(dd))
    blunder, good = out["decisions"]
    assert blunder["cost_text"] == "costs 21.2 points on average"
    assert "cost_text" not in good  # as good as the best: no cost shown, none counted
    player = out["players"]["0"]
    assert player["accuracy_text"] == "50.0 %"  # one decimal, as on the player page
    assert player["text"].startswith("Whole match, %(who)s: accuracy 50.0 %")
    assert player["text"].endswith("together they cost 21.2 points")
    deal = out["deals"][0]["seats"]["0"]
    assert deal["loss_text"].startswith("This deal, %(who)s: ?! 0 · ? 0 · ?? 1")
    assert (
        "from trick 5" in deal["dd_text"] and "against all the others together" in deal["dd_text"]
    )
    assert "-160 points" in deal["dd_text"] and "made: -74 points" in deal["dd_text"]
    # A deal the solver could not reach says so briefly, not a confusing figure.
    with translation.override("de"):
        missing = analysis._texts(result(None))["deals"][0]["seats"]["0"]["dd_text"]
        assert missing.startswith("Mit offenen Karten: für dieses Spiel nicht berechnet")
        assert analysis._texts(result(dd))["players"]["0"]["accuracy_text"] == "50,0 %"


def test_a_seat_with_a_partner_reads_its_sides_double_dummy_line():
    """A Grand Hand's defender (or Mediatore's partners): the side's best against the other
    side, not "against all the others together"."""
    dd = {"best": 30.0, "made": 40.0, "tricks": 6, "from_trick": 5, "partners": True}
    with translation.override("en"):
        line = analysis._texts(result(dd))["deals"][0]["seats"]["0"]["dd_text"]
    assert "and their partner" in line and "against the other side" in line
    assert "all the others together" not in line
    with translation.override("it"):
        line = analysis._texts(result(dd))["deals"][0]["seats"]["0"]["dd_text"]
    assert "il compagno" in line
