"""A newcomer's first minutes, in Chromium, as issue #15 asks: sign up, press "Play now" for
each game on the home page, play a deal by clicking, find the table in "My games", open its
replay and step to the end, where the score is the record's."""

from __future__ import annotations

import re

import pytest

from games import registry
from games.core.records import score_record
from tests.browser.conftest import browser, desktop, server  # noqa: F401
from tests.browser.play import state, take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a newcomer's pass phrase"
GAMES = registry.game_names()


def sign_up(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/signup/?next=/")  # back home after
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")
    assert page.url.rstrip("/") == url


def play_first_deal(page) -> None:
    """Click what the page offers until the first deal has been scored."""
    for _ in range(300):
        s = wait_ready(page, timeout=30_000)
        if s["status"] == "finished" or s["view"].get("results"):
            return
        take_turn(page)
    raise AssertionError("the first deal did not end")


@pytest.fixture(scope="module")
def newcomer(server, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_up(page, server.url, "Newcomer")
    yield page
    context.close()


@pytest.mark.parametrize("game", GAMES)
def test_play_now_then_my_games_then_the_replay(server, newcomer, game):  # noqa: F811
    page = newcomer
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    page.click(f"#play-now article[data-game={game}] button[type=submit]")
    page.wait_for_selector("#table-app")
    table = re.search(r"/tables/([0-9a-f]+)/", page.url).group(1)
    assert "token" not in page.url  # the session is who we are
    assert wait_ready(page)["seat"] == 0

    play_first_deal(page)
    assert state(page)["view"]["results"], "a deal was played by clicking"

    # Resign the rest: a bot plays the seat out and the table finishes.
    page.click("#lobby-actions >> text=Resign")
    page.click("#confirm button.danger")
    page.wait_for_function(
        "() => window.medianaTable && window.medianaTable.state()"
        " && window.medianaTable.state().status === 'finished'",
        timeout=120_000,
    )

    page.click("header >> text=My games")
    page.wait_for_url("**/games/")
    row = page.locator(f"table.my-games tr[data-table='{table}']")
    row.first.wait_for()  # the page is parsed (count() does not wait; it raced the load)
    assert row.count() == 1
    assert "resigned" in row.inner_text()  # she resigned: said so, not "forfeited"
    row.locator("text=Replay").click()
    page.wait_for_selector("#replay-position")
    assert page.url.endswith(f"/tables/{table}/replay/")

    page.keyboard.press("End")
    page.wait_for_function("() => window.medianaReplay && window.medianaReplay.atEnd()")
    record = page.request.get(f"{server.url}/tables/{table}/record.json").json()
    totals = score_record(record)["totals"]
    seats = registry.get_game(game).seats
    shown = [
        int(page.inner_text(f"[data-final-payout='{s}']").replace("+", "")) for s in range(seats)
    ]
    assert shown == totals["payouts"]
    assert not errors, errors
