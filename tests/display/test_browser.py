"""Long names and narrow screens in Chromium: the standings and every game's result form.

A 60-character player name (one word: nothing to break it at) and a 60-character event name
must stay inside the page at desktop width, wrapping; at 390 x 844 (a phone) the page never
scrolls sideways (`document.documentElement.scrollWidth <= 390`): the standings keep rank,
player, match points and payouts on the screen and scroll the rest inside their box with the
player column held, and each game's score grid fits. Screenshots in /tmp/shots_display/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE, browser, server  # noqa: F401
from tests.browser.play import watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_display")
PASSWORD = "a long pass phrase"
LONG_PLAYER = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftx"[:60]
LONG_EVENT = "The Forty-Second Annual Invitational Open of the Northern Leag"[:60]

# Runs in the server's own database (manage.py shell): one Saichugen league of six with the long
# names, two rounds counted, every column the standings can have; and per game an over-the-table
# event with one published round, for its result form.
SETUP = (
    """
import json
from django.contrib.auth import get_user_model
from games import catalogue
from league.models import Player
from league.services import events, rounds
from league.services.permissions import organizer_role
from league.services.results import record_result
User = get_user_model()
olga = User.objects.create_user("olga", password=PASSWORD)
olga.user_permissions.add(organizer_role())
olga = User.objects.get(pk=olga.pk)

def make(game, name, players, **fields):
    event = events.create_event(olga, name=name, game=game, format="league", **fields)
    events.publish_event(event, by=olga)
    for player in players:
        player = Player.objects.get_or_create(name=player)[0]  # names are unique
        events.add_entry(event, player, by=olga, checked_in=True)
    return event

def play(event):
    round_ = rounds.generate_round(event, by=olga)
    rounds.publish_round(round_, by=olga)
    for fixture in round_.fixtures.all():
        names = [s.player.name for s in fixture.seats.select_related("player")]
        record = catalogue.random_record(event.game, players=names, variant=event.variant,
            n_deals=event.deals_per_match, seed=fixture.pk)
        record_result(fixture, by=olga, record=record)

tiebreaks = ["total_payouts", "opponents_average_payout", "head_to_head", "wins", "lot"]
names = [LONG_PLAYER, "Bert", "Carla", "Dmitri", "Eva", "Farida"]
league = make("saichugen", LONG_EVENT, names, rounds=3, deals_per_match=2, tiebreaks=tiebreaks)
play(league)
play(league)
forms = {}
for game in catalogue.games():
    players = [LONG_PLAYER] + [f"{game.display_name} player {i}" for i in range(1, game.seats)]
    event = make(game.name, f"{game.display_name} night", players, rounds=1, deals_per_match=3,
        play_online=False)
    round_ = rounds.generate_round(event, by=olga)
    rounds.publish_round(round_, by=olga)
    forms[game.name] = f"/events/{event.slug}/tables/{round_.fixtures.get().pk}/result/"
