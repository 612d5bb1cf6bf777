"""In Chromium: a Mediatore contract's explanation opens on hover (desktop) and on a tap (phone),
the table links the rules page, and the rules pages at desktop and phone width (screenshots)."""

from __future__ import annotations

import pytest

from games import registry
from tests.browser.play import shot, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def eldest_at_mediatore(server) -> str:
    """A Mediatore table where ana sits at seat 1, the eldest (seat 0 deals): her bid opens the
    auction, so every contract is on offer. Seat 0 is a person who never comes (no clock)."""
    made = server.create_table("mediatore", "nobody,ana,bot2,bot3", 2, seed=11)
    return f"{server.url}{made['url']}?token={made['seats'][1]['token']}"


def test_a_contracts_explanation_shows_on_hover_and_on_a_tap(server, desktop, phone, screenshots):
    hints = registry.get_game("mediatore").hints
    url = eldest_at_mediatore(server)
    errors = watch_errors(desktop)
    desktop.goto(url)
    state = wait_ready(desktop)
    assert state["seat"] == 1 and state["to_act"] == [1]

    solo = desktop.locator("#action-buttons button[data-contract=solo]")
    assert solo.get_attribute("title") == hints["contract.solo"]
    tip = desktop.locator(".hint[data-hint='contract.solo']")
    text = tip.locator(".hint-text")
    assert not text.is_visible()
    tip.locator(".hint-i").hover()
    text.wait_for(state="visible")
    assert text.inner_text() == hints["contract.solo"]
    # On screen, not cut off by the window.
    box = text.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= desktop.viewport_size["width"]
    shot(desktop, screenshots, "rules-hint-hover-desktop")
    desktop.mouse.move(1, 1)
    text.wait_for(state="hidden")
    # A click opens it; a second click closes it, though the (i) had the focus (a walk found
    # it stayed shown); Escape closes it too.
    tip.locator(".hint-i").click()
    text.wait_for(state="visible")
    tip.locator(".hint-i").click()
    desktop.mouse.move(1, 1)
    text.wait_for(state="hidden")
    tip.locator(".hint-i").click()
    text.wait_for(state="visible")
    desktop.keyboard.press("Escape")
    desktop.mouse.move(1, 1)
    text.wait_for(state="hidden")
    # The goal and the rules page, from the table's header.
    assert "6 of the 11" in desktop.locator("#goal").inner_text()
    assert desktop.locator("#rules-link").get_attribute("href") == "/games/mediatore/"
    assert errors == []

    # A phone has no hover: a tap opens it, a tap elsewhere closes it, and the button still acts.
    phone.goto(url)
    wait_ready(phone)
    chiamo = phone.locator(".hint[data-hint='contract.chiamo']")
    chiamo.locator(".hint-i").tap()
    box = chiamo.locator(".hint-text")
    box.wait_for(state="visible")
    assert box.inner_text() == hints["contract.chiamo"]
    assert chiamo.locator(".hint-i").get_attribute("aria-expanded") == "true"
    shot(phone, screenshots, "rules-hint-tap-phone")
    phone.locator("#prompt-text").tap()
    box.wait_for(state="hidden")


@pytest.mark.parametrize("game", registry.game_names())
def test_the_rules_pages_at_desktop_and_phone_width(server, desktop, phone, screenshots, game):
    for page, size in ((desktop, "desktop"), (phone, "phone")):
        errors = watch_errors(page)
        page.goto(f"{server.url}/games/{game}/")
        assert page.locator("#goal").is_visible()
        # Nothing wider than the screen: wide tables scroll inside their box.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{game} at {size}: {width}px wide"
        shot(page, screenshots, f"rules-{game}-{size}")
        assert errors == []
