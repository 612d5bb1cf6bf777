"""Names in a reader's alphabetical order (accounts.collation), not by code point."""

from __future__ import annotations

import unicodedata

import pytest

from accounts.collation import name_key, sorted_by_name

CODE_POINT_ORDER = ["Emil", "Eve", "Lukas", "Luz", "Zoë", "Émile", "Łukasz"]


@pytest.mark.parametrize("language", ["en", "de", "it", "ja", None])
def test_letters_with_accents_or_strokes_sort_with_their_letter(language):
    assert sorted(CODE_POINT_ORDER) == CODE_POINT_ORDER  # what the pages did before
    ordered = sorted_by_name(CODE_POINT_ORDER, str, language)
    assert ordered == ["Emil", "Émile", "Eve", "Lukas", "Łukasz", "Luz", "Zoë"]


def test_case_and_normal_forms_do_not_move_a_name():
    names = ["bob", "Ana", "ana", "Zoe\u0308", "Zo\u00eb", "Bo"]
    ordered = sorted_by_name(names, str, "de")
    assert ordered[:2] == ["ana", "Ana"] and ordered[2:4] == ["Bo", "bob"]
    assert {unicodedata.normalize("NFC", n) for n in ordered[4:]} == {"Zo\u00eb"}
    # Equal for the collation, different strings: still one fixed order, whatever came first.
    assert ordered == sorted_by_name(reversed(names), str, "de")


def test_scripts_come_in_a_fixed_order_and_kana_in_gojuon_order():
    names = [
        "\u7530\u4e2d",
        "\u305f\u306a\u304b",
        "\u3042\u3079",
        "Tanaka",
        "\u0411\u043e\u0440\u0438\u0441",
    ]
    assert sorted_by_name(names, str, "ja") == [
        "Tanaka",
        "\u0411\u043e\u0440\u0438\u0441",  # Cyrillic after Latin
        "\u3042\u3079",  # あべ before たなか
        "\u305f\u306a\u304b",
        "\u7530\u4e2d",  # kanji last
    ]


def test_the_key_sorts_any_objects_and_a_region_is_the_language():
    rows = [{"name": "\u0141ukasz"}, {"name": "Luz"}, {"name": "Lukas"}]
    assert [r["name"] for r in sorted_by_name(rows, lambda r: r["name"], "de-ch")] == [
        "Lukas",
        "\u0141ukasz",
        "Luz",
    ]
    assert name_key("Lukas", "DE-CH") == name_key("Lukas", "de")
