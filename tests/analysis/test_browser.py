"""Game analysis end to end in Chromium, one finished table of each game: Ana plays her seat by
clicking, and at one card of the deal plays on purpose the card the strong evaluator values
worst (a blunder's worth below the best); after the match she asks for the analysis on the
replay page, and that decision is marked ?? with the better card and its cost. A tiny budget
(`GAMEPLAY_ANALYSIS_ITERATIONS`) keeps it quick; the server's is the test's, so the evaluator
here sees the same worlds. Screenshots (desktop and phone) go to /tmp/shots_analysis/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import analysis
from games.ask import Position
from games.core.bots.search import Budget
from tests.browser.conftest import PHONE, browser, serve  # noqa: F401
from tests.browser.play import click_and_wait, take_turn, wait_ready, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_analysis")
ITERATIONS = 6
GAMES = {  # players (Ana first, the rest bots) and deal seeds to try, in order
    "schieberamsch": ("ana,Bot Bianca,Bot Bruno", (1, 2, 5)),
    "mediatore": ("ana,Bot Bianca,Bot Bruno,Bot Carla", (4, 5, 1, 3, 2, 6, 7, 8, 9, 10)),
    "three_five_eight": ("ana,Bot Bianca,Bot Bruno", (2, 1, 4)),
    "saichugen": ("ana,Bot Bianca,Bot Bruno", (3, 1)),
}
USER = (
    "from django.contrib.auth import get_user_model; "
    "get_user_model().objects.create_user('ana', password='a long pass phrase')"
)
OTHERS_COMMITTED = """() => {
  const s = window.medianaTable.state();
  return s.status !== "playing" || s.view.committed.every((c, i) => i === s.seat || c);
}"""
DONE = "() => ['done', 'failed'].includes(window.medianaReplay.analysis().status)"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator:
    with serve(
        tmp_path_factory.mktemp("analysis") / "analysis.sqlite3",
        GAMEPLAY_ANALYSIS_ITERATIONS=str(ITERATIONS),
    ) as running:
        running.manage("shell", "-c", USER)
        yield running


@pytest.fixture(scope="module")
def signed_in(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=login]", "ana")
    page.fill("input[name=password]", "a long pass phrase")
    page.click("form button[type=submit]")
    page.wait_for_selector("a.prefs")
    yield context
    context.close()


def worst_card(game: str, s: dict, table: str) -> tuple[dict, float] | None:
    """The card the server's evaluator will value worst here, when it loses clearly more than a
    blunder's worth (the same seed and budget as the server's analysis), else None."""
    cards = [e for e in s["legal"] if e["act"] in ("play", "commit") and "card" in e]

    if len(cards) < 2 or len(cards) != len(s["legal"]):
        return None
    view = s["view"]
    k, j = view["deal"], s["deal_actions"]
    pos = Position(game, s["seat"], view, s["legal"], [])
    rng = random.Random(f"analysis/{table}/{k}/{j}")
    means = analysis.values(pos, cards[0], Budget(seconds=None, iterations=ITERATIONS), rng)
    best = max(v for _, v in means)
    worst, value = min(means, key=lambda m: m[1])
    if best - value < 1.1 * analysis.scale(game) * dict(analysis.THRESHOLDS)["blunder"]:
        return None
    return worst, best - value


def play_with_a_blunder(page, game: str, table: str) -> str | None:
    """Ana's seat played to the end by clicks; the card of her blunder (None: she had no card
    that loses a blunder's worth in this deal). Found in the result by its card, not by the seq
    of the click: at Saichugen's simultaneous commits a bot's may land first."""
    blunder = None
    actions = 0
    while True:
        s = wait_ready(page)
        if s["status"] == "finished":
            break
        if game == "saichugen":  # the bots commit first, so the seq (the rng's key) holds still
            page.wait_for_function(OTHERS_COMMITTED)
            s = wait_ready(page)
        s["deal_actions"] = page.evaluate("() => window.medianaTable.state().seq")
        choice = None if blunder is not None else worst_card(game, s, table)
        if choice is not None:
            card = blunder = choice[0]["card"]
            click_and_wait(page, page.locator(f"#hand button.card-btn[data-card='{card}']"))
        else:
            take_turn(page, prefer=[{"act": "pass"}, {"act": "push"}])  # no Grand Hand
        actions += 1
    return blunder


@pytest.mark.parametrize("game", list(GAMES))
def test_a_blunder_made_on_purpose_is_marked(server, signed_in, game):
    players, seeds = GAMES[game]
    n = len(players.split(","))
    page = signed_in.new_page()
    errors = watch_errors(page)
    for seed in seeds:  # a deal in which Ana can blunder with a card
        table = server.create_table(game, players, n - 1, seed=seed)["table"]
        page.goto(f"{server.url}/tables/{table}/")
        j = play_with_a_blunder(page, game, table)
        if j is not None:
            break
    assert j is not None, f"{game}: Ana had no card that loses a blunder's worth"

    page.goto(f"{server.url}/tables/{table}/replay/")
    page.wait_for_selector("#analyse")
    page.click("#analyse")
    page.wait_for_function(DONE, timeout=60_000)
    result = page.evaluate("() => window.medianaReplay.analysis().result")
    entry = next(
        e
        for e in result["decisions"]
        if e["deal"] == 0 and e["seat"] == 0 and e["taken"].get("card") == j
    )
    j = entry["index"]
    assert entry["mark"] == "blunder", entry
    # The mark on the step, the better card and the cost.
    page.click(f"[data-jump='0/{j}']")
    mark = page.locator("#analysis-step .analysis-mark.blunder")
    assert mark.inner_text() == "??"
    step = page.inner_text("#analysis-step")
    assert "Blunder" in step and "Better would be:" in step and "on average" in step
    if game == "three_five_eight":  # a cost in the game's own payout unit
        assert "trick" in page.inner_text("#analysis-step .analysis-cost")
    assert page.locator("#replay-label .analysis-mark.blunder").count() == 1
    assert page.locator("#analyse-form").is_hidden()  # done: nothing to ask for again
    assert page.locator("[data-accuracy='0']").is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-desktop.png"), full_page=True)
    # At a phone's width the analysis fits the screen, and scrolled down to the hands the
    # step's mark and its explanation stay in sight (inside the sticky controls).
    page.set_viewport_size(PHONE)
    box = page.locator("#analysis").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
    page.screenshot(path=str(SHOTS / f"{game}-phone.png"), full_page=True)
    page.locator("#replay-hands").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 300")
    explained = page.locator("#analysis-step .analysis-cost").bounding_box()
    controls = page.locator("#replay-controls").bounding_box()
    assert explained["y"] >= 0 and explained["y"] + explained["height"] <= PHONE["height"]
    assert controls["y"] <= explained["y"] <= controls["y"] + controls["height"]
    assert controls["height"] < PHONE["height"] / 3  # the controls leave the page room
    page.screenshot(path=str(SHOTS / f"{game}-phone-scrolled.png"))
    page.close()
    assert errors == []
