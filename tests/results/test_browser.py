"""The Schieberamsch score grid in Chromium: the organizer types a match deal by deal, sees the
running totals and a field's error as they type, a Grand Hand's fields appear when it is ticked,
the grid is counted and the standings show it. Then two players' differing grids side by side.
Screenshots at desktop and phone width (the form fits a 390 px screen) in /tmp/shots_grid/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_grid")
PASSWORD = "a long pass phrase"

# Runs in the server's own database (manage.py shell): an over-the-table Schieberamsch event of
# three deals per match, one published round, one table; the players have accounts.
SETUP = """
import json
from django.contrib.auth import get_user_model
from league.models import Player
from league.services import events, rounds
from league.services.permissions import organizer_role
from league.services.players import player_for_user
User = get_user_model()
alba = User.objects.create_user("alba", password=PASSWORD)
alba.user_permissions.add(organizer_role())
alba = User.objects.get(pk=alba.pk)
event = events.create_event(alba, name="Thursday Ramsch", game="schieberamsch", rounds=1,
    deals_per_match=3, format="league", play_online=False, table_results=True)
events.publish_event(event, by=alba)
for name in ("Wilhelmina Vandersteen-Okonkwo", "Bert", "Carla"):
    player = player_for_user(User.objects.create_user(name, password=PASSWORD))
    events.add_entry(event, player, by=alba, checked_in=True)
