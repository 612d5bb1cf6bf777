"""Meeting people in Chromium, three browsers at once: three people seek Saichugen at the fast
pace (one by the form, one by "Join" on the open seek they see appear, one by the form again)
and every page goes to the same table within seconds; a challenge by name (in another case)
appears live on the other's lobby page, is accepted there, and both pages go to the table.

Until the lobby socket is merged the pages follow by polling the HTTP API (static/js/people.js);
with it they move at once. Screenshots of the waiting state and of a challenge, desktop and phone.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from tests.browser.play import shot, state, take_turn, wait_ready, watch_errors
from tests.lobby_pages.test_browser import new_page, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLE = re.compile(r"/tables/([0-9a-f]+)/$")
TABLE_PART = re.compile(r"/tables/([0-9a-f]+)/")
LIVE = "#live-notices[data-connected=true]"
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
        # Back from the table: the people's part of the play page, no wait shown any more.
        a.go_back()
        a.wait_for_url(re.compile(r"/play/#people$"))
        a.wait_for_timeout(1500)  # a late word of the start must not take the page back there
        assert a.url.endswith("/play/#people")
        a.wait_for_selector("#people")
        assert a.locator("#seek-waiting").count() == 0
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
        b.goto(f"{server.url}/events/")  # elsewhere on the site: a notice reaches it
        b.wait_for_selector(LIVE, state="attached")
        a.goto(f"{server.url}/play/#challenges")
        a.fill("#challenge_player", f"emil{tag}".upper())
        a.select_option("#challenge_game", "schieberamsch")
        a.select_option("#challenge_pace", "relaxed")
        a.click("#challenge-form button[type=submit]")
        a.wait_for_selector(f"#sent-list li:has-text('Emil{tag}')")

        # B's open page shows a notice at once; its link opens the lobby's answer.
        notice = b.locator("#live-notices .live-notice[data-type=challenge]")
        notice.wait_for(timeout=MEET_WITHIN)
        assert f"Dora{tag} challenges you to a game." in notice.inner_text()
        notice.locator("a").click()
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


def seek_casual(page, url: str) -> None:
    page.goto(f"{url}/play/")
    page.select_option("#seek_game", "saichugen")
    page.select_option("#seek_pace", "fast")
    page.check("#seek-form input[name=rated][value='0']")
    page.click("#seek-form button[type=submit]")


def _play_first_deal(pages, deadline_s: float = 240) -> None:
    """Every page moves when it is its turn, by clicking, until the second deal begins."""
    started = time.monotonic()
    while time.monotonic() - started < deadline_s:
        moved = False
        for page in pages:
            s = state(page)
            if s["view"]["deal"] >= 1 or s["status"] != "playing":
                return
            if s["legal"] and not page.evaluate("() => window.medianaTable.pending()"):
                take_turn(page)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(200)
    raise AssertionError("the first deal did not end")


def test_two_people_and_a_guest_meet_play_a_deal_and_meet_again_by_a_live_rematch(
    server, browser, screenshots
):
    """The issue's walk in one: quick pairing brings two people and a visitor who plays as a
    guest to one casual table; they play the first deal by clicking; after the match the
    rematch one offers reaches the other two live, and both accept it from their open pages."""
    tag = uuid.uuid4().hex[:5]
    a, b, c = new_page(browser), new_page(browser), new_page(browser, phone=True)
    errors = [watch_errors(p) for p in (a, b, c)]
    try:
        sign_up(a, server.url, f"Ida{tag}")
        sign_up(b, server.url, f"Jo{tag}")
        seek_casual(a, server.url)
        a.wait_for_selector("#seek-waiting")

        # The visitor sees the casual seek, joins it, and chooses to play as a guest.
        c.goto(f"{server.url}/play/#people")
        row = c.locator(f"#open-seeks li:has-text('Ida{tag}')")
        row.wait_for()
        row.locator("button", has_text="Join").click()
        c.wait_for_selector("#guest-offer")
        c.click("#guest-form button[type=submit]")
        c.wait_for_selector("#seek-waiting")
        guest = c.locator("header .who.guest").text_content()
        assert guest.startswith("Guest-")

        seek_casual(b, server.url)
        first = {table_of(p) for p in (a, b, c)}
        assert len(first) == 1, first
        (first_id,) = first
        for page in (a, b, c):
            wait_ready(page)
        assert "guest" in c.locator("#table-app").inner_text().lower()

        _play_first_deal([a, b, c])
        shot(c, screenshots, "people-guest-second-deal-phone")

        # The three resign the rest; the bots play it out and the match ends.
        for page in (a, b, c):
            page.goto(f"{server.url}/tables/{first_id}/leave/")
            page.click("#confirm button.danger")
            page.wait_for_selector("#table-app")
        for page in (a, b, c):
            page.goto(f"{server.url}/tables/{first_id}/")
            page.wait_for_selector("#rematch-form", state="visible", timeout=90_000)
            page.wait_for_selector(LIVE, state="attached")
        # Nobody played it to the end: nobody is named the winner.
        assert "No winner" in a.locator("#winners").inner_text()

        # Ida offers a rematch; Jo's and the guest's open pages show it at once.
        a.click("#rematch-form button")
        a.wait_for_selector("#invitation[data-wait-table]")
        second = TABLE_PART.search(a.url).group(1)
        for page in (b, c):
            offer = page.locator(f'#lobby-actions .rematch-offer[data-offer="{second}"]')
            offer.wait_for(state="visible", timeout=MEET_WITHIN)
            assert f"Ida{tag} offers a rematch." in offer.inner_text()
        shot(c, screenshots, "people-guest-rematch-offer-phone")
        for page in (b, c):
            page.locator(f'#lobby-actions .rematch-offer[data-offer="{second}"]').locator(
                "button", has_text="Accept"
            ).click()
        for page in (a, b, c):
            assert table_of(page) == second
            assert wait_ready(page)["status"] == "playing"
        assert all(not e for e in errors), errors
    finally:
        for page in (a, b, c):
            page.context.close()
