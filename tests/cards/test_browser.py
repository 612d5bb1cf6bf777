"""Cards of each game's home in Chromium (issue #31): a German table shows B and D (Bube,
Dame) where the codes say J and Q; Mediatore is drawn with Italian suits (a coin, a cup, a
sword, a baton); a player who chose French faces sees J Q K A and French suits instead.
Screenshots at desktop and phone size in /tmp/shots_cards/ (and test-output/screenshots/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import shot, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_cards")
# Each card of the hand: its code, the letter it shows, and whether its pip is a drawing.
HAND = """() => [...document.querySelectorAll("#hand .card[data-card]")].map((c) => ({
  card: c.dataset.card, rank: c.querySelector(".rank").textContent,
  svg: c.querySelector(".pip svg")?.getAttribute("class") || null,
  pip: c.querySelector(".pip").textContent}))"""
USER = """
from django.contrib.auth import get_user_model
get_user_model().objects.create_user("franca", password="a long pass phrase",
    card_faces="french", language="de")
"""


@pytest.fixture(scope="module")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def context(browser, phone: bool = False, locale: str = "en-US"):
    if phone:
        made = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale=locale
        )
    else:
        made = browser.new_context(viewport=DESKTOP, locale=locale)
    made.set_default_timeout(15_000)
    return made


def seat_url(server, game: str, seed: int) -> str:
    """Ana's seat (seat 0) at a new table of `game`, bots in the others, a slow clock."""
    seats = {"mediatore": "Ana,Bot B,Bot C,Bot D"}.get(game, "Ana,Bot B,Bot C")
    bots = seats.count(",")
    created = server.create_table(game, seats, bots, seed=seed, seconds_per_move=600)
    return f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}"


def open_table(page, url: str) -> list[dict]:
    page.goto(url)
    wait_ready(page)
    page.wait_for_selector("#hand .card[data-card]")
    return page.evaluate(HAND)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_german_table_shows_bube_and_dame(server, browser, shots, phone):
    made = context(browser, phone, "de-DE")
    page = made.new_page()
    errors = watch_errors(page)
    hand = open_table(page, seat_url(server, "schieberamsch", 4))
    assert page.get_attribute("#table-app", "data-card-faces") == "home"
    letters = {c["card"][:-1]: c["rank"] for c in hand if c["card"][:-1] in "JQKA"}
    assert {"J", "Q"} <= set(letters), f"the deal should hold a jack and a queen: {hand}"
    assert letters["J"] == "B" and letters["Q"] == "D"
    assert letters.get("K", "K") == "K" and letters.get("A", "A") == "A"
    assert not any(c["rank"] in ("J", "Q") for c in hand)
    # The log and the titles name the cards in German words too.
    assert "Bube" in page.get_attribute('#hand .card[data-card^="J"]', "title")
    shot(page, shots, f"german-{'phone' if phone else 'desktop'}")
    made.close()
    assert errors == []


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_mediatore_is_drawn_with_italian_suits(server, browser, shots, phone):
    made = context(browser, phone, "it-IT")
    page = made.new_page()
    errors = watch_errors(page)
    hand = open_table(page, seat_url(server, "mediatore", 9))
    # Every card's pip is its suit drawn, one drawing a suit; the letters stay Italian.
    for card in hand:
        assert card["svg"] == f"suit-svg suit-svg-{card['card'][-1]}", card
    assert len({c["card"][-1] for c in hand}) >= 3
    assert {c["rank"] for c in hand} <= set("32ARCF7654")
    # Drawn in the suit's own colour, each suit its own.
    colours = page.evaluate("""() => Object.fromEntries([..."dcsb"].map((s) => [s,
        getComputedStyle(document.querySelector(".suit-" + s) || document.body).color]))""")
    shown = {c["card"][-1] for c in hand}
    assert len({colours[s] for s in shown}) == len(shown)
    assert page.locator("#legend svg").count() == 4
    shot(page, shots, f"mediatore-{'phone' if phone else 'desktop'}")
    made.close()
    assert errors == []


def test_french_faces_when_the_player_chose_them(server, browser, shots):
    server.manage("shell", "-c", USER)
    made = context(browser, False, "de-DE")
    page = made.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=login]", "franca")
    page.fill("input[name=password]", "a long pass phrase")
    page.click("form button[type=submit]")
    page.wait_for_selector("a.prefs")
    page.goto(f"{server.url}/accounts/preferences/")
    assert page.is_checked('input[name=card_faces][value="french"]')
    shot(page, shots, "preferences-desktop")
    hand = open_table(page, seat_url(server, "schieberamsch", 4))
    assert page.get_attribute("#table-app", "data-card-faces") == "french"
    assert page.get_attribute("#table-app", "data-confirm-moves") == "auto"
    letters = {c["card"][:-1]: c["rank"] for c in hand}
    assert letters["J"] == "J" and letters["Q"] == "Q"
    hand = open_table(page, seat_url(server, "mediatore", 9))
    assert all(c["svg"] is None for c in hand)
    glyphs = {c["card"][-1]: c["pip"] for c in hand}
    assert set(glyphs.values()) <= set("♦♥♠♣") and glyphs.get("d", "♦") == "♦"
    assert not ({c["rank"] for c in hand} & set("RCF"))
    shot(page, shots, "mediatore-french-desktop")
    made.close()
    assert errors == [], json.dumps(errors)
