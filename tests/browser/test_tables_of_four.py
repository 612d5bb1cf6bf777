"""A table of four in each three-player game, in Chromium, two people and two bots: the first
person deals first, so he sits out the first deal and watches it as a spectator does ("sits
out this deal", no cards, who sits out next) while the second plays it; then both play the
match to its end, one seat sitting out each deal, and the page's final scores are the
record's. Screenshots in test-output/screenshots/four-*.png (desktop and phone)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import (
    check_final_against_record,
    shot,
    state,
    take_turn,
    wait_ready,
    watch_errors,
)

pytestmark = pytest.mark.browser

GAMES = ["saichugen", "three_five_eight", "schieberamsch"]
LOADED = "() => Boolean(window.medianaTable && window.medianaTable.state())"


def open_page(browser, viewport: dict, url: str, phone: bool = False):
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}
    context = browser.new_context(viewport=viewport, **extra)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(url)
    page.wait_for_function(LOADED)
    return context, page, errors


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_four_the_sitter_watches_then_plays(game, server, browser, screenshots):
    short = game[:5]
    first, second = f"four-{short}-a", f"four-{short}-b"
    players = ",".join([first, second, f"Bot A {short}", f"Bot B {short}"])
    options = {"deals": 4, "seed": 5, "seconds_per_move": 600}
    if game == "three_five_eight":
        options["variant"] = '{"fixed_length": true}'  # all four hands, whatever is taken
    created = server.create_table(game, players, 2, **options)
    base = f"{server.url}/tables/{created['table']}/?token="
    contexts, pages, errors = [], [], []
    for seat, viewport in ((0, DESKTOP), (1, DESKTOP)):
        url = base + created["seats"][seat]["token"]
        context, page, page_errors = open_page(browser, viewport, url)
        contexts.append(context)
        pages.append(page)
        errors.append(page_errors)
    sitter_page, player_page = pages

    # The first deal: the first person dealt, so he sits out; the second plays.
    s = state(sitter_page)
    assert s["view"]["sitter"] == 0 and s["view"]["playing"] == [1, 2, 3]
    sitter_page.locator("#seats [data-seat='0'] .tag.sitter").wait_for(state="visible")
    assert sitter_page.locator("#hand button.card-btn").count() == 0
    assert "sit out this deal" in sitter_page.locator("#prompt-text").inner_text()
    assert sitter_page.locator("#sitter-info").inner_text().startswith(first)
    assert state(sitter_page)["legal"] == []
    shot(sitter_page, screenshots, f"four-{short}-sitter-desktop")
    phone_context, phone, phone_errors = open_page(
        browser, PHONE, base + created["seats"][0]["token"], phone=True
    )
    phone.locator("#seats [data-seat='0'] .tag.sitter").wait_for(state="visible")
    shot(phone, screenshots, f"four-{short}-sitter-phone")
    wait_ready(player_page)
    shot(player_page, screenshots, f"four-{short}-player-desktop")

    # Both play to the end: each page moves when its own state says it is to act (in
    # Saichugen both commit at once).
    pending = "() => window.medianaTable.pending()"
    for _ in range(3000):
        states = [state(p) for p in pages]
        if all(x["status"] == "finished" for x in states):
            break
        ready = [
            p
            for p, x in zip(pages, states, strict=True)
            if x["status"] == "playing" and x["legal"] and not p.evaluate(pending)
        ]
        if ready:
            take_turn(ready[0])
        else:
            pages[0].wait_for_timeout(100)
    for page in pages:
        wait_ready(page, timeout=60_000)
    scored = check_final_against_record(sitter_page, server, created["table"])
    assert [d["sitter"] for d in scored["deals"]] == [0, 1, 2, 3]
    shot(sitter_page, screenshots, f"four-{short}-final-desktop")
    phone.reload()
    wait_ready(phone)
    shot(phone, screenshots, f"four-{short}-final-phone")
    assert errors == [[], []] and phone_errors == []
    phone_context.close()
    for context in contexts:
        context.close()
