"""The one rule for the names and titles people type — a player's or an account's name, a club,
an event's name — whichever way they come in: forms, the API, imports, sign-up, the profile.

Refused, saying which character: control characters (Unicode category Cc: tabs, line breaks, a
carriage return — which would stop every e-mail whose subject carries the name), format
characters (Cf: zero-width joiners and spaces, the bidi overrides and isolates that turn text
around, the soft hyphen), line and paragraph separators (Zl, Zp), lone surrogates (Cs) and the
Hangul fillers, letters that draw nothing. What is left is normalised to NFC, so "é" typed as
"e" and a combining accent is the same name as "é". Look-alike names are `accounts.skeleton`'s.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Unicode gives control characters no names (only aliases): the ones people meet, by their alias.
CONTROL_NAMES = {
    "\x00": "NULL",
    "\t": "CHARACTER TABULATION",
    "\n": "LINE FEED",
    "\x0b": "LINE TABULATION",
    "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
}


def hidden_character(text: str) -> str | None:
    """The first character of `text` a name may not hold, or None."""
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES or char in BLANK_LETTERS:
            return char
    return None


def text_problem(text: str) -> str | None:
    """Why `text` cannot be a name (translated), or None."""
    char = hidden_character(text)
    if char is None:
        return None
    name = unicodedata.name(char, "") or CONTROL_NAMES.get(char, "CONTROL CHARACTER")
    described = f"U+{ord(char):04X} {name}"
    return _(
        "A name cannot contain line breaks, tabs or invisible characters (found %(char)s)."
    ) % {"char": described}


def nfc(text: str) -> str:
    """`text` in NFC: "Zoë" typed with a combining diaeresis (NFD, as some keyboards and macOS
    file names give it) is the same string as "Zoë" typed with one key."""
    return unicodedata.normalize("NFC", text or "")


def tidy(text: str) -> str:
    """A typed name as it is kept: NFC, without surrounding blanks (check `text_problem`)."""
    return nfc(text).strip()


def validate_typed_name(value: str) -> None:
    """A field validator (models, forms, the API's serializers) for `text_problem`."""
    problem = text_problem(value or "")
    if problem:
        raise ValidationError(problem, code="hidden_character")
