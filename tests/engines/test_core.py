"""Cards, decks, variant validation and the registry."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games import VariantError, get_game, start_match
from games.core.cards import FRENCH32, FRENCH51, FRENCH52, ITALIAN40


@pytest.mark.parametrize(
    ("deck", "size", "codes"),
    [
        (FRENCH52, 52, ["AS", "TH", "2C"]),
        (FRENCH51, 51, ["AS", "3C"]),
        (FRENCH32, 32, ["JC", "AS", "7D", "TD"]),
        (ITALIAN40, 40, ["3s", "Cc", "Fb", "Ad", "4b"]),
    ],
)
def test_decks_and_card_codes(deck, size, codes):
    assert deck.size == len(set(deck.codes(deck.ids))) == size
    for code in codes:
        assert deck.code(deck.parse(code)) == code
    with pytest.raises(ValueError, match="unknown card 'ZZ'"):
        deck.parse("ZZ")


def test_french51_has_no_two_of_clubs():
    assert "2C" not in FRENCH51.id_of
    with pytest.raises(ValueError, match="unknown card '2C'"):
        FRENCH51.parse("2C")


def test_a_seeded_shuffle_is_reproducible():
    assert FRENCH52.shuffled(random.Random(5)) == FRENCH52.shuffled(random.Random(5))
    assert sorted(FRENCH52.shuffled(random.Random(5))) == FRENCH52.ids


def test_variant_validation():
    spec = get_game("three_five_eight")
    assert spec.validate_variant({"win_tricks": 10})["win_tricks"] == 10
    for bad, message in [
        ({"nope": 1}, "unknown variant flag 'nope'"),
        ({"win_tricks": 17}, "must be from 10 to 16"),
        ({"win_tricks": "12"}, "must be an integer"),
        ({"win_tricks": True}, "must be an integer"),
        ({"max_bleed": 1}, "must be true or false"),
        ({"kitty_mode": "both"}, "must be one of"),
        ("x", "variant must be an object"),
    ]:
        with pytest.raises(VariantError, match=message):
            spec.validate_variant(bad)


def test_the_variant_schema_is_complete():
    schema = {f["name"]: f for f in get_game("three_five_eight").variant_schema()}
    assert schema["win_tricks"] == {
        "name": "win_tricks",
        "label": "Tricks in one hand that win",
        "type": "int",
        "default": 12,
        "min": 10,
        "max": 16,
        "help": "tricks in one hand that win the game",
    }
    assert schema["targets"]["choices"] == ["8-5-3", "9-5-2", "6-3-8"]
    # A person reads a choice's label (its key where it reads well already), in the same order.
    assert schema["targets"]["choice_labels"] == ["8-5-3", "9-5-2", "6-3-8"]
    assert schema["kitty_mode"]["choice_labels"] == [
        "discard 4, then take it",
        "take it, then discard 4",
    ]
    assert set(schema) == {
        "targets",
        "kitty_mode",
        "win_tricks",
        "exchange_priority",
        "woburn_bidding",
        "max_bleed",
        "fixed_length",
    }
    assert get_game("saichugen").variant_schema()[0]["choices"] == ["zero_sum", "raw"]


def test_bad_match_arguments():
    with pytest.raises(VariantError, match="dealer must be a seat from 0 to 2"):
        start_match("saichugen", dealer=3)
    with pytest.raises(VariantError, match="positive integer"):
        start_match("saichugen", n_deals=0)
    with pytest.raises(VariantError, match="deal 0: wrong deck"):
        start_match("saichugen", deals=[{"hands": [[], [], []], "stock": []}])


def test_no_django_import_in_the_engines():
    root = Path(__file__).resolve().parents[2] / "games"
    paths = list(root.rglob("*.py"))
    assert len(paths) > 20, "the games package is where the engines are"
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "django" for n in names), path
