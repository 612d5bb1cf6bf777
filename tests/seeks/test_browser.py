"""Meeting people in Chromium, three browsers at once: three people seek Saichugen at the fast
pace (one by the form, one by "Join" on the open seek they see appear, one by the form again)
and every page goes to the same table within seconds; a challenge by name (in another case)
appears live on the other's lobby page, is accepted there, and both pages go to the table.

Until the lobby socket is merged the pages follow by polling the HTTP API (static/js/people.js);
with it they move at once. Screenshots of the waiting state and of a challenge, desktop and phone.
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.browser.play import shot, watch_errors
from tests.lobby_pages.test_browser import new_page, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLE = re.compile(r"/tables/([0-9a-f]+)/$")
MEET_WITHIN = 20_000  # ms: the fallback polls every 2 s (seek) and 5 s (lists)


def table_of(page) -> str:
    page.wait_for_url(TABLE, timeout=MEET_WITHIN)
    return TABLE.search(page.url).group(1)


def seek_by_form(page, url: str, game: str, pace: str, bots: str = "") -> None:
    page.goto(f"{url}/play/")
    page.select_option("#seek_game", game)
    page.select_option("#seek_pace", pace)
    page.select_option("#seek_bots_after", bots)
    page.click("#seek-form button[type=submit]")


def test_three_people_seek_and_meet_at_one_table(server, browser, screenshots):
    tag = uuid.uuid4().hex[:5]
    a, b, c = new_page(browser), new_page(browser, phone=True), new_page(browser)
    errors = [watch_errors(p) for p in (a, b, c)]
    try:
        for page, name in ((a, f"ada{tag}"), (b, f"bo{tag}"), (c, f"cy{tag}")):
            sign_up(page, server.url, name)
        seek_by_form(a, server.url, "saichugen", "fast")
        a.wait_for_selector("#seek-waiting")
        a.wait_for_function(
            "() => /2 more players/.test(document.getElementById('seek-status').textContent)"
        )
        shot(a, screenshots, "people-seek-waiting-desktop")

        # B sees A's seek appear in the list and joins it (the same game, pace and rating).
        b.goto(f"{server.url}/play/#people")
        row = b.locator(f"#open-seeks li:has-text('ada{tag}')")
        row.wait_for()
        assert "Saichugen" in row.inner_text()
        row.locator("button").click()
        b.wait_for_selector("#seek-waiting")
        b.wait_for_function(
            "() => /1 more player/.test(document.getElementById('seek-status').textContent)"
        )
        b.locator("#people").screenshot(path=str(screenshots / "people-seek-waiting-phone.png"))

        seek_by_form(c, server.url, "saichugen", "fast")
        ids = {table_of(p) for p in (a, b, c)}
        assert len(ids) == 1, ids
        for page in (a, b, c):
            page.wait_for_selector("#hand")
        assert all(not e for e in errors), errors
    finally:
        for page in (a, b, c):
            page.context.close()


def test_a_challenge_by_name_is_accepted_live(server, browser, screenshots):
    tag = uuid.uuid4().hex[:5]
    a, b = new_page(browser), new_page(browser, phone=True)
    errors = [watch_errors(p) for p in (a, b)]
    try:
        sign_up(a, server.url, f"Dora{tag}")
        sign_up(b, server.url, f"Emil{tag}")
        b.goto(f"{server.url}/play/")
        a.goto(f"{server.url}/play/#challenges")
        a.fill("#challenge_player", f"emil{tag}".upper())
        a.select_option("#challenge_game", "schieberamsch")
        a.select_option("#challenge_pace", "relaxed")
        a.click("#challenge-form button[type=submit]")
        a.wait_for_selector(f"#sent-list li:has-text('Emil{tag}')")

        # B's open lobby page shows it without a reload.
        incoming = b.locator(f"#incoming-list li:has-text('Dora{tag}')")
        incoming.wait_for(timeout=MEET_WITHIN)
        b.locator("#incoming-challenges").scroll_into_view_if_needed()
        b.locator("#challenges").screenshot(
            path=str(screenshots / "people-challenge-incoming-phone.png")
        )
        shot(a, screenshots, "people-challenge-sent-desktop")
        incoming.locator("button", has_text="Accept").click()
        assert table_of(b) == table_of(a)
        for page in (a, b):
            page.wait_for_selector("#hand")
        assert all(not e for e in errors), errors
    finally:
        for page in (a, b):
            page.context.close()
