"""Two pages in one seat, and the turn clock, in Chromium (issue 16: "Clicks belong to their
decision", "The clock").

Two pages hold the same seat; at every chosen turn each page clicks a *different* card at the
same moment (both clicks are scheduled in the pages for one instant, dispatched without waiting
for each other). Exactly one card is played, into this trick; the other page's click is dropped,
never re-sent into the next trick — also when the seat won the trick and leads the next one,
where that card would be legal again (the protocol: a click is re-sent after `stale` only at the
same decision). The clock: a person's clock starts when they open the page, not at the deal; a
move the clock makes for them is logged "(by the clock)".

Screenshots go to /tmp/shots_clock/.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, browser, server  # noqa: F401
from tests.browser.play import READY, legal_cards, shot, state, take_turn, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_clock")

# Click `card` at the wall-clock instant `at` (ms): both pages are given the same instant. A page
# whose timer fires late, when it already shows the next decision (the other page's move came
# back first), does not click: a person would be looking at the new trick by then, and that
# would be no race. It notes `raceLate` instead.
CLICK_AT = """([card, at, seq]) => {
  const button = document.querySelector(`#hand button[data-card="${card}"]`);
  window.raceClicked = false;
  window.raceLate = false;
  setTimeout(() => {
    if (window.medianaTable.state().seq > seq) window.raceLate = true;
    else button.click();
    window.raceClicked = true;
  }, Math.max(0, at - Date.now()));
}"""
# The page clicked, nothing is pending and the table is past `seq`.
SETTLED = """(seq) => {
  const t = window.medianaTable;
  const s = t.state();
  return window.raceClicked && !t.pending() && !!s && s.seq > seq;
}"""
# Saichugen: the bots have committed, so the two pages race each other alone.
BOTS_COMMITTED = """() => {
  const v = window.medianaTable.state().view;
  return v.committed[1] && v.committed[2];
}"""
# A page just opened may not have its first state yet (state() is null until it arrives).
AT_SEQ = """(seq) => {
  const s = window.medianaTable && window.medianaTable.state();
  return !!s && s.seq >= seq;
}"""
RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def chromium(browser):  # noqa: F811
    """The suite's one Chromium for the module; each Tab is its own window (context), so
    neither page's timers are throttled as a background tab's would be."""
    return browser


class Tab:
    """One page at the table, with every `act` it sent."""

    def __init__(self, chromium, url: str) -> None:
        self.context = chromium.new_context(viewport=DESKTOP)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.sent: list[dict[str, Any]] = []
        self.errors = watch_errors(self.page)
        self.page.on("websocket", self._watch)
        self.page.goto(url)

    def _watch(self, ws) -> None:
        def sent(payload: str) -> None:
            message = json.loads(payload)
            if message.get("type") == "act":
                self.sent.append(message)

        ws.on("framesent", sent)

    def state(self) -> dict[str, Any]:
        return state(self.page)

    def close(self) -> None:
        self.context.close()


def ready(tab: Tab, seq: int | None = None) -> dict[str, Any]:
    """Wait until the page may act (or the match is over), at `seq` or later."""
    if seq is not None:
        tab.page.wait_for_function(AT_SEQ, arg=seq)
    tab.page.wait_for_function(READY)
    return tab.state()


def strongest(cards: set[str]) -> list[str]:
    """Cards by rank, highest first (the likeliest to take the trick)."""
    return sorted(cards, key=lambda c: RANKS.index(c[0]), reverse=True)


def race(tabs: tuple[Tab, Tab], cards: tuple[str, str]) -> dict[str, Any]:
    """Both pages click their card at the same instant; returns what happened."""
    before = tabs[0].state()
    seq, hand = before["seq"], list(before["view"]["hand"])
    sent_before = [len(t.sent) for t in tabs]
    # Far enough ahead that both pages have their click scheduled before either fires, on a
    # loaded machine too (at 300 ms, a slow second `evaluate` came after the first page's move).
    at = tabs[0].page.evaluate("() => Date.now()") + 1500
    for tab, card in zip(tabs, cards, strict=True):
        tab.page.evaluate(CLICK_AT, [card, at, seq])
    for tab in tabs:
        tab.page.wait_for_function(SETTLED, arg=seq)
    acts = [t.sent[n:] for t, n in zip(tabs, sent_before, strict=True)]
    late = [t.page.evaluate("() => window.raceLate") for t in tabs]
    return {"seq": seq, "hand": hand, "acts": acts, "late": late}


def check_race(tabs: tuple[Tab, Tab], cards: tuple[str, str], run: dict[str, Any]) -> dict:
    """One card of the two was played, the other is still in the hand, and neither page sent
    its click twice (no other seat acts on that seq, so a re-send could only be a click carried
    into a later decision). Returns the seat's next state (its next turn, or the end).

    On a loaded machine one page's timer may fire after the other's move came back; that page
    then did not click (`late`), and the run is no race but must still play exactly one card."""
    # Each page that clicked sent its click once, for the same seq; at least one clicked.
    assert [len(a) for a in run["acts"]] == [0 if late else 1 for late in run["late"]], run
    assert not all(run["late"]), run
    clicked = [(a[0], card) for a, card in zip(run["acts"], cards, strict=True) if a]
    assert [act["seq"] for act, _ in clicked] == [run["seq"]] * len(clicked), run["acts"]
    assert [act["action"]["card"] for act, card in clicked] == [card for _, card in clicked]
    after = ready(tabs[0])
    ready(tabs[1], after["seq"])
    for tab, acts in zip(tabs, run["acts"], strict=True):
        assert not tab.page.evaluate("() => window.medianaTable.pending()")
        if acts:
            again = [a for a in tab.sent if a["id"] == acts[0]["id"]]
            assert again == acts, "a click was sent again after its decision"
    if after["status"] == "playing":
        left = after["view"]["hand"]
        gone = [c for c in run["hand"] if c not in left]
        assert len(gone) == 1 and gone[0] in cards, (gone, cards)
        assert set(cards) - set(gone) <= set(left)
    return after


def true_race(run: dict[str, Any]) -> bool:
    """Both pages clicked for the same decision (neither timer fired late)."""
    return not any(run["late"])


def test_two_pages_in_one_seat_click_different_cards_at_once_in_a_trick_game(
    server,  # noqa: F811
    chromium,
):
    created = server.create_table("three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5)
    table, me = created["table"], created["seats"][0]["token"]
    url = f"{server.url}/tables/{table}/?token={me}"
    tabs = (Tab(chromium, url), Tab(chromium, url))
    turns = races = leads_next = 0
    s = ready(tabs[0])
    while s["status"] == "playing":
        ready(tabs[1], s["seq"])
        cards = legal_cards(s) if s["view"]["phase"] == "play" else set()
        if len(cards) >= 2:
            # Last to play in a trick, with the two strongest cards: the seat may well take the
            # trick and lead the next, where the other card is legal again.
            pick = strongest(cards)
            pair = (pick[0], pick[1]) if len(s["view"]["trick"]) == 2 else (pick[-1], pick[0])
            run = race(tabs, pair)
            after = check_race(tabs, pair, run)
            races += true_race(run)
            # The seat took the trick and leads: the dropped card was legal again right away.
            led = after["seq"] == run["seq"] + 1 and after["status"] == "playing"
            leads_next += true_race(run) and led
            if races == 3:
                shot(tabs[1].page, SHOTS, "two-tabs-3-5-8-after-a-race")
        else:
            take_turn(tabs[0].page)
        turns += 1
        s = ready(tabs[0])
    assert races >= 8, races
    assert leads_next >= 1, "no race in which the seat led the next trick"
    # The record: one action of ana per turn she had, none lost and none applied twice.
    record = server.export_record(table)
    mine = [a for d in record["deals"] for a in d["actions"] if a["seat"] == 0]
    assert len(mine) == turns
    shot(tabs[0].page, SHOTS, "two-tabs-3-5-8-final")
    for tab in tabs:
        assert tab.errors == []
        tab.close()


def test_two_pages_in_one_seat_commit_different_cards_at_once_in_saichugen(
    server,  # noqa: F811
    chromium,
):
    created = server.create_table("saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=9)
    table, me = created["table"], created["seats"][0]["token"]
    url = f"{server.url}/tables/{table}/?token={me}"
    tabs = (Tab(chromium, url), Tab(chromium, url))
    commits = races = 0
    s = ready(tabs[0])
    while s["status"] == "playing":
        tabs[0].page.wait_for_function(BOTS_COMMITTED)
        s = ready(tabs[0])
        ready(tabs[1], s["seq"])
        pick = sorted(legal_cards(s))
        pair = (pick[0], pick[-1])
        tricks = len(s["view"]["tricks"])
        run = race(tabs, pair)
        s = check_race(tabs, pair, run)
        commits += 1
        races += true_race(run)
        # The trick the race was for (the last one done by the seat's next turn) holds one of
        # the two cards as this seat's commit.
        done = tabs[0].state()["view"]["tricks"]
        assert len(done) == tricks + 1 and done[-1]["cards"][0] in pair, (done[-1], pair)
        if commits == 5:
            shot(tabs[1].page, SHOTS, "two-tabs-saichugen-after-five-races")
    assert commits == 15  # five rounds of three tricks: one commit each, none twice
    assert races >= 8, races  # most turns were true races, even on a loaded machine
    record = server.export_record(table)
    assert len([a for a in record["deals"][0]["actions"] if a["seat"] == 0]) == 15
    for tab in tabs:
        assert tab.errors == []
        tab.close()


CLOCK_TEXT = "() => document.querySelector(\"[data-clock-seat='0']\").textContent"


def seconds_shown(text: str) -> int:
    """` · 0:15 left` → 15."""
    minutes, seconds = text.split("·")[1].split()[0].split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_clock_starts_when_the_player_opens_the_page(server, chromium):  # noqa: F811
    created = server.create_table(
        "saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=4, seconds_per_move=15
    )
    table, me = created["table"], created["seats"][0]["token"]
    # The bots commit at once; ana's clock must not run while she is not there.
    time.sleep(4)
    tab = Tab(chromium, f"{server.url}/tables/{table}/?token={me}")
    page = tab.page
    s = ready(tab)
    assert s["to_act"] == [0] and s["clock"]["0"] >= 14.5, s["clock"]
    assert "clock_starts_in" not in s
    page.wait_for_function(CLOCK_TEXT + ".includes('left')")
    assert seconds_shown(page.evaluate(CLOCK_TEXT)) >= 14
    shot(page, SHOTS, "clock-full-at-first-connection")
    page.wait_for_timeout(1500)
    assert seconds_shown(page.evaluate(CLOCK_TEXT)) <= 14, "it runs now"
    # She does not move: the clock commits for her, and the log says so.
    page.wait_for_function(
        "() => document.querySelector('#log').textContent.includes('(by the clock)')",
        timeout=30_000,
    )
    s = state(page)
    assert s["last_action"]["by"] in ("clock", "bot")  # the bots may have committed since
    line = [t for t in page.locator("#log li").all_inner_texts() if "(by the clock)" in t]
    assert line and line[0].startswith("ana (you): time ran out — commit "), line
    shot(page, SHOTS, "clock-moved-for-her")
    assert tab.errors == []
    tab.close()
