"""The replay page in Chromium: bots' finished matches of every game, stepped through with the
buttons, the arrow keys, Home and End and the deal picker, to the final score of the record.

Screenshots (desktop and phone, every game) go to /tmp/shots_replay/."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from games.core.records import score_record
from tests.browser.conftest import browser, desktop, phone, server  # noqa: F401
from tests.browser.play import watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_replay")
GAMES = {
    "saichugen": ("Ana,Bot Bianca,Bot Bruno", 2),
    "three_five_eight": ("Ana,Bot Bianca,Bot Bruno", 2),
    "schieberamsch": ("Ana,Bot Bianca,Bot Bruno", 2),
    "mediatore": ("Ana,Bot Bianca,Bot Bruno,Bot Carla", 1),
}
POSITION = "() => window.medianaReplay && window.medianaReplay.position()"
# The replay has left position `here` (a step taken; a deal may have had to be fetched first).
MOVED = """(here) => {
  const p = window.medianaReplay.position();
  return p.deal !== here.deal || p.step !== here.step;
}"""


@pytest.fixture(scope="module")
def finished(server):  # noqa: F811
    """One finished bots' table per game (all four play at once), with its record."""
    tables = {}
    for game, (players, deals) in GAMES.items():
        n = len(players.split(","))
        tables[game] = server.create_table(game, players, n, deals=deals, seed=3)["table"]
    records = {}
    deadline = time.monotonic() + 120
    for game, table in tables.items():
        while True:
            record = server.export_record(table)
            if score_record(record, n_deals=GAMES[game][1])["complete"]:
                records[game] = (table, record)
                break
            assert time.monotonic() < deadline, f"{game} table {table} did not finish"
            time.sleep(0.5)
    # The record is complete when the last action is in; the table is finished in that commit.
    return records


def position(page) -> dict:
    return page.evaluate(POSITION)


def step_number(page) -> int:
    return int(page.locator("#replay-position").get_attribute("data-step"))


def final_scores(page, n: int) -> tuple[list[int], list[int]]:
    scores = [int(page.inner_text(f"[data-final-score='{s}']")) for s in range(n)]
    payouts = [
        int(page.inner_text(f"[data-final-payout='{s}']").replace("+", "")) for s in range(n)
    ]
    return scores, payouts


def open_replay(page, server, table: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/tables/{table}/replay/")
    page.wait_for_function(POSITION)


def test_stepping_through_a_replay_to_the_final_score(server, desktop, finished):  # noqa: F811
    page = desktop
    table, record = finished["saichugen"]
    scored = score_record(record, n_deals=2)
    total = sum(len(d["actions"]) for d in record["deals"])
    first_deal = len(record["deals"][0]["actions"])
    errors = watch_errors(page)
    # The finished table links to its replay, in its header and beside the record at the end.
    page.goto(f"{server.url}/tables/{table}/")
    page.wait_for_selector("#replay-link-final")
    assert page.locator("#replay-link").is_visible()
    page.click("#replay-link-final")
    page.wait_for_function(POSITION)
    assert page.url == f"{server.url}/tables/{table}/replay/"

    # As dealt: every hand face up, the record's, nobody has played.
    assert page.inner_text("#replay-position") == f"Deal 1 of 2 · step 0 of {total}"
    for seat, dealt in enumerate(record["deals"][0]["hands"]):
        shown = page.eval_on_selector_all(
            f"[data-hand-seat='{seat}'] .card", "els => els.map(e => e.dataset.card)"
        )
        assert sorted(shown) == sorted(dealt)
    assert (
        page.locator("#replay-first").is_disabled() and page.locator("#replay-prev").is_disabled()
    )

    # The buttons step forward and back, and each step names its action.
    for n in (1, 2, 3):
        page.click("#replay-next")
        assert step_number(page) == n
    page.click("#replay-prev")
    assert step_number(page) == 2
    action = record["deals"][0]["actions"][1]
    assert page.inner_text("#replay-label").startswith(
        ["Ana", "Bot Bianca", "Bot Bruno"][action["seat"]]
    )
    assert "commits" in page.inner_text("#replay-label")
    # A commit of a replay is face up: everyone's cards are visible.
    assert page.locator(f"#trick [data-card='{action['card']}']").count() == 1

    # The arrow keys walk on, into the second deal (fetched as it is needed), to the end.
    presses = 0
    while not page.evaluate("() => window.medianaReplay.atEnd()"):
        here = position(page)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(MOVED, arg=here)
        presses += 1
    # one press per action, and one more per deal into the next deal as dealt
    assert presses == total - 2 + len(record["deals"]) - 1
    assert step_number(page) == total
    assert position(page)["deal"] == 1
    # The final score is the record's.
    assert page.locator("#final").is_visible()
    assert final_scores(page, 3) == (scored["totals"]["scores"], scored["totals"]["payouts"])
    assert page.locator("#replay-next").is_disabled() and page.locator("#replay-last").is_disabled()

    # Back across the deal boundary with the left arrow: the first deal as it ended.
    while position(page)["deal"] == 1:
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(POSITION)
    assert step_number(page) == first_deal
    assert "The deal is over." in page.inner_text("#replay-label")

    # Home and End jump; the deal picker opens a deal at its start.
    page.keyboard.press("Home")
    assert step_number(page) == 0 and position(page)["deal"] == 0
    page.keyboard.press("End")
    assert step_number(page) == total
    page.select_option("#replay-deal", "1")
    page.wait_for_function("() => window.medianaReplay.position().deal === 1")
    assert step_number(page) == first_deal and position(page)["step"] == 0
    page.keyboard.press("ArrowRight")  # the picker gave the keys back
    assert position(page)["step"] == 1
    assert errors == []


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def mid_trick(record: dict) -> int:
    """A step of the first deal where a trick is half played (cards on the table)."""
    actions = record["deals"][0]["actions"]
    plays = [j for j, a in enumerate(actions) if a["act"] in ("play", "commit")]
    seats = len(record["deals"][0]["hands"])
    return plays[seats + 1] + 1  # two cards of the second trick are down


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_replays_on_a_desktop_and_a_phone(
    server,  # noqa: F811
    desktop,  # noqa: F811
    phone,  # noqa: F811
    finished,
    game,
):
    table, record = finished[game]
    scored = score_record(record, n_deals=GAMES[game][1])
    n = len(record["deals"][0]["hands"])
    for page, width in ((desktop, "desktop"), (phone, "phone")):
        errors = watch_errors(page)
        open_replay(page, server, table)
        shoot(page, f"{game}-{width}-dealt")
        target = mid_trick(record)
        for _ in range(target):
            page.keyboard.press("ArrowRight")
        assert step_number(page) == target
        assert page.locator("#trick .card:not(.empty)").count() >= 1
        shoot(page, f"{game}-{width}-playing")
        page.click("#replay-last")
        page.wait_for_function("() => window.medianaReplay.atEnd()")
        assert final_scores(page, n) == (scored["totals"]["scores"], scored["totals"]["payouts"])
        shoot(page, f"{game}-{width}-end")
        assert errors == []
