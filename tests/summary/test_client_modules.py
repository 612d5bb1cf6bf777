"""The browser's shared files name no game: each game's module words its own codes.

`static/js/table.js` (the protocol core) and `static/js/summary.js` (the deal summary's frame)
serve every game; a game's summary codes, its own reason codes and its name live only in
the game's own module, `games/<game>/site/table.js` (docs/browser.md), and the arithmetic of a
summary comes from the parts' `op`, not from a list of codes. A static scan, against what the
engines declare.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import game_names, get_game
from games.core.base import COMMON_REASONS

JS = Path(__file__).resolve().parents[2] / "static" / "js"
SHARED = ("table.js", "summary.js")
# The protocol's own words (table-protocol.md: an action's fields, the act "trump"), which the
# core reads for every game and a few summary codes share by spelling.
PROTOCOL = {"cards", "contract", "tricks", "trump"}


def own_reasons(game: str) -> set[str]:
    return set(get_game(game).engine.REASONS - COMMON_REASONS)


def game_codes() -> set[str]:
    codes: set[str] = set()
    for game in game_names():
        codes |= get_game(game).engine.SUMMARY_CODES | own_reasons(game)
    return codes


def code_of(text: str) -> str:
    """The file without its comments (a comment may say "the skat" in passing)."""
    return "\n".join(re.split(r"(?:^|\s)//", line, maxsplit=1)[0] for line in text.splitlines())


def keys_and_strings(text: str) -> set[str]:
    """What a file could switch on: its string literals and its object keys."""
    code = code_of(text)
    strings = set(re.findall(r"""["'`]([A-Za-z_][\w]*)["'`]""", code))
    keys = set(re.findall(r"(?:^|[{,]\s*|\n\s*)([A-Za-z_]\w*)\s*:(?!:)", code))
    methods = set(re.findall(r"^\s*([A-Za-z_]\w*)\([^)]*\)\s*\{\s*$", code, re.MULTILINE))
    return strings | keys | methods


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_files_name_no_game(name):
    text = (JS / name).read_text(encoding="utf-8").lower()
    for game in game_names():
        for word in {game, get_game(game).display_name.lower()}:
            assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), (
                f"static/js/{name} names the game {word!r}"
            )


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_files_know_no_games_code(name):
    found = keys_and_strings((JS / name).read_text(encoding="utf-8")) & game_codes() - PROTOCOL
    assert not found, f"static/js/{name} knows a game's codes: {sorted(found)}"


def test_the_shared_files_have_no_switch_over_codes():
    for name in SHARED:
        text = code_of((JS / name).read_text(encoding="utf-8"))
        assert "case " not in text, f"static/js/{name} switches over codes"


@pytest.mark.parametrize("game", game_names())
def test_each_games_module_words_its_own_codes(game):
    """Every summary code and own reason code of the engine is a key of its module."""
    found = keys_and_strings((get_game(game).site_dir / "table.js").read_text(encoding="utf-8"))
    engine = get_game(game).engine
    missing = (engine.SUMMARY_CODES | own_reasons(game)) - found
    assert not missing, f"games/{game}/site/table.js does not word {sorted(missing)}"
