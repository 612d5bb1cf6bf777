"""The clock and the person, in Chromium (issue 31, "Paces"): a click made for a decision the
clock already took is dropped, never applied to the next decision; and a new deal's summary
holds the person's clock until they press "Next deal" (the protocol's `ready`).

Screenshots go to /tmp/shots_pace/.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, Server, browser, serve  # noqa: F401
from tests.browser.play import shot, watch_errors
from tests.summary.test_browser import ACT, MOVED

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_pace")
CAP = 30  # GAMEPLAY_DEAL_SUMMARY_SECONDS of this server: the longest a summary holds a clock

# The clock just took ana's commit, and she is to act again at the next trick.
LATE_AND_DUE = """() => {
  const t = window.medianaTable;
  const s = t && t.state();
  return !!s && t.late() && s.to_act.includes(0) && s.legal.length > 0;
}"""
CLICK_A_LEGAL_CARD = """() => {
  const s = window.medianaTable.state();
  const cards = s.legal.filter((e) => e.card).map((e) => e.card);
  const button = document.querySelector(`#hand button[data-card="${cards[0]}"]`);
  button.click();
  return {seq: s.seq, card: cards[0]};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """The browser tests' server (tests/browser/conftest.py) with the deal summary on."""
    with serve(tmp_path_factory.mktemp("pace") / "pace.sqlite3", CAP) as srv:
        yield srv


def open_seat(browser, url: str, viewport: dict) -> tuple[Any, Any, list[dict]]:  # noqa: F811
    """A page at the table, with every message it sent over the socket."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    page = context.new_page()
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))
    page.goto(url)
    page.wait_for_function("() => window.medianaTable && window.medianaTable.state()")
    return context, page, sent


def test_a_late_click_after_the_clock_moved_is_dropped(server, browser):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Saichugen: the bots commit at once, so after the clock commits for ana the trick ends and
    # she is to act again at once — where her late card would be legal. (5 s a move: on a busy
    # machine her next clock must not run out before the test has looked.)
    made = server.create_table(
        "saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=4, seconds_per_move=5
    )
    url = f"{server.url}/tables/{made['table']}/?token={made['seats'][0]['token']}"
    context, page, sent = open_seat(browser, url, DESKTOP)
    errors = watch_errors(page)
    try:
        # She does not move: the clock commits for her (5 s after she opened the page).
        page.wait_for_function(LATE_AND_DUE, timeout=20_000)
        acts_before = [m for m in sent if m.get("type") == "act"]
        clicked = page.evaluate(CLICK_A_LEGAL_CARD)  # her click, a moment too late
        page.wait_for_timeout(400)
        s = page.evaluate("() => window.medianaTable.state()")
        assert [m for m in sent if m.get("type") == "act"] == acts_before, "nothing was sent"
        assert page.evaluate("() => window.medianaTable.pending()") is None
        # The page shows the new decision: her turn, the card still in her hand, not played
        # (the bots' commits to the same trick may have arrived meanwhile: seq may be higher).
        assert s["seq"] >= clicked["seq"] and 0 in s["to_act"], s
        assert clicked["card"] in s["view"]["hand"]
        assert page.locator("#hand button[data-card]:not([disabled])").count() > 0
        assert "the clock chose for you" in page.content()
        shot(page, SHOTS, "late-click-dropped")
        # After the moment has passed, a click is hers again and is played.
        page.wait_for_function("() => !window.medianaTable.late()")
        s = page.evaluate("() => window.medianaTable.state()")
        if 0 in s["to_act"] and s["legal"]:
            page.evaluate(CLICK_A_LEGAL_CARD)
            page.wait_for_function(
                "() => document.querySelectorAll('#hand button').length === 0 || "
                "window.medianaTable.state().seq > 0"
            )
            assert any(m.get("type") == "act" for m in sent[len(acts_before) :])
        assert errors == []
    finally:
        context.close()


def clock_of(page) -> dict:
    return page.evaluate("() => window.medianaTable.state()")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_summary_holds_the_persons_clock_until_next_deal(server, browser, viewport):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    made = server.create_table(
        "saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=4, deals=2, seconds_per_move=20
    )
    url = f"{server.url}/tables/{made['table']}/?token={made['seats'][0]['token']}"
    context, page, sent = open_seat(browser, url, viewport)
    errors = watch_errors(page)
    name = "desktop" if viewport == DESKTOP else "phone"
    try:
        deadline = time.monotonic() + 90
        while True:  # ana plays the first legal card each trick until the first deal ends
            s = clock_of(page)
            if len(s["view"].get("results") or []) >= 1:
                break
            assert time.monotonic() < deadline, "the deal did not end"
            seq = page.evaluate(ACT, [])
            if seq is None:
                page.wait_for_timeout(40)
            else:
                page.wait_for_function(MOVED, arg=seq, timeout=15_000)
        # The summary is open and stays; ana's clock of the new deal waits for her.
        page.wait_for_selector("#deal-summary", state="visible")
        assert page.evaluate("() => window.medianaSummary.open()")["holds"] is True
        assert page.locator("#ds-ok").inner_text() == "Next deal"
        page.wait_for_timeout(2500)
        s = clock_of(page)
        assert s["view"]["deal"] == 1 and 0 in s["to_act"], s
        assert s["clock"]["0"] == 20 and 0 < s["clock_starts_in"] <= CAP, s["clock"]
        assert "Your clock waits" in page.locator("#ds-countdown").inner_text()
        page.locator("#deal-summary .ds").screenshot(path=str(SHOTS / f"summary-holds-{name}.png"))
        assert page.locator("#deal-summary").is_visible(), "it does not close by itself"

        page.locator("#ds-ok").click()  # "Next deal": her clock starts now
        page.wait_for_selector("#deal-summary", state="hidden")
        assert {"type": "ready", "deal": 1} in sent
        page.wait_for_function("() => !('clock_starts_in' in window.medianaTable.state())")
        page.wait_for_timeout(1200)
        s = clock_of(page)
        assert 0 in s["to_act"] and s["clock"]["0"] <= 20
        shown = page.locator("[data-clock-seat='0']").inner_text()
        assert "0:1" in shown, shown  # the clock on the page runs from 0:20 down
        shot(page, SHOTS, f"clock-runs-after-next-deal-{name}")
        assert errors == []
    finally:
        context.close()
