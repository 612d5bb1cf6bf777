"""A visitor plays as a guest in Chromium: Play now on the home page, "Play as a guest", a move
at the table against bots, then "Sign up to keep your games" — and the game is in My games
under the chosen name. Screenshots at desktop and phone size."""

from __future__ import annotations

import re

import pytest

from tests.browser.play import take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser]

GAME = "three_five_eight"
PASSWORD = "a guest's pass phrase"


def test_a_guest_plays_a_move_signs_up_and_finds_the_game_in_my_games(server, desktop, screenshots):
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    page.click(f"#play-now article[data-game={GAME}] button[type=submit]")
    page.wait_for_selector("#guest-offer")
    page.screenshot(path=str(screenshots / "guests-offer-desktop.png"))
    page.click("#guest-form button[type=submit]")
    page.wait_for_selector("#table-app")
    table = re.search(r"/tables/([0-9A-Za-z_-]+)/", page.url).group(1)
    guest = page.inner_text("header .who.guest")
    assert guest.startswith("Guest-")
    assert "Sign up to keep your games" in page.inner_text("header")

    s = wait_ready(page, timeout=30_000)
    assert s["seat"] == 0
    take_turn(page)  # a move, by clicking
    page.wait_for_function(
        "() => window.medianaTable.state() && window.medianaTable.state().seq > 0"
    )
    assert page.locator(".tag.guest").count() >= 1  # the guest mark at their seat
    page.screenshot(path=str(screenshots / "guests-table-desktop.png"))

    page.click("header a.keep-games")
    page.wait_for_selector("#guest-signup-note")
    assert guest in page.inner_text("#guest-signup-note")
    page.fill("input[name=username]", "Gianna")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")
    assert page.inner_text("header a.who") == "Gianna"

    page.click("header >> text=My games")
    page.wait_for_url("**/games/")
    row = page.locator(f"table.my-games tr[data-table='{table}']")
    row.first.wait_for()
    assert row.count() == 1
    page.goto(f"{server.url}/tables/{table}/")
    wait_ready(page, timeout=30_000)
    assert "Gianna" in page.inner_text("#table-app")
    assert guest not in page.inner_text("#table-app")
    assert not errors, errors


def test_the_guest_offer_and_table_on_a_phone(server, phone, screenshots):
    page = phone
    page.goto(f"{server.url}/")
    page.click(f"#play-now article[data-game={GAME}] button[type=submit]")
    page.wait_for_selector("#guest-offer")
    page.screenshot(path=str(screenshots / "guests-offer-phone.png"))
    page.click("#guest-form button[type=submit]")
    page.wait_for_selector("#table-app")
    wait_ready(page, timeout=30_000)
    page.screenshot(path=str(screenshots / "guests-table-phone.png"))
    page.click("header >> text=Log out")
    page.wait_for_selector("#guest-logout-warning")
    page.screenshot(path=str(screenshots / "guests-logout-phone.png"))
