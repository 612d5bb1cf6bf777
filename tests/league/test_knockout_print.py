"""A knockout round on paper (Chromium's print media, `static/css/print.css`): who goes on is
printed, and only who went on is bold — a co-winner who lost the event's draw is not, and the
table says how the draw went."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from league.draws import draw_order
from league.services import rounds as round_services
from league.services.results import record_result
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.league.conftest import record_for
from tests.print import pdf

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

LEVEL = {"deals": [{"scores": [20, 20, 20]}]}  # a Saichugen sheet: all three win, level
STATIC = Path(settings.BASE_DIR) / "static"


def with_styles_inline(html: str) -> str:
    """The page with its stylesheets in it (no server here), the print one still for print."""

    def inline(match: re.Match) -> str:
        css = (STATIC / match.group(1)).read_text()
        media = f' media="{match.group(2)}"' if match.group(2) else ""
        return f"<style{media}>{css}</style>"

    html = re.sub(r"<script[^>]*></script>", "", html)
    return re.sub(
        r'<link rel="stylesheet" href="/static/([^"]+)"(?: media="([^"]+)")?>', inline, html
    )


def test_the_printed_round_keeps_who_goes_on_and_bolds_only_who_went_on(make_event, alice, client):
    if not CHROMIUM.exists():
        if os.environ.get("CI"):  # as tests/browser/conftest.py: CI must run it
            pytest.fail("CI must provide /usr/bin/chromium for the browser tests")
        pytest.skip("no /usr/bin/chromium")
    event = make_event("saichugen", players=9, format="knockout", rounds=2)
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    for fixture in first.fixtures.order_by("number"):
        if fixture.number == 1:
            record_result(fixture, by=alice, sheet=LEVEL)
        else:
            record_result(fixture, by=alice, record=record_for(fixture))
    table = [s.player_id for s in first.fixtures.get(number=1).seats.order_by("number")]
    names = dict(event.entries.values_list("player_id", "player__name"))
    went_on, *lost = (names[p] for p in draw_order(event.seed, table))
    html = client.get(reverse("league:round", args=[event.slug, 1])).content.decode()
    assert '<link rel="stylesheet" href="/static/css/print.css" media="print">' in html

    from playwright.sync_api import sync_playwright  # after the database work: its loop

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content(with_styles_inline(html))
        page.emulate_media(media="print")
        notes = page.locator(".format-notes")
        assert notes.locator("h3", has_text="Who goes on").is_visible()
        assert not notes.locator(".format-rules").is_visible()  # how rounds are made: screen
        card = page.locator("section.fixture").first
        assert card.locator(".went-on-note").is_visible()
        assert "by the event's draw" in card.locator(".went-on-note").inner_text()

        def weight(name: str) -> int:
            row = card.locator("tr", has_text=name)
            return int(row.locator("td").nth(1).evaluate("td => getComputedStyle(td).fontWeight"))

        assert weight(went_on) >= 600
        assert [weight(name) for name in lost] == [400, 400]
        paper = page.pdf()
        browser.close()
    printed = " ".join(" ".join(pdf.page_texts(paper)).split())
    assert "Who goes on" in printed and f"Table 1: {went_on} goes on" in printed
