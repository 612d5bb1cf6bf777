"""Figures the league writes out (standings, travellers) are shown in the reader's locale, with
the places they were rounded to, and nothing else changes."""

from __future__ import annotations

import pytest
from django.utils import translation

from league.templatetags.numbers import local_number


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("en", "-0.50", "-0.50"),
        ("de", "-0.50", "-0,50"),
        ("it", "68.75", "68,75"),
        ("ja", "68.75", "68.75"),
        ("de", "3", "3"),
        ("de", 2, "2"),
        ("de", "0.333333", "0,333333"),
    ],
)
def test_a_figure_is_shown_in_the_readers_locale_with_its_places(language, value, shown):
    with translation.override(language):
        assert local_number(value) == shown


@pytest.mark.parametrize("value", ["\u2013", "", None, "n/a", "NaN"])
def test_what_is_not_a_number_is_left_as_it_is(value):
    with translation.override("de"):
        assert local_number(value) == value
