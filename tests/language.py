"""What a page shows in the language the suite runs in (MEDIANA_TEST_LANGUAGE, English
without it; docs/translations.md "The suite in another language").

A test that checks a page's wording compares with these instead of English words, so it
fails when the page shows the wrong text in any language, English included. A message with
no translation yet in that language comes back in English, as the page shows it.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import formats, translation

from tests.conftest import TEST_LANGUAGE

LANGUAGE = TEST_LANGUAGE or "en"


def text(message: str, **params: Any) -> str:
    """`message` (a msgid, or a lazy string) translated, with its `%(name)s` params filled
    in as `{% blocktranslate with name=… %}` and `gettext(…) % {…}` do."""
    with translation.override(LANGUAGE):
        shown = translation.gettext(str(message))
    return shown % params if params else shown


def text_plural(singular: str, plural: str, n: int, **params: Any) -> str:
    """The singular or plural form for `n` (`{% blocktranslate count n=… %}`, `ngettext`);
    `n` is among the params under its own name unless given otherwise."""
    with translation.override(LANGUAGE):
        shown = translation.ngettext(singular, plural, n)
    return shown % {"n": n, **params}


def text_in(context: str, message: str, **params: Any) -> str:
    """`message` translated in `context` (`{% translate … context … %}`, `pgettext`)."""
    with translation.override(LANGUAGE):
        shown = translation.pgettext(context, message)
    return shown % params if params else shown


def number(value: Any, decimal_pos: int | None = None) -> str:
    """A number as templates localize it ("30.00" in English, "30,00" in German)."""
    with translation.override(LANGUAGE):
        return formats.number_format(value, decimal_pos)


def active() -> translation.override:
    """The test language active in a `with` block: for code that translates as it runs
    (`gettext` at call time, e.g. `api.value_label`)."""
    return translation.override(LANGUAGE)


def pattern(message: str) -> re.Pattern[str]:
    """A regex for `message` translated, each `%(name)s` in it any text (group `name`): for a
    page text whose params the test does not know ("7 of hearts")."""
    shown = re.escape(text(message))
    return re.compile(re.sub(r"%\\\(([a-z_]+)\\\)s", r"(?P<\1>.+)", shown))


# Kana and kanji (with the long-vowel mark): Japanese writes its words without spaces between.
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def words(shown: str) -> int:
    """How many words a text has, in any language: those between spaces, and in Japanese
    roughly one for every two characters of kana or kanji (a word's usual length)."""
    return len(CJK.sub(" ", shown).split()) + len(CJK.findall(shown)) // 2