print(json.dumps({"standings": f"/events/{league.slug}/standings/", "forms": forms}))
""".replace("PASSWORD", repr(PASSWORD))
    .replace("LONG_PLAYER", repr(LONG_PLAYER))
    .replace("LONG_EVENT", repr(LONG_EVENT))
)


@pytest.fixture(scope="module")
def made(server) -> dict:  # noqa: F811
    return json.loads(server.manage("shell", "-c", SETUP).strip().splitlines()[-1])


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def phone(browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    return context.new_page()


def desktop(browser):  # noqa: F811
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    return context.new_page()


def rect(page, selector: str) -> dict:
    return page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")


def header_cell(page, text: str) -> str:
    """A selector for the standings header whose text is `text` (its n-th column)."""
    n = page.evaluate(
        """text => [...document.querySelectorAll('table.standings thead th')]
            .findIndex(th => th.textContent.trim() === text) + 1""",
        text,
    )
    assert n, text
    return f"table.standings thead th:nth-child({n})"


def long_row(page) -> str:
    """The standings row of the player with the long name."""
    player = page.evaluate(
        """name => [...document.querySelectorAll('table.standings tbody tr')]
            .find(tr => tr.textContent.includes(name)).id""",
        LONG_PLAYER,
    )
    return f"table.standings tr#{player}"


def log_in(page, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", "olga")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


KEY_COLUMNS = ("#", "Player", "Match points", "Payouts")
STANDINGS_BOX = "div.scroll:has(table.standings)"


def test_the_standings_on_a_phone_keep_the_key_columns_and_scroll_the_rest(
    server,  # noqa: F811
    browser,  # noqa: F811
    made,
):
    page = phone(browser)
    errors = watch_errors(page)
    page.goto(server.url + made["standings"])
    assert page_width(page) <= PHONE["width"]  # the page never scrolls sideways
    box = rect(page, STANDINGS_BOX)
    assert box["right"] <= PHONE["width"]
    row = long_row(page)
    for title in KEY_COLUMNS:  # on the first screen, header and the long name's row
        header = header_cell(page, title)
        column = rect(page, header)
        assert box["left"] <= column["left"] and column["right"] <= box["right"], title
        cell = rect(page, f"{row} td:nth-child({header.rsplit('(', 1)[1]}")
        assert box["left"] <= cell["left"] and cell["right"] <= box["right"], title
    lines = page.eval_on_selector(f"{row} td:nth-child(2) a", "e => e.getClientRects().length")
    assert lines >= 2  # the name wraps inside its column
    assert LONG_PLAYER in page.inner_text(f"{row} td:nth-child(2)")
    shot(page, "standings-phone")

    # The rest is reachable: the box scrolls, the player column stays at its left edge.
    last = "table.standings thead th:last-child"
    assert rect(page, last)["right"] > box["right"]  # off to the right until scrolled
    page.eval_on_selector(STANDINGS_BOX, "e => e.scrollLeft = e.scrollWidth")
    page.wait_for_function(f"() => document.querySelector('{STANDINGS_BOX}').scrollLeft > 0")
    end = rect(page, last)
    assert box["left"] <= end["left"] and end["right"] <= box["right"] + 1
    held = rect(page, f"{row} td:nth-child(2)")
    assert abs(held["left"] - box["left"]) <= 1  # held at the left: whose numbers these are
    assert page_width(page) <= PHONE["width"]
    shot(page, "standings-phone-scrolled")
    assert errors == []
    page.context.close()


def test_a_long_name_wraps_inside_the_standings_at_desktop(server, browser, made):  # noqa: F811
    page = desktop(browser)
    errors = watch_errors(page)
    page.goto(server.url + made["standings"])
    assert page_width(page) <= DESKTOP["width"]
    # Every column is inside the page's column: none pushed off, to be scrolled to.
    assert page.eval_on_selector(STANDINGS_BOX, "e => e.scrollWidth <= e.clientWidth")
    main = rect(page, "main")
    assert rect(page, "table.standings thead th:last-child")["right"] <= main["right"]
    row = long_row(page)
    lines = page.eval_on_selector(f"{row} td:nth-child(2) a", "e => e.getClientRects().length")
    assert lines >= 2  # the name is on two lines or more, inside its cell
    name = rect(page, f"{row} td:nth-child(2) a")
    cell = rect(page, f"{row} td:nth-child(2)")
    assert cell["left"] <= name["left"] and name["right"] <= cell["right"]
    shot(page, "standings-desktop")
    # The long event name stays inside its heading on the event page, at both widths.
    event = server.url + made["standings"].rsplit("standings/", 1)[0]
    for opened in (page, phone(browser)):
        opened.goto(event)
        width = opened.viewport_size["width"]
        assert LONG_EVENT in opened.inner_text("h1")
        assert page_width(opened) <= width
        assert rect(opened, "h1")["right"] <= width
        shot(opened, f"event-{width}")
        opened.context.close()
    assert errors == []


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_every_games_result_form_fits_the_screen(server, browser, made, viewport):  # noqa: F811
    page = phone(browser) if viewport == "phone" else desktop(browser)
    errors = watch_errors(page)
    width = page.viewport_size["width"]
    log_in(page, server.url)
    for game, url in made["forms"].items():
        page.goto(server.url + url)
        page.wait_for_selector("#score-grid")
        assert page_width(page) <= width, game
        # Every field and the submit button are on the screen, none cut at its edge.
        outside = page.evaluate(
            """width => [...document.querySelectorAll(
                    '#grid-form input:not([type=hidden]), #grid-form select, #grid-form button')]
                .filter(e => e.offsetParent !== null)
                .filter(e => { const r = e.getBoundingClientRect();
                               return r.left < 0 || r.right > width; })
                .map(e => e.name || e.textContent)""",
            width,
        )
        assert outside == [], (game, outside)
        assert page.locator("#grid-form input[type=number]").count() > 0, game
        assert LONG_PLAYER in page.inner_text("#grid-form"), game  # the forfeits, in full
        shot(page, f"result-form-{game}-{viewport}")
    assert errors == []
    page.context.close()
