"""The end of a deal in Chromium, every game: the summary opens over the new deal, its figures
are the record's result, it stays until the person goes on ("Next deal"; past the cap,
`GAMEPLAY_DEAL_SUMMARY_SECONDS`, 4 s here, too) or closes it by hand, and reopens from the Match
table (fetched from `summary.json` when the page has not seen it); the replay shows it at the
deal's last step.

The person's seat (seat 0) is played from the page by a fixed rule (the first legal action, or
the first one matching `prefer`), through the page's own `Mediana.act`; the bots play at their
basic level from the table's seed. So each seed gives a known deal (found by replaying the same
rule offline): a Schieberamsch Jungfrau with a push (seed 2), a Grand Hand won by the person
(seed 30), a Mediatore Solo (seed 1), a 3-5-8 second hand with an exchange (seed 1).

Screenshots (desktop and phone) go to /tmp/shots_summary/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.core.records import score_record
from tests.browser.conftest import PHONE, Server, browser, desktop, serve  # noqa: F401
from tests.browser.play import watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_summary")
SECONDS = 4  # the longest the summary holds a person's clock (GAMEPLAY_DEAL_SUMMARY_SECONDS) here

# (game, players, deals, seed, prefer, the deal to explain, what its summary must say)
CASES = {
    "jungfrau": (
        "schieberamsch",
        "Ana,Bot Bianca,Bot Bruno",
        2,
        2,
        [{"act": "push"}, {"act": "pass"}],
        0,
        ["\u00d7 2 (Jungfrau)", "(1 push)", "penalty points"],
    ),
    "grand_hand": (
        "schieberamsch",
        "Ana,Bot Bianca,Bot Bruno",
        2,
        30,
        [{"act": "grand_hand"}],
        0,
        ["Grand Hand (24 \u00d7", "(won)", "Grand Hand by Ana"],
    ),
    "solo": (
        "mediatore",
        "Ana,Bot Bianca,Bot Bruno,Bot Carla",
        2,
        1,
        [{"act": "bid", "contract": "solo"}],
        0,
        ["Solo by Ana", "Solo lost, as the declarer", "monte"],
    ),
    "exchange": (
        "three_five_eight",
        "Ana,Bot Bianca,Bot Bruno",
        3,
        1,
        [],
        1,
        ["Trump:", "less the target of", "Balance after this hand"],
    ),
    "saichugen": (
        "saichugen",
        "Ana,Bot Bianca,Bot Bruno",
        2,
        4,
        [],
        0,
        ["the median", "Game scores", "Round 5"],
    ),
}

# One move of seat 0 by the fixed rule, through the page's own `act`; the seq it was sent at,
# or null when it is not the seat's turn (or a click is still on its way).
ACT = """(prefer) => {
  const t = window.medianaTable;
  const s = t && t.state();
  if (!s || !t.connected() || t.pending() || s.status !== "playing") return null;
  if (!(s.to_act || []).includes(s.seat) || !s.legal.length) return null;
  const concrete = (e) => {
    if (e.act === "exchange") {
      const d = e.discard.from.slice(0, e.discard.choose);
      const give = e.give ? e.give.from.find((c) => !d.includes(c)) : null;
      return { act: "exchange", discard: d, give };
    }
    if ("choose" in e) {
      const a = { act: e.act, cards: e.from.slice(0, e.choose) };
      if (e.to !== undefined) a.to = e.to;
      return a;
    }
    return Object.assign({}, e);
  };
  let pick = null;
  for (const want of prefer) {
    pick = s.legal.find((e) => Object.entries(want).every(([k, v]) => e[k] === v));
    if (pick) break;
  }
  window.Mediana.act(concrete(pick || s.legal[0]));
  return s.seq;
}"""
MOVED = "(seq) => !window.medianaTable.pending() && window.medianaTable.state().seq > seq"
OPEN = "() => window.medianaSummary.open()"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """The browser tests' server (tests/browser/conftest.py) with a short summary time."""
    with serve(tmp_path_factory.mktemp("summary") / "summary.sqlite3", SECONDS) as srv:
        yield srv


@pytest.fixture(scope="module")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def play_until(page, prefer: list[dict], deals_over: int, timeout: float = 90) -> dict:
    """Play seat 0 by the fixed rule until `deals_over` deals are finished; the last state."""
    deadline = time.monotonic() + timeout
    while True:
        s = page.evaluate("() => window.medianaTable.state()")
        if s and (len(s["view"].get("results") or []) >= deals_over or s["status"] == "finished"):
            return s
        assert time.monotonic() < deadline, "the deal did not end"
        seq = page.evaluate(ACT, prefer)
        if seq is None:
            page.wait_for_timeout(40)
        else:
            page.wait_for_function(MOVED, arg=seq, timeout=15_000)


