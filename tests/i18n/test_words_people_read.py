"""Pages speak a player's words: seats numbered from 1, no format ids or code notation, a number
meeting a noun in the page's plural, and the rules linked from every page's header.

Seats stay 0-based in the protocol, the records and the APIs; only what a person reads counts
from 1. Most checks scan the templates and scripts people read (a new page is held to the same
rule); the rendered ones read real pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games import game_names, get_game

ROOT = Path(settings.BASE_DIR)
TEMPLATES = [
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted((ROOT / "gameplay" / "templates").rglob("*.html")),
]
SCRIPTS = [*sorted((ROOT / "static" / "js").glob("*.js")), *sorted(ROOT.glob("games/*/site/*.js"))]
NOUNS = r"(?:tricks|times|match points|points|thirds|tables|seats|players|deals|rounds|results)"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------- seats from 1
# A seat number printed as is: `{{ seat.number }}`, `{{ m.seat }}`, `forloop.counter0` as a seat.
ZERO_BASED = re.compile(
    r'(?<!=")\{\{\s*[\w.]*(?:seat\.number|\.seat)\s*\}\}'
    r"|blocktranslate (?:with|count) \w+=[\w.]*(?:seat\.number|seat)\s*%\}"
    r"|blocktranslate with \w+=forloop\.counter0 %\}\s*[Ss]eat"
)


@pytest.mark.parametrize("path", TEMPLATES, ids=rel)
def test_every_seat_number_a_page_shows_counts_from_one(path):
    text = path.read_text(encoding="utf-8")
    shown = [m.group(0) for m in ZERO_BASED.finditer(text)]
    assert not shown, f"{rel(path)} shows 0-based seat numbers: {shown} (add |add:1)"


def test_the_seat_filter_counts_from_one_in_a_sentence():
    rendered = Template(
        "{% load i18n %}{% blocktranslate with n=seat|add:1 %}Seat {{ n }}{% endblocktranslate %}"
    ).render(Context({"seat": 0}))
    assert rendered == "Seat 1"


def test_a_seat_without_a_name_is_numbered_from_one_at_the_table():
    core = (ROOT / "static" / "js" / "table.js").read_text(encoding="utf-8")
    assert 'fmt(gettext("seat %(seat)s"), { seat: s + 1 })' in core


# ---------------------------------------------------------------- no programmer words
FORMAT_ID = re.compile(r"mediana\.record/\d")


@pytest.mark.parametrize("path", TEMPLATES + SCRIPTS, ids=rel)
def test_no_format_id_is_shown_to_people(path):
    text = path.read_text(encoding="utf-8")
    strings = re.findall(r"""gettext\(\s*"([^"]*)"|\{% translate "([^"]*)" %\}""", text)
    shown = [s for pair in strings for s in pair if s and FORMAT_ID.search(s)]
    assert not shown, f"{rel(path)}: {shown}"


CODE_NOTATION = re.compile(r"\w\s*\*\s*\w|\bsum\(|==|!=|\w\(\w+\)\s*[-+]")


@pytest.mark.parametrize("game", game_names())
def test_a_games_options_are_explained_in_words_not_code(game):
    for flag in get_game(game).engine.FLAGS:
        for text in (flag.help, flag.label, *(flag.labels or {}).values()):
            assert not CODE_NOTATION.search(text or ""), (game, flag.name, text)


# ---------------------------------------------------------------- plurals
@pytest.mark.parametrize("path", TEMPLATES, ids=rel)
def test_a_number_meeting_a_noun_in_a_template_is_pluralised(path):
    text = path.read_text(encoding="utf-8")
    blocks = re.findall(
        r"\{% blocktranslate (?![^%]*\bcount\b)[^%]*%\}(.*?)\{% endblocktranslate", text, re.S
    )
    bad = [b for b in blocks if re.search(rf"\{{\{{ ?\w+ ?\}}\}} {NOUNS}\b", b)]
    # A count that is a setting of the site, never 1 (the days a link is valid, a rating's trend)
    bad = [b for b in bad if not re.search(r"\{\{ ?(claim_days|trend_days|matches) ?\}\}", b)]
    assert not bad, f"{rel(path)}: {bad}"


@pytest.mark.parametrize("path", SCRIPTS, ids=rel)
def test_a_number_meeting_a_noun_in_a_script_is_pluralised(path):
    text = path.read_text(encoding="utf-8")
    plain = re.findall(r"""(?<![n.])gettext\(\s*"([^"]*)"\s*\)""", text)
    bad = [s for s in plain if re.search(rf"%\(\w+\)s {NOUNS}\b", s)]
    # "counts %(factor)s times" is said only of a factor of 2 or more, a range ends at 2 or more
    bad = [s for s in bad if "%(factor)s times" not in s and "to %(max)s" not in s]
    assert not bad, f"{rel(path)}: {bad}"


@pytest.mark.django_db
def test_one_table_one_result_and_one_match_point_read_singular():
    page = Template(
        "{% load i18n %}"
        "{% blocktranslate count tables=n %}{{ tables }} table{% plural %}{{ tables }} tables"
        "{% endblocktranslate %}"
    )
    with translation.override("en"):
        assert page.render(Context({"n": 1})) == "1 table"
        assert page.render(Context({"n": 3})) == "3 tables"
    detail = (ROOT / "templates" / "league" / "event_detail.html").read_text(encoding="utf-8")
    assert "{{ tables }} table{% plural %}" in detail
    assert "{{ results }} result{% plural %}" in detail
    byes = (ROOT / "templates" / "league" / "round_detail.html").read_text(encoding="utf-8")
    assert "{{ points }} match point{% plural %}" in byes


# ---------------------------------------------------------------- the header
@pytest.mark.django_db
def test_the_header_links_the_rules(client):
    page = client.get("/").content.decode()
    header = page.split("</nav>")[0]
    assert re.search(r'<a href="/rules/" id="nav-rules"[^>]*>Rules</a>', header)
