"""The table in the browser's language, in Chromium: a deal of 3-5-8 played by clicking in
German and in Japanese (the page, the prompts, a refused card's reason and the end all in that
language, from the djangojs catalogue); and a table and an event's standings in each language.
Screenshots under test-output/screenshots/ (i18n-table-<lang>.png, i18n-standings-<lang>.png,
i18n-reason-<lang>.png, i18n-final-<lang>.png)."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import DESKTOP, browser, screenshots, server  # noqa: F401
from tests.browser.play import shot, take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXTS = {
    "en": {"locale": "en-US", "nav": "Events", "print": "Print"},
    "de": {
        "locale": "de-DE",
        "nav": "Veranstaltungen",
        "turn": "Du bist dran",
        "reason": "Du musst bedienen: ",
        "final": "Partie vorbei",
        "print": "Drucken",
    },
    "ja": {
        "locale": "ja-JP",
        "nav": "大会",
        "turn": "あなたの番です",
        "reason": "スートに従う必要があります: ",
        "final": "マッチ終了",
        "print": "印刷",
    },
    "it": {"locale": "it-IT", "nav": "Eventi", "print": "Stampa"},
}
DEALS = ["de", "ja"]

# In the server's database (manage.py shell): a Saichugen league of six with two rounds played.
SETUP = """
import json
from django.contrib.auth import get_user_model
from games import catalogue
from league.models import Player
from league.services import events, rounds
from league.services.permissions import organizer_role
from league.services.results import record_result
olga = get_user_model().objects.create_user("olga-i18n", password="a long pass phrase")
olga.user_permissions.add(organizer_role())
olga = get_user_model().objects.get(pk=olga.pk)
event = events.create_event(olga, name="Saichugen Liga", game="saichugen", format="league",
    rounds=3, deals_per_match=2)
events.publish_event(event, by=olga)
for name in ["Anneliese", "Bartolomeo", "Chiyo", "Dieter", "Elena", "Fumiko"]:
    events.add_entry(event, Player.objects.create(name=name), by=olga, checked_in=True)
for _ in range(2):
    round_ = rounds.generate_round(event, by=olga)
    rounds.publish_round(round_, by=olga)
    for fixture in round_.fixtures.all():
        names = [s.player.name for s in fixture.seats.select_related("player")]
        record = catalogue.random_record(event.game, players=names, variant=event.variant,
            n_deals=event.deals_per_match, seed=fixture.pk)
        record_result(fixture, by=olga, record=record)
print(json.dumps({"standings": f"/events/{event.slug}/standings/"}))
"""


@pytest.fixture(scope="module")
def league(server) -> dict:  # noqa: F811
    return json.loads(server.manage("shell", "-c", SETUP).strip().splitlines()[-1])


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


@pytest.mark.parametrize("language", DEALS)
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
            shot(page, screenshots, f"i18n-reason-{language}")
        take_turn(page)
    assert s["status"] == "finished"
    assert turns and reasons
    assert words["final"] in page.inner_text("#final")
    shot(page, screenshots, f"i18n-final-{language}")
    assert not errors, errors


@pytest.mark.parametrize("language", ["en", "de", "it", "ja"])
def test_the_table_and_the_standings_in_each_language(
    server,  # noqa: F811
    page_in,
    screenshots,  # noqa: F811
    league,
    language,
):
    words = TEXTS[language]
    page = page_in(language)
    errors = watch_errors(page)
    created = server.create_table("saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=3, deals=1)
    page.goto(f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}")
    wait_ready(page)
    assert page.locator("html").get_attribute("lang") == language
    assert words["nav"] in page.inner_text("header")
    shot(page, screenshots, f"i18n-table-{language}")
    page.goto(server.url + league["standings"])
    assert page.locator("html").get_attribute("lang") == language
    assert words["print"] in page.inner_text("main")
    assert page.locator("table.standings tbody tr").count() == 6
    shot(page, screenshots, f"i18n-standings-{language}")
    assert not errors, errors
