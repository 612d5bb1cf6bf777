"""Lists of people in the order a reader expects: by the Unicode Collation Algorithm, not by
code point (which puts "Łukasz" after "Zoë" and "Émile" after everyone). Pure: no Django
(tests/accounts/test_collation.py).

pyuca implements the algorithm with Unicode's default table (DUCET), which is CLDR's root
collation: a letter with an accent or a stroke sorts with its letter ("Lukas", "Łukasz", "Luz"),
lower case just before upper case, and every script in a fixed order (Latin, Greek, Cyrillic,
…, kana, kanji). The root order is the standard order of every language the site speaks but
Japanese, whose ICU tailoring orders kanji by the JIS tables (close to their reading) where the
root order follows radicals and strokes; kana sort in gojūon order either way. A tailoring for
one language would go in `TAILORED` (none is needed yet); pyuca has no tailorings, PyICU would
but is not installable from wheels everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

T = TypeVar("T")

# language code → a function from a text to its sort key, for languages whose order differs
# from the root collation's.
TAILORED: dict[str, Callable[[str], tuple[int, ...]]] = {}


@cache
def _root() -> Callable[[str], tuple[int, ...]]:
    from pyuca import Collator  # reads Unicode's table (~0.1 s): once, on first use

    return Collator().sort_key


def name_key(text: str, language: str | None = None) -> tuple[tuple[int, ...], str]:
    """The sort key of a name for a reader of `language` (a code such as "de" or "ja-jp"):
    the collation key, then the name itself, so that two names the collation finds equal still
    come in one fixed order."""
    base = (language or "").split("-")[0].lower()
    key = TAILORED.get(base) or _root()
    return key(text), text


def sorted_by_name(
    items: Iterable[T], name: Callable[[T], str], language: str | None = None
) -> list[T]:
    """`items` ordered by `name(item)` for a reader of `language` (stable for equal names)."""
    return sorted(items, key=lambda item: name_key(name(item), language))