round_ = rounds.generate_round(event, by=alba)
rounds.publish_round(round_, by=alba)
fixture = round_.fixtures.get()
seats = [s.player.name for s in fixture.seats.select_related("player").order_by("number")]
print(json.dumps({"slug": event.slug, "fixture": fixture.pk, "seats": seats}))
""".replace("PASSWORD", repr(PASSWORD))


def log_in(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def cells(page, deal: int, row: str) -> list[str]:
    return page.eval_on_selector_all(
        f'.grid-deal[data-deal="{deal}"] [data-out="{row}"]', "els => els.map(e => e.textContent)"
    )


def test_an_organizer_types_a_schieberamsch_grid_and_sees_the_standings(server, browser):
    made = json.loads(server.manage("shell", "-c", SETUP).strip().splitlines()[-1])
    slug, fixture = made["slug"], made["fixture"]
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    log_in(page, server.url, "alba")
    page.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")
    page.wait_for_selector("#score-grid")
    assert page.inner_text(".grid-deal[data-deal='0'] legend").startswith("Deal 1")
    # A Ramsch: the seat with the most card points (45) scores 4; the others settle with it.
    for seat, points in enumerate((38, 45, 37)):
        page.fill(f"input[name='d0.points.{seat}']", str(points))
    page.fill("input[name='d0.pushes']", "0")
    page.wait_for_function(
        "() => document.querySelector('.grid-deal[data-deal=\"0\"] [data-out=running_payouts]')"
        ".textContent !== ''"
    )
    assert cells(page, 0, "scores") == ["0", "4", "0"]
    assert cells(page, 0, "running_payouts") == ["+4", "\u22128", "+4"]
    assert page.inner_text("[data-sum-of='d0.points']") == "120/120"

    # A Grand Hand: its fields appear, the Ramsch's go.
    assert not page.is_visible("select[name='d1.declarer']")
    page.check("input[name='d1.grand']")
    assert page.is_visible("select[name='d1.declarer']")
    assert not page.is_visible("input[name='d1.points.0']")
    page.select_option("select[name='d1.declarer']", "2")
    page.fill("input[name='d1.matadors']", "2")
    page.fill("input[name='d1.declarer_points']", "77")
    score = '.grid-deal[data-deal="1"] [data-out=scores][data-seat="2"]'
    page.wait_for_function(f"() => document.querySelector('{score}').textContent === '\u22129'")
    assert cells(page, 1, "running_payouts") == ["\u22125", "\u221217", "+22"]

    # A wrong field: 119 card points no seat can take, shown beside that input.
    page.fill("input[name='d2.points.0']", "119")
    page.fill("input[name='d2.points.1']", "1")
    page.fill("input[name='d2.points.2']", "0")
    page.fill("input[name='d2.pushes']", "1")
    error = "[data-error-for='d2.points.0']"
    page.wait_for_function(f"() => document.querySelector(\"{error}\").textContent !== ''")
    assert page.inner_text(error) == "no seat can take 119 card points"
    assert page.get_attribute("input[name='d2.points.0']", "aria-invalid") == "true"
    assert "Deal 3" in page.inner_text("#grid-problems")
    shot(page, "result-grid-desktop-error")

    page.fill("input[name='d2.points.0']", "0")
    page.fill("input[name='d2.points.1']", "70")
    page.fill("input[name='d2.points.2']", "50")
    page.wait_for_function(f"() => document.querySelector(\"{error}\").textContent === ''")
    page.wait_for_function(
        "() => document.querySelector('[data-total=payouts][data-seat=\"0\"]').textContent === '+9'"
    )  # deal 3: seat 1 pays 14 (70 points, one push): seat 0 +14 -5 = +9
    assert page.is_hidden("#grid-problems")
    shot(page, "result-grid-desktop")

    page.click("#grid-form button[type=submit]")
    page.wait_for_url(f"**/events/{slug}/rounds/1/")
    assert "counted" in page.inner_text(".messages")
    page.goto(f"{server.url}/events/{slug}/standings/")
    standings = page.inner_text("main")
    for name in made["seats"]:
        assert name in standings
    assert "36" in standings  # seat 2 won the Grand Hand: +4 +18 +14
    shot(page, "standings-after-grid-desktop")

    # The correction opens filled in.
    page.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")
    assert page.input_value("input[name='d1.declarer_points']") == "77"
    assert page.is_checked("input[name='d1.grand']")
    assert errors == []

    # On a phone the same form fits the screen.
    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    phone.set_default_timeout(15_000)
    log_in(phone, server.url, "alba")
    phone.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")
    phone.wait_for_selector("#score-grid")
    assert fits(phone)
    shot(phone, "result-grid-phone")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for deal in (0, 1):
        block = phone.locator(f".grid-deal[data-deal='{deal}']")
        block.screenshot(path=str(SHOTS / f"result-grid-phone-deal-{deal + 1}.png"))


def test_players_at_the_table_submit_grids_that_the_organizer_compares(server, browser):
    setup = SETUP.replace('"alba"', '"alma"').replace("Thursday Ramsch", "Friday Ramsch")
    for name in ("Wilhelmina Vandersteen-Okonkwo", "Bert", "Carla"):
        setup = setup.replace(f'"{name}"', f'"{name} 2"')
    made = json.loads(server.manage("shell", "-c", setup).strip().splitlines()[-1])
    slug, fixture = made["slug"], made["fixture"]
    first, second = made["seats"][0], made["seats"][1]

    phone = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    phone.set_default_timeout(15_000)
    errors = watch_errors(phone)
    log_in(phone, server.url, first)
    phone.goto(f"{server.url}/events/{slug}/tables/{fixture}/")
    phone.click("text=Enter the grid")
    phone.wait_for_selector("#score-grid")
    for deal, points in enumerate(((38, 45, 37), (0, 82, 38), (50, 50, 20))):
        for seat, p in enumerate(points):
            phone.fill(f"input[name='d{deal}.points.{seat}']", str(p))
        phone.fill(f"input[name='d{deal}.pushes']", "0")
    phone.select_option("select[name='d1.jungfrau']", "0")
    phone.wait_for_function(
        "() => document.querySelector('[data-total=payouts][data-seat=\"0\"]').textContent !== ''"
    )
    assert fits(phone)
    shot(phone, "player-grid-phone")
    phone.click("#grid-form button[type=submit]")
    phone.wait_for_selector(".submission")
    assert "confirm" in phone.inner_text(".messages")
    assert errors == []

    other = browser.new_context(viewport=DESKTOP).new_page()
    log_in(other, server.url, second)
    other.goto(f"{server.url}/events/{slug}/tables/{fixture}/submit/")
    assert other.is_visible("text=It is right: confirm")
    other.fill("input[name='d2.pushes']", "1")  # a push the first grid forgot
    other.click("#grid-form button[type=submit]")
    other.wait_for_selector(".messages")
    assert "organizer" in other.inner_text(".messages")

    organizer = browser.new_context(viewport=DESKTOP).new_page()
    log_in(organizer, server.url, "alma")
    organizer.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")
    organizer.wait_for_selector("#table-submissions")
    assert organizer.locator("#table-submissions tr.differs").count() == 1
    shot(organizer, "compare-versions-desktop")
    organizer.locator("#table-submissions button:has-text('Count this one')").nth(1).click()
    organizer.wait_for_url(f"**/events/{slug}/rounds/1/")
    assert "counts as the result" in organizer.inner_text(".messages")


def test_final_scores_only_is_a_grid_of_its_own_with_live_totals(server, browser):
    """Saichugen's second layout: chosen by its link, checked as typed (the form posts its
    layout), a switch with something typed asks first, and the grid counts."""
    setup = (
        SETUP.replace('"alba"', '"alda"')
        .replace("Thursday Ramsch", "Saichugen evening")
        .replace('game="schieberamsch"', 'game="saichugen"')
        .replace("deals_per_match=3", "deals_per_match=2")
    )
    for name in ("Wilhelmina Vandersteen-Okonkwo", "Bert", "Carla"):
        setup = setup.replace(f'"{name}"', f'"{name} 3"')
    made = json.loads(server.manage("shell", "-c", setup).strip().splitlines()[-1])
    slug, fixture = made["slug"], made["fixture"]
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    log_in(page, server.url, "alda")
    page.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")
    assert page.is_visible("input[name='d0.round1.0']")
    page.click("#grid-layouts a[data-layout=scores]")
    page.wait_for_selector("input[name='d0.scores.0']")
    assert page.inner_text("#grid-layouts strong") == "Final scores only"
    for seat, score in enumerate((20, 20, 35)):
        page.fill(f"input[name='d0.scores.{seat}']", str(score))
    page.wait_for_function(
        "() => document.querySelector('.grid-deal[data-deal=\"0\"] [data-out=running_payouts]')"
        ".textContent !== ''"
    )
    assert cells(page, 0, "payouts") == ["+1", "+1", "\u22122"]
    page.fill("input[name='d1.scores.0']", "70")  # no game banks more than 65
    error = "[data-error-for='d1.scores.0']"
    page.wait_for_function(f"() => document.querySelector(\"{error}\").textContent !== ''")
    assert page.inner_text(error) == "from 0 to 65"

    page.once("dialog", lambda dialog: dialog.dismiss())  # typed: the switch asks first
    page.click("#grid-layouts a[data-layout=full]")
    assert page.input_value("input[name='d0.scores.0']") == "20"
    shot(page, "final-scores-only-desktop")

    for seat, score in enumerate((9, 9, 9)):
        page.fill(f"input[name='d1.scores.{seat}']", str(score))
    page.wait_for_function(f"() => document.querySelector(\"{error}\").textContent === ''")
    page.click("#grid-form button[type=submit]")
    page.wait_for_url(f"**/events/{slug}/rounds/1/")
    assert "counted" in page.inner_text(".messages")
    page.goto(f"{server.url}/events/{slug}/tables/{fixture}/result/")  # the correction
    assert page.input_value("input[name='d1.scores.2']") == "9"
    assert errors == []