def dialog_shot(page, path: Path) -> None:
    """The whole dialog, however tall: the window grown to fit it for the picture."""
    size = page.viewport_size
    height = page.evaluate("() => document.querySelector('#deal-summary .ds').offsetHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 80)})
    page.locator("#deal-summary .ds").screenshot(path=str(path))
    page.set_viewport_size(size)


def totals_shown(page) -> list[tuple[int, int]]:
    seats = page.locator("#deal-summary .ds-seat")
    return [
        (
            int(seats.nth(i).get_attribute("data-score-total")),
            int(seats.nth(i).get_attribute("data-payout-total")),
        )
        for i in range(seats.count())
    ]


def check_steps(page, want: list[tuple[int, int]]) -> int:
    """Each seat's lists as rendered, read as arithmetic: "+ 64" adds, "x 4 -> 304" and
    "/ 10 -> 30" are steps whose figure follows from the one before; every list ends at the
    seat's figure. The number of multiply/divide steps read."""
    ops = 0
    for i, figures in enumerate(want):
        seat = page.locator(f'#deal-summary .ds-seat[data-seat="{i}"]')
        for j, key in enumerate(("score", "payout")):
            texts = seat.locator("ol.ds-parts").nth(j).locator(".ds-part-value").all_inner_texts()
            running = 0
            for text in texts:
                text = text.replace("\u2212", "-").replace(" ", "")
                if text[0] in "\u00d7\u00f7":
                    by, after = (int(x) for x in text[1:].split("\u2192"))
                    exact = running * by if text[0] == "\u00d7" else abs(running) // by
                    if text[0] == "\u00f7" and running < 0:
                        exact = -exact
                    assert after == exact, (key, texts)
                    running, ops = after, ops + 1
                else:
                    assert "\u2192" not in text, texts
                    running += int(text)
            assert running == figures[j], (i, key, texts)
    return ops


def expected(record: dict, k: int) -> list[tuple[int, int]]:
    deal = score_record(record)["deals"][k]
    return list(zip(deal["scores"], deal["payouts"], strict=True))


@pytest.mark.parametrize("case", list(CASES))
def test_the_summary_of_a_deal_is_its_record_and_closes_reopens(
    case,
    server,
    desktop,  # noqa: F811
    browser,  # noqa: F811
    shots,
):
    game, players, deals, seed, prefer, k, words = CASES[case]
    n = len(players.split(","))
    made = server.create_table(game, players, n - 1, deals=deals, seed=seed)
    token = made["seats"][0]["token"]
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{made['table']}/?token={token}")
    page.wait_for_function("() => window.medianaTable && window.medianaTable.connected()")
    play_until(page, prefer, k + 1)

    # It opened by itself when the deal ended, over the next deal, with a countdown.
    page.wait_for_function(f"() => {{ const o = {OPEN[6:]}; return o && o.deal === {k}; }}")
    assert page.evaluate(OPEN)["timed"] is True and page.evaluate(OPEN)["holds"] is True
    assert "Your clock waits" in page.locator("#ds-countdown").inner_text()
    # ... and stays past the cap (the clock runs then) until the person goes on.
    page.wait_for_function(
        "() => document.getElementById('ds-countdown').textContent.includes('running')",
        timeout=(SECONDS + 4) * 1000,
    )
    assert page.locator("#deal-summary").is_visible()
    assert "ds-running" in page.locator("#ds-countdown").get_attribute("class")  # said loudly
    page.locator("#ds-ok").click()  # "Next deal"
    page.wait_for_selector("#deal-summary", state="hidden")

    record = server.export_record(made["table"])
    want = expected(record, k)

    # Reopened from the Match table: the same figures, the record's, until closed by hand.
    page.locator(f'#match-scores button[data-summary-deal="{k}"]').click()
    page.wait_for_selector("#deal-summary", state="visible")
    assert page.evaluate(OPEN) == {"deal": k, "timed": False, "holds": False}
    assert totals_shown(page) == want
    ops = check_steps(page, want)
    if case in ("jungfrau", "solo"):  # a push, a Jungfrau and the divisor; whole points ÷ 3
        assert ops
    text = page.locator("#deal-summary").inner_text()
    for word in words:
        assert word in text, (word, text)
    # Every seat's score line ends with its total.
    for i, (score, payout) in enumerate(want):
        seat = page.locator(f'#deal-summary .ds-seat[data-seat="{i}"]')
        line = seat.locator('[data-formula="score"]').inner_text().replace("\u2212", "-")
        assert line.split(" = ")[-1].startswith(f"{score} ")
        line = seat.locator('[data-formula="payout"]').inner_text().replace("\u2212", "-")
        assert line.split(" = ")[-1] == (f"+{payout}" if payout > 0 else str(payout))
    dialog_shot(page, shots / f"{case}_desktop.png")
    page.screenshot(path=str(shots / f"{case}_desktop_page.png"))
    page.locator("#ds-close").click()
    page.wait_for_selector("#deal-summary", state="hidden")

    # The legend under the Match table says what the figures mean.
    legend = page.locator("#match-legend").inner_text()
    assert "Score:" in legend and "Payout:" in legend
    if game == "schieberamsch":
        assert "lower is better" in legend and "lowest total penalty wins" in legend
    page.locator("#match-scores").screenshot(path=str(shots / f"{case}_match_legend.png"))

    # Escape closes it too.
    page.locator(f'#match-scores tr[data-deal="{k}"] td').first.click()
    page.wait_for_selector("#deal-summary", state="visible")
    page.keyboard.press("Escape")
    page.wait_for_selector("#deal-summary", state="hidden")

    # A fresh page (a spectator on a phone) has not seen the deal end: the row fetches it.
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        other = phone.new_page()
        other_errors = watch_errors(other)
        other.goto(f"{server.url}/tables/{made['table']}/")
        other.wait_for_selector(f'#match-scores button[data-summary-deal="{k}"]')
        with other.expect_response(lambda r: "summary.json" in r.url and r.status == 200):
            other.locator(f'#match-scores button[data-summary-deal="{k}"]').click()
        other.wait_for_selector("#deal-summary", state="visible")
        assert totals_shown(other) == want
        other.screenshot(path=str(shots / f"{case}_phone.png"))
        other.locator("#deal-summary .ds").screenshot(path=str(shots / f"{case}_phone_dialog.png"))
        assert other_errors == []
    finally:
        phone.close()
    assert errors == []


def test_the_replay_shows_the_summary_at_each_deals_last_step(server, desktop, shots):  # noqa: F811
    made = server.create_table("schieberamsch", "Bot Ada,Bot Bianca,Bot Bruno", 3, deals=2, seed=2)
    deadline = time.monotonic() + 60
    while not score_record(record := server.export_record(made["table"]))["complete"]:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{made['table']}/replay/")
    page.wait_for_selector("#replay-position")
    assert page.locator("#replay-summary").is_hidden()  # the deal as dealt
    page.keyboard.press("End")  # the match's last step: the last deal's end
    page.wait_for_selector("#replay-summary .ds-body")
    last = len(record["deals"]) - 1
    seats = page.locator("#replay-summary .ds-seat")
    shown = [
        (
            int(seats.nth(i).get_attribute("data-score-total")),
            int(seats.nth(i).get_attribute("data-payout-total")),
        )
        for i in range(seats.count())
    ]
    assert shown == expected(record, last)
    page.screenshot(path=str(shots / "replay_desktop.png"), full_page=True)
    page.keyboard.press("ArrowLeft")  # one step before the end: the deal is not over
    page.wait_for_function("() => document.getElementById('replay-summary').hidden")
    assert errors == []


def card_points_shown(page) -> list[str]:
    row = page.locator("#deal-scores tr", has=page.locator("th", has_text="card points"))
    return row.first.locator("td").all_inner_texts()


def test_this_deal_counts_the_skat_where_the_summary_does(server, desktop, shots):  # noqa: F811
    """A finished Schieberamsch deal: the "This deal" panel's card points are the summary's, the
    skat included where it went ("57 (incl. skat 10)"), at the table and at the replay's end."""
    made = server.create_table("schieberamsch", "Bot Ada,Bot Bianca,Bot Bruno", 3, deals=1, seed=5)
    deadline = time.monotonic() + 60
    while not score_record(server.export_record(made["table"]))["complete"]:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    page = desktop
    errors = watch_errors(page)
    url = f"{server.url}/tables/{made['table']}/"
    summary = page.request.get(f"{url}summary.json?deal=0").json()
    table = {r["code"]: r["values"] for r in summary["table"]}
    assert max(table["skat"]) > 0, "pick a seed whose skat holds card points"
    for where in (url, f"{url}replay/"):
        page.goto(where)
        if where.endswith("replay/"):
            page.wait_for_selector("#replay-position")
            page.keyboard.press("End")
        page.wait_for_function(
            "() => document.querySelector('#deal-scores td.outcome, #deal-scores .outcome')"
        )
        cells = card_points_shown(page)
        assert [int(c.split()[0]) for c in cells] == table["card_points"], (where, cells)
        for cell, skat in zip(cells, table["skat"], strict=True):
            assert (f"(incl. skat {skat})" in cell) == (skat > 0), cell
    page.locator("#deal-scores").screenshot(path=str(shots / "this_deal_with_skat.png"))
    assert errors == []


def test_after_the_matchs_last_deal_no_clock_time_is_promised(server, desktop):  # noqa: F811
    """The summary of a match's last deal counts down its own closing only: there is no next
    deal whose first turn would get more time."""
    made = server.create_table("schieberamsch", "Ana,Bot Bianca,Bot Bruno", 2, deals=1, seed=2)
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{made['table']}/?token={made['seats'][0]['token']}")
    page.wait_for_function("() => window.medianaTable && window.medianaTable.connected()")
    state = play_until(page, [{"act": "push"}, {"act": "pass"}], 1)
    page.wait_for_function("() => window.medianaTable.state().status === 'finished'")
    page.wait_for_function(f"() => {{ const o = {OPEN[6:]}; return o && o.deal === 0; }}")
    countdown = page.locator("#ds-countdown").inner_text()
    assert countdown.startswith("Closes in") and "clock" not in countdown, (countdown, state)
    assert page.locator("#ds-ok").inner_text() == "Close"  # no "Next deal" after the last one
    assert errors == []
