"""Confusable skeletons (accounts.skeleton, UTS #39), pure: look-alikes meet, a skeleton is its
own skeleton, and names that only resemble each other in meaning stay apart."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.skeleton import name_skeleton, prototypes, skeleton

# Pairs a reader takes for the same name: (look-alike, original). Written with escapes, so the
# test says which character it is.
LOOK_ALIKES = [
    ("\u0430na", "ana"),  # Cyrillic a
    ("\u0410NA", "ana"),  # Cyrillic capitals, and case
    ("\u0391\u039d\u0391", "Ana"),  # Greek capitals alpha, nu, alpha
    ("Str\u03bfng bot 1", "Strong bot 1"),  # Greek omicron
    ("Strong bot l", "Strong bot 1"),  # a small L for the digit one
    ("BiII", "Bill"),  # capital i for small L
    ("\uff41\uff4e\uff41", "ana"),  # fullwidth
    ("\U0001d41a\U0001d427\U0001d41a", "ana"),  # mathematical bold
    ("pa\u0443pal", "paypal"),  # Cyrillic u
    ("Ana  Rossi", "Ana Rossi"),  # two spaces
    ("Ana\u00a0Rossi", "Ana Rossi"),  # a no-break space
    ("ana\ufe00", "ana"),  # a variation selector draws nothing
    ("Jose\u0301", "Jos\u00e9"),  # NFD and NFC
    ("\u2f47\u5411", "\u65e5\u5411"),  # the Kangxi radical sun and the kanji
]

# Different names that must stay different.
DIFFERENT = [
    ("ana", "anna"),
    ("Marco", "Mario"),
    ("J\u00fcrgen", "Jurgen"),  # the umlaut is a different letter
    ("Niccol\u00f2", "Niccolo"),
    ("\u7530\u4e2d \u82b1\u5b50", "\u7530\u4e2d \u82b1\u6c5f"),  # kanji
    ("\u305f\u306a\u304b", "\u305f\u306a\u3054"),  # hiragana
    ("Bot 1", "Bot 2"),
    ("Strong bot 1", "Random bot 1"),
]


@pytest.mark.parametrize(("look_alike", "original"), LOOK_ALIKES)
def test_look_alikes_have_one_skeleton(look_alike, original):
    assert name_skeleton(look_alike) == name_skeleton(original)


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_different_names_have_different_skeletons(one, other):
    assert name_skeleton(one) != name_skeleton(other)


def test_every_confusable_characters_skeleton_is_its_own_skeleton():
    for char in prototypes():
        once = skeleton(char)
        assert skeleton(once) == once, f"U+{ord(char):04X}"
        assert name_skeleton(name_skeleton(char)) == name_skeleton(char), f"U+{ord(char):04X}"


def test_the_data_is_read_in_its_direction():
    """confusables.txt maps sources to prototypes; the package stores each line both ways."""
    table = prototypes()
    assert table["\u0430"] == "a" and "a" not in table  # Cyrillic a → a
    assert table["\u2f47"] == "\u65e5"  # a radical → its kanji, kept apart only in pairs
    assert skeleton("m") == "rn"


# Text mixing ordinary letters with the characters the data knows.
confusable = st.sampled_from(sorted(prototypes()))
names = st.lists(st.one_of(confusable, st.characters(), st.sampled_from(" aeilo1I")), max_size=20)


@settings(max_examples=500, deadline=None)
@given(names)
def test_a_skeleton_is_its_own_skeleton(chars):
    text = "".join(chars)
    assert skeleton(skeleton(text)) == skeleton(text)
    assert name_skeleton(name_skeleton(text)) == name_skeleton(text)


@settings(max_examples=300, deadline=None)
@given(names)
def test_case_and_normal_form_do_not_change_a_names_skeleton(chars):
    text = "".join(chars)
    key = name_skeleton(text)
    assert name_skeleton(unicodedata.normalize("NFC", text)) == key
    assert name_skeleton(unicodedata.normalize("NFD", text)) == key
    assert name_skeleton(key.upper().casefold()) == name_skeleton(key.casefold())


@settings(max_examples=300, deadline=None)
@given(names, st.data())
def test_swapping_a_character_for_its_prototype_keeps_the_skeleton(chars, data):
    text = unicodedata.normalize("NFD", "".join(chars))  # the skeleton maps NFD's characters
    table = prototypes()

    def beside_a_mark(i: int) -> bool:
        # A prototype that ends (or starts) with a combining mark, next to another mark, is put
        # in canonical order with it by the skeleton's first NFD when swapped in before, and
        # not when mapped after it (UTS #39 maps NFD's characters): no character to swap there.
        return any(0 <= j < len(text) and unicodedata.combining(text[j]) for j in (i - 1, i + 1))

    swapped = "".join(
        table.get(c, c) if not beside_a_mark(i) and data.draw(st.booleans()) else c
        for i, c in enumerate(text)
    )
    assert skeleton(swapped) == skeleton(text)
