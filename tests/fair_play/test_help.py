"""The public help says what is measured, in every language, and never how to evade it."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

HEADINGS = {"en": "Fair play", "de": "Fairplay", "it": "Fair play", "ja": "フェアプレー"}


@pytest.mark.parametrize("language", sorted(HEADINGS))
def test_the_ratings_page_explains_fair_play(client, language):
    page = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = page[page.index('id="fair-play"') :]
    assert f"<h2>{HEADINGS[language]}</h2>" in section
    assert section.count("<p>") == 4  # ratings, farming, collusion, reports
    # No thresholds: what is looked at, not where the line is.
    text = re.sub(r"<[^>]+>", "", section[: section.index("</section>")])
    assert not any(ch.isdigit() for ch in text)
