"""The German catalogue says "du" (issue #31): card players and games sites address each
other informally, so no translation uses the formal "Sie", "Ihnen" or "Ihr…".

A capitalised "Sie" or "Ihr" at a sentence's start could also mean "they" or "its"; the
catalogue words those sentences otherwise (the card, the list, the results…), so every
capitalised form here is formal address and a reader never has to guess."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"
FORMAL = re.compile(r"\b(Sie|Ihnen|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres|Euch|Euer)\b")


def translations(domain: str) -> list[tuple[str, str]]:
    entries = polib.pofile(str(LOCALE / f"{domain}.po"))
    found = []
    for entry in entries:
        texts = entry.msgstr_plural.values() if entry.msgstr_plural else [entry.msgstr]
        found += [(entry.msgid, text) for text in texts if text]
    return found


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_no_german_translation_uses_formal_address(domain):
    formal = [(msgid, text) for msgid, text in translations(domain) if FORMAL.search(text)]
    assert formal == []


@pytest.mark.parametrize(
    ("domain", "msgid", "informal"),
    [
        ("djangojs", "Your turn: play a card.", "Du bist dran: Spiel eine Karte."),
        ("djangojs", "You must follow suit: %(suit)s.", "Du musst bedienen: %(suit)s."),
        ("django", "Your profile", "Dein Profil"),
        ("django", "Log in to play at a table.", "Melde dich an, um an einem Tisch zu spielen."),
    ],
)
def test_the_table_and_the_account_pages_say_du(domain, msgid, informal):
    assert dict(translations(domain))[msgid] == informal
