"""A card the rules refuse says why, on hover and on tap (the state's `why_not`), in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.play import (
    enabled_hand_cards,
    legal_cards,
    shot,
    state,
    take_turn,
    wait_ready,
    watch_errors,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_whynot")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

BLOCKED = """() => Array.from(document.querySelectorAll("#hand button.card-btn.blocked")).map(
  (b) => ({card: b.dataset.card, reason: b.dataset.reason, title: b.title,
           face: b.querySelector(".card").title, aria: b.getAttribute("aria-disabled"),
           disabled: b.disabled}))"""


def play_until_a_card_is_refused(page, limit: int = 40) -> dict:
    """Take turns (by clicking) until this seat is to act with cards it may not play."""
    for _ in range(limit):
        s = wait_ready(page)
        if s["status"] == "finished":
            break
        if s.get("why_not"):
            return s
        take_turn(page)
    raise AssertionError("no card was ever refused")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_refused_card_says_why_on_hover_and_on_tap(server, request, viewport):
    page = request.getfixturevalue(viewport)
    SHOTS.mkdir(parents=True, exist_ok=True)
    created = server.create_table("three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5)
    table, me = created["table"], created["seats"][0]["token"]
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{table}/?token={me}")
    s = wait_ready(page)
    assert s["view"]["phase"] == "trump" and "why_not" not in s  # naming trump: no reasons
    assert page.locator("#hand button.card-btn.blocked").count() == 0
    s = play_until_a_card_is_refused(page)
    led = s["view"]["trick"][0]["card"][-1]
    # Worded by the client from the reason's code and params (the engine's English message,
    # "must follow suit H", is for bots): docs/translations.md.
    words = f": You must follow suit: {SUIT_NAMES[led]}."
    blocked = page.evaluate(BLOCKED)
    assert {b["card"] for b in blocked} == set(s["why_not"])
    for b in blocked:
        assert b["reason"] == "must_follow_suit"
        assert b["title"].endswith(words)  # hover: the button and its face
        assert b["face"] == b["title"]
        assert (b["aria"], b["disabled"]) == ("true", False)  # focusable and tappable
    assert enabled_hand_cards(page) == legal_cards(s)  # only the legal cards play
    reason = page.locator("#hand-reason")
    assert reason.is_hidden()
    card = sorted(s["why_not"])[0]
    button = page.locator(f"#hand button[data-card='{card}']")
    # force: Playwright counts an aria-disabled button as not enabled; a browser still lets a
    # person tap it (which is the point)
    if viewport == "phone":
        button.tap(force=True)
    else:
        button.hover()
        button.click(force=True)
    assert reason.is_visible()
    assert reason.inner_text().endswith(words)
    shot(page, SHOTS, f"why_not-{viewport}")
    after = state(page)
    assert after["seq"] == s["seq"] and page.evaluate("() => window.medianaTable.pending()") is None
    # a legal card still plays, and the line goes with the decision it explained
    take_turn(page)
    assert reason.is_hidden()
    assert not errors, errors
