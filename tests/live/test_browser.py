"""Two people in Chromium, live outside the table (docs/lobby.md, "Live"): the creator's
invitation page moves to the table the moment the second person takes the last seat; when one
offers a rematch, the offer appears at once on the other's finished table page (and in the
header), and Accept takes both to the new table. Screenshots at desktop and phone width."""

from __future__ import annotations

import re

import pytest

from tests.browser.play import shot, watch_errors
from tests.lobby_pages.test_browser import new_page, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYING = (
    "() => window.medianaTable && window.medianaTable.state()"
    " && window.medianaTable.state().status === 'playing'"
)
LIVE = "#live-notices[data-connected=true]"


def table_id(url: str) -> str:
    found = re.search(r"/tables/([0-9a-f]+)/", url)
    assert found, url
    return found.group(1)


def resign(page, url: str, table: str) -> None:
    page.goto(f"{url}/tables/{table}/leave/")
    page.click("#confirm button.danger")
    page.wait_for_selector("#table-app")


def test_the_invitation_moves_to_the_table_and_a_rematch_is_accepted_live(
    server, browser, screenshots
):
    a = new_page(browser)
    b = new_page(browser, phone=True)
    errors_a, errors_b = watch_errors(a), watch_errors(b)
    try:
        sign_up(a, server.url, "Livia")
        sign_up(b, server.url, "Bastian")
        a.goto(f"{server.url}/play/")
        a.select_option("#create-form select[name=game]", "saichugen")
        a.fill("#create-form input[name=bots]", "1")
        a.fill("#create-form input[name=deals]", "1")
        a.click("#create-form button[type=submit]")
        a.wait_for_selector("#invite-url")
        first = table_id(a.url)
        a.wait_for_selector(LIVE, state="attached")
        # The creator stays on the invitation; the second person takes the last seat.
        b.goto(f"{server.url}/tables/{first}/join/")
        b.click("#join-form button")
        b.wait_for_url(re.compile(rf"/tables/{first}/$"))
        b.wait_for_function(PLAYING)
        a.wait_for_url(re.compile(rf"/tables/{first}/$"), timeout=10_000)
        a.wait_for_function(PLAYING)
        assert a.locator("#whoami").inner_text() == "you play seat 1"

        # Both resign: the bots play the match out, and it finishes.
        resign(a, server.url, first)
        resign(b, server.url, first)
        for page in (a, b):
            page.goto(f"{server.url}/tables/{first}/")
            page.wait_for_selector("#rematch-form", state="visible", timeout=60_000)
        b.wait_for_selector(LIVE, state="attached")

        # A offers a rematch; B's open finished table shows the offer at once, and the header.
        a.click("#rematch-form button")
        a.wait_for_url(re.compile(r"/tables/[0-9a-f]+/join/$"))
        a.wait_for_selector("#invitation[data-wait-table]")
        second = table_id(a.url)
        assert second != first
        offer = b.locator(f'#lobby-actions .rematch-offer[data-offer="{second}"]')
        offer.wait_for(state="visible", timeout=10_000)
        assert "Livia offers a rematch." in offer.inner_text()
        assert not b.locator("#rematch-form").is_visible()
        notice = b.locator("#live-notices .live-notice[data-type=rematch_offered]")
        assert notice.is_visible() and "Livia offers a rematch." in notice.inner_text()
        shot(b, screenshots, "live-rematch-offer-phone")
        shot(a, screenshots, "live-rematch-invitation-desktop")

        # Accept: B takes the kept seat, the table starts, and both are at it.
        a.wait_for_selector(LIVE, state="attached")
        offer.locator("button", has_text="Accept").click()
        b.wait_for_url(re.compile(rf"/tables/{second}/$"))
        b.wait_for_function(PLAYING)
        a.wait_for_url(re.compile(rf"/tables/{second}/$"), timeout=10_000)
        a.wait_for_function(PLAYING)
        shot(a, screenshots, "live-rematch-started-desktop")
        # The notice of the offer went with its page: the table does not show it again.
        assert b.locator("#live-notices .live-notice[data-type=rematch_offered]").count() == 0
    finally:
        a.context.close()
        b.context.close()
    assert errors_a == [] and errors_b == []


def test_a_declined_rematch_tells_the_one_who_offered(server, browser, screenshots):
    a = new_page(browser)
    b = new_page(browser, phone=True)
    errors_a, errors_b = watch_errors(a), watch_errors(b)
    try:
        sign_up(a, server.url, "Dora")
        sign_up(b, server.url, "Emil")
        a.goto(f"{server.url}/play/")
        a.select_option("#create-form select[name=game]", "saichugen")
        a.fill("#create-form input[name=bots]", "1")
        a.fill("#create-form input[name=deals]", "1")
        a.click("#create-form button[type=submit]")
        a.wait_for_selector("#invite-url")
        first = table_id(a.url)
        b.goto(f"{server.url}/tables/{first}/join/")
        b.click("#join-form button")
        b.wait_for_function(PLAYING)
        resign(a, server.url, first)
        resign(b, server.url, first)
        b.goto(f"{server.url}/tables/{first}/")
        b.wait_for_selector("#rematch-form", state="visible", timeout=60_000)
        a.goto(f"{server.url}/tables/{first}/")
        a.wait_for_selector("#rematch-form", state="visible", timeout=60_000)
        a.click("#rematch-form button")
        a.wait_for_url(re.compile(r"/tables/[0-9a-f]+/join/$"))
        a.wait_for_selector("#invitation[data-wait-table]")
        a.wait_for_selector(LIVE, state="attached")
        # B opens the page after the offer was made: it is there (rendered, or caught up).
        b.reload()
        offer = b.locator("#lobby-actions .rematch-offer")
        offer.wait_for(state="visible")
        offer.locator("button", has_text="Decline").click()
        b.wait_for_url(re.compile(rf"/tables/{first}/$"))
        assert b.locator("#rematch-form").is_visible()  # free to offer one again
        notice = a.locator("#live-notices .live-notice[data-type=rematch_declined]")
        notice.wait_for(state="visible", timeout=10_000)
        assert "Emil declined the rematch." in notice.inner_text()
        shot(a, screenshots, "live-rematch-declined-desktop")
        notice.locator("button.live-close").click()
        assert notice.count() == 0
    finally:
        a.context.close()
        b.context.close()
    assert errors_a == [] and errors_b == []
