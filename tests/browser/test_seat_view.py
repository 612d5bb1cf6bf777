"""At the table, seat by seat, in Chromium: each seat shows its bid or pass as the auction goes
(Mediatore against bots), a resigned seat reads "resigned" with the bot badge and never wins,
a touch screen confirms each card (a desktop plays it with one click), and on a phone the
header is one row, the pinned prompt leaves your seat in view and a lifted card stays in the
hand. Screenshots in /tmp/shots_seatview/ (desktop 1280 px, phone 390 and 360 px)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import (
    MOVED,
    enabled_hand_cards,
    legal_cards,
    shot,
    state,
    take_turn,
    wait_ready,
    watch_errors,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots_seatview")
PASSWORD = "a long pass phrase"
SMALL_PHONE = {"width": 360, "height": 740}

# Every badge a seat showed, as "seat:kind:text", recorded by an observer of the seats (bots bid
# faster than a test could look).
RECORD_BADGES = """() => {
  window.__badges = new Set();
  const note = () => document.querySelectorAll("[data-badge-seat]").forEach((b) => {
    const said = b.querySelector(".said");
    window.__badges.add(`${b.dataset.badgeSeat}:${said ? said.dataset.said : ""}:${b.textContent}`);
  });
  const seats = document.getElementById("seats");
  new MutationObserver(note).observe(seats, {childList: true, subtree: true});
  note();
}"""

CONTRACTS = {
    "chiamo": "Chiamo",
    "mediatore": "Mediatore",
    "solo": "Solo",
    "solissimo": "Solissimo",
    "arcisolissimo": "Arcisolissimo",
}


@pytest.fixture(scope="module")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def context(browser, viewport: dict, touch: bool = False):
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if touch else {}
    ctx = browser.new_context(viewport=viewport, **extra)
    ctx.set_default_timeout(15_000)
    return ctx


def open_seat(page, server, created: dict, seat: int = 0) -> None:
    token = created["seats"][seat]["token"]
    page.goto(f"{server.url}/tables/{created['table']}/?token={token}")


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# --- the auction at the seats ----------------------------------------------------------------


def test_each_seat_shows_its_bid_or_pass_as_the_auction_goes(server, browser, shots):
    created = server.create_table(
        "mediatore", "ana,Bot Bice,Bot Carlo,Bot Dario", 3, seed=4, deals=1
    )
    page = context(browser, DESKTOP).new_page()
    errors = watch_errors(page)
    open_seat(page, server, created)
    page.wait_for_function("() => window.medianaTable && window.medianaTable.state()")
    page.evaluate(RECORD_BADGES)
    s = wait_ready(page)
    assert s["view"]["phase"] == "auction"
    if s["view"]["bids"]:
        shot(page, shots, "mediatore-auction-badges-desktop")
    # Ana bids once when she can, then passes: the bots answer around her.
    bid_made = False
    while state(page)["view"]["phase"] == "auction":
        s = wait_ready(page, timeout=30_000)
        if s["view"]["phase"] != "auction":
            break
        prefer = [{"act": "pass"}] if bid_made else [{"act": "bid"}, {"act": "pass"}]
        seq = s["seq"]
        take_turn(page, prefer)
        bid_made = True
        page.wait_for_function(MOVED, arg=seq)
        if state(page)["view"]["phase"] == "auction":
            shot(page, shots, "mediatore-auction-badges-desktop")
    bids = state(page)["view"]["bids"]
    assert bids, "nobody bid or passed"
    seen = page.evaluate("() => [...window.__badges]")
    for b in bids:
        if b["act"] == "pass":
            assert f"{b['seat']}:pass:Pass" in seen, (b, seen)
        else:
            assert f"{b['seat']}:bid:{CONTRACTS[b['contract']]}" in seen, (b, seen)
    # Once play starts, the auction's badges are gone (the declarer's contract is a role).
    for _ in range(10):  # Ana may have won it: she calls and exchanges first
        s = wait_ready(page, timeout=30_000)
        if s["view"]["phase"] in ("play", "over") or s["status"] == "finished":
            break
        take_turn(page)
    assert state(page)["view"]["phase"] in ("play", "over")
    assert page.locator("[data-badge-seat]").count() == 0
    assert errors == []


def test_the_prompt_says_what_to_choose(server, browser):
    created = server.create_table("schieberamsch", "ana,Bot Bea,Bot Carl", 2, seed=3, deals=1)
    page = context(browser, DESKTOP).new_page()
    open_seat(page, server, created)
    s = wait_ready(page)
    text = page.inner_text("#prompt-text")
    assert text != "Your turn: choose."
    if s["view"]["phase"] == "offer":
        assert "Grand Hand" in text


# --- a resigned seat --------------------------------------------------------------------------


def sign_up(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


def test_a_resigned_seat_reads_resigned_with_the_bot_badge_and_never_wins(server, browser, shots):
    a = context(browser, DESKTOP).new_page()
    b = context(browser, PHONE, touch=True).new_page()
    errors = watch_errors(a)
    sign_up(a, server.url, "Resa")
    sign_up(b, server.url, "Quinn")
    a.goto(f"{server.url}/play/")
    a.select_option("#create-form select[name=game]", "saichugen")
    a.fill("#create-form input[name=bots]", "1")
    a.fill("#create-form input[name=deals]", "1")
    a.click("#create-form button[type=submit]")
    a.wait_for_selector("#invite-url")
    invite = a.input_value("#invite-url")
    b.goto(invite)
    b.click("#join-form button")
    b.wait_for_url(re.compile(r"/tables/[0-9a-f]+/$"))
    table_url = b.url
    a.goto(table_url)
    wait_ready(a)
    seat_b = b.evaluate("() => window.medianaTable.state().seat")
    assert a.locator(f"#seats .seat[data-seat='{seat_b}'] .tag.resigned").count() == 0

    # Quinn resigns: Resa's page says so at once, and the seat carries the bot badge.
    b.click("#lobby-actions >> text=Resign")
    b.click("#confirm button.danger")
    resigned = f"#seats .seat[data-seat='{seat_b}']"
    a.wait_for_selector(f"{resigned} .tag.resigned")
    assert a.locator(f"{resigned} .tag.bot").count() == 1
    assert a.inner_text(f"{resigned} .tag.resigned") == "resigned"
    shot(a, shots, "resigned-seat-desktop")

    # Resa plays the match out against the bots.
    for _ in range(60):
        s = wait_ready(a, timeout=30_000)
        if s["status"] == "finished":
            break
        take_turn(a)
    s = state(a)
    assert s["status"] == "finished"
    assert seat_b not in s["result"]["winners"] and seat_b in s["result"]["resigned"]
    a.locator("#final").wait_for(state="visible")
    assert "Quinn" not in a.inner_text("#winners")
    assert "Quinn" in a.inner_text("#resigned-note")
    assert a.locator("#timed-out-note").count() == 0
    assert a.locator(f"{resigned}.winner").count() == 0
    assert a.locator(f"{resigned} .tag.resigned").count() == 1  # still, once it is over
    shot(a, shots, "resigned-final-desktop")

    # My games: Quinn's row says he resigned, never that he won.
    b.goto(f"{server.url}/games/")
    row = b.locator("table.my-games tbody tr").first
    assert row.locator(".tag.resigned").count() == 1
    assert "winner" not in (row.get_attribute("class") or "")
    shot(b, shots, "resigned-my-games-phone")
    assert errors == []


# --- move confirmation ------------------------------------------------------------------------


def first_play_turn(page) -> dict:
    """Take turns (the 3-5-8 dealer's trump and discard) until a card is to be played."""
    for _ in range(10):
        s = wait_ready(page)
        if legal_cards(s):
            return s
        take_turn(page)
    raise AssertionError("no card to play")


def test_a_touch_screen_confirms_each_card_and_a_desktop_plays_at_once(server, browser, shots):
    created = server.create_table("saichugen", "ana,Bot Bea,Bot Carl", 2, seed=11, deals=1)
    phone = context(browser, PHONE, touch=True).new_page()
    errors = watch_errors(phone)
    open_seat(phone, server, created)
    s = wait_ready(phone)
    assert phone.evaluate("() => window.medianaTable.confirmMoves()") is True
    card = phone.locator("#hand button.card-btn.legal").first
    name = card.get_attribute("data-card")
    card.tap()
    # Lifted, not sent: the prompt offers to play it (or cancel).
    assert phone.evaluate("() => window.medianaTable.lifted()") == name
    assert phone.evaluate("() => window.medianaTable.pending()") is None
    assert state(phone)["seq"] == s["seq"]
    confirm = phone.locator("#confirm-move")
    assert confirm.is_visible()
    assert confirm.inner_text().startswith("Commit ")
    assert phone.locator(f"#hand button.card-btn.lifted[data-card='{name}']").count() == 1
    shot(phone, shots, "confirm-lifted-phone")
    # The lifted card stays inside the hand box (it does not reach the row above).
    lifted_box = box(phone, f"#hand button[data-card='{name}'] .card")
    hand_box = box(phone, "#hand")
    assert lifted_box["y"] >= hand_box["y"] - 0.5
    # Cancel drops it; a second tap on the lifted card plays it.
    phone.locator("#cancel-move").tap()
    assert phone.evaluate("() => window.medianaTable.lifted()") is None
    card = phone.locator(f"#hand button[data-card='{name}']")
    card.tap()
    card.tap()
    phone.wait_for_function(MOVED, arg=s["seq"])
    assert state(phone)["view"]["my_commit"] == name or state(phone)["seq"] > s["seq"]

    # The table's toggle turns it off on this browser: one tap plays.
    s = wait_ready(phone)
    phone.locator("#confirm-toggle").tap()
    assert phone.evaluate("() => localStorage.getItem('mediana.confirmMoves')") == "off"
    assert phone.locator("#confirm-toggle").get_attribute("aria-pressed") == "false"
    assert phone.locator("#confirm-toggle .confirm-check").inner_text() == "☐"  # reads as off
    phone.locator("#hand button.card-btn.legal").first.tap()
    phone.wait_for_function(MOVED, arg=s["seq"])
    assert errors == []

    # A desktop (a mouse): one click plays, nothing is lifted.
    created = server.create_table("three_five_eight", "ana,Bot Bea,Bot Carl", 2, seed=5, deals=1)
    desk = context(browser, DESKTOP).new_page()
    open_seat(desk, server, created)
    s = first_play_turn(desk)
    assert desk.evaluate("() => window.medianaTable.confirmMoves()") is False
    # The toggle reads as off on a desktop ("auto" with a mouse), not as ticked.
    assert desk.locator("#confirm-toggle .confirm-check").inner_text() == "☐"
    assert enabled_hand_cards(desk) == legal_cards(s)
    desk.locator("#hand button.card-btn.legal").first.click()
    desk.wait_for_function(MOVED, arg=s["seq"])
    assert desk.locator("#confirm-move").count() == 0

    # The page's root may ask for it (the player's preferences): "on" even with a mouse.
    desk.evaluate("() => document.getElementById('table-app').dataset.confirmMoves = 'on'")
    s = wait_ready(desk)
    if legal_cards(s):
        desk.locator("#hand button.card-btn.legal").first.click()
        assert desk.evaluate("() => window.medianaTable.lifted()") is not None
        desk.locator("#confirm-move").click()
        desk.wait_for_function(MOVED, arg=s["seq"])


# --- a phone's layout -------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390", "360"])
def test_on_a_phone_the_header_is_one_row_and_the_prompt_leaves_your_seat_in_view(
    server, browser, shots, viewport
):
    created = server.create_table(
        "mediatore", "ana,Bot Bice,Bot Carlo,Bot Dario", 3, seed=4, deals=2
    )
    page = context(browser, viewport, touch=True).new_page()
    errors = watch_errors(page)
    open_seat(page, server, created)
    wait_ready(page, timeout=30_000)
    width = viewport["width"]
    shot(page, shots, f"phone{width}-auction")
    # The table's header: one row, whatever the game's name and the table's facts.
    head = box(page, ".tbl-head")
    line = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.tbl-head h1')).lineHeight)"
        " || 24"
    )
    assert head["height"] <= line * 1.6 + 4, head
    # Nothing is wider than the screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # Scrolled to your seat, the pinned dock (the prompt and the hand) does not cover it.
    page.locator("#seats .seat.me").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, 0)")
    me = box(page, "#seats .seat.me")
    dock = box(page, "#dock")
    assert not overlap(me, dock), (me, dock)
    # Score tables that do not fit say so (a fade and a hint), never just cut.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    shot(page, shots, f"phone{width}-bottom")
    for scroller in page.locator(".panel .scroll").all():
        fits = scroller.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1")
        if not fits:
            assert "scroll-more" in (scroller.get_attribute("class") or "")
    assert errors == []
