"""The table in the browser's language, in Chromium: a deal of 3-5-8 played by clicking in
German and in Japanese (the page, the prompts, a refused card's reason and the end all in that
language, from the djangojs catalogue); screenshots under test-output/screenshots/."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, browser, screenshots, server  # noqa: F401
from tests.browser.play import shot, take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXTS = {
    "de": {
        "locale": "de-DE",
        "nav": "Veranstaltungen",
        "turn": "Sie sind dran",
        "reason": "Sie müssen bedienen: ",
        "final": "Partie vorbei",
    },
    "ja": {
        "locale": "ja-JP",
        "nav": "大会",
        "turn": "あなたの番です",
        "reason": "スートに従う必要があります: ",
        "final": "マッチ終了",
    },
}


@pytest.fixture
def page_in(browser):  # noqa: F811
    """A desktop page whose browser asks for `language` (Accept-Language, navigator.language)."""
    contexts = []

    def make(language: str):
        context = browser.new_context(viewport=DESKTOP, locale=TEXTS[language]["locale"])
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_deal_is_played_in_the_browsers_language(server, page_in, screenshots, language):  # noqa: F811
    words = TEXTS[language]
    page = page_in(language)
    created = server.create_table(
        "three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5, deals=1
    )
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}")
    s = wait_ready(page)
    assert page.locator("html").get_attribute("lang") == language
    assert words["nav"] in page.inner_text("header")
    turns = reasons = 0
    for _ in range(80):
        s = wait_ready(page)
        if s["status"] == "finished":
            break
        if words["turn"] in page.inner_text("#prompt"):
            turns += 1
        if s.get("why_not") and not reasons:
            # A card the rules refuse says why in the reader's language, from its code.
            card = sorted(s["why_not"])[0]
            page.locator(f"#hand button[data-card='{card}']").click(force=True)
            assert words["reason"] in page.inner_text("#hand-reason")
            reasons += 1
            shot(page, screenshots, f"i18n-table-{language}")
        take_turn(page)
    assert s["status"] == "finished"
    assert turns and reasons
    assert words["final"] in page.inner_text("#final")
    shot(page, screenshots, f"i18n-final-{language}")
    assert not errors, errors
