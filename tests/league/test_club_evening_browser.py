"""A club evening end to end in Chromium, as its organizer clicks it (issue "Organizers III").

A 12-player Saichugen league over the table: at round 1 one player never comes (marked absent
on the table's page, through its confirmation), one leaves after a deal (the deal typed in the
score grid, "Absent" ticked), one is marked absent and then arrives late (undone, the table's
grid entered as usual); the round closes, the other rounds are played by services, and the
league finishes by itself: the event and home pages show its podium, the standings mark the
absences. Then a knockout of 13 in threes with a table level in everything, decided by the
event's draw, played to its champion: the bracket page on screen and in print.

The set-up an organizer does not click (the event, its entries, generating rounds) is done by
services in the test's own database, which Django's `live_server` serves. Screenshots at
desktop and phone width are kept in /tmp/shots_evening/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from league.draws import draw_order
from league.models import Event, Fixture, Player
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.bracket import bracket
from league.services.standings import standings_rows
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE
from tests.browser.play import watch_errors
from tests.league.conftest import play_round
from tests.league.test_bracket import play_to_the_final
from tests.print import pdf

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots_evening")
MM = 96 / 25.4  # CSS pixels in a millimetre
# A4 landscape less the bracket's print margins (static/css/bracket.css: 10 mm each side).
PRINTABLE = {"width": round((297 - 20) * MM), "height": round((210 - 20) * MM)}
NAMES = [
    "Wilhelmina Vandersteen-Okonkwo", "Zoë Ørsted", "Ann", "Bartholomew Fairweather", "Carla",
    "Giuseppe Verdi", "Hana", "Ivo", "Jutta", "Kofi Annan-Mensah", "Lea", "Mo", "Nils",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One Chromium for the module. Playwright's sync API keeps an event loop running in this
    thread while it lives, so Django would refuse the test's own database work here (services,
    the flush after each test) as if it were async code: it is allowed while the browser lives.
    The pages are served by `live_server` on its own thread, without that loop."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must provide /usr/bin/chromium for the browser tests")
        pytest.skip("no /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            yield chromium
            chromium.close()


def club_event(make_event, alice, players: int, **fields) -> Event:
    """A published event of the club's members (names as long as people's are), checked in."""
    event = make_event("saichugen", players=0, **fields)
    for name in NAMES[:players]:
        player = Player.objects.create(name=name)
        event_services.add_entry(event, player, by=alice, checked_in=True)
    return event


# The texts of the bracket drawn out of their box or over the payout beside them (SVG boxes).
CROWDED = """() => [...document.querySelectorAll("svg.bracket g.box")].flatMap(g => {
  const box = g.querySelector("rect").getBBox();
  const texts = [...g.querySelectorAll("text")];
  const right = t => t.getBBox().x + t.getBBox().width;
  const figure = t => texts.find(f => f.classList.contains("figure") && f.getAttribute("y") ===
    t.getAttribute("y"));
  return texts.filter(t => right(t) > box.x + box.width || (t.classList.contains("seat") &&
    figure(t) && right(t) > figure(t).getBBox().x)).map(t => t.textContent);
})"""


def new_page(browser, viewport: dict, phone: bool = False, scale: int = 1):
    touch = {"is_mobile": True, "has_touch": True} if phone else {}
    scale = 2 if phone else scale
    page = browser.new_context(viewport=viewport, device_scale_factor=scale, **touch).new_page()
    page.set_default_timeout(15_000)
    return page


def log_in(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", "pw")
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def names_at(fixture: Fixture) -> list[str]:
    return [s.player.name for s in fixture.seats.select_related("player").order_by("number")]


def type_scores(page, deals: list[list[int]]) -> None:
    """Type each deal's final scores in the grid's "Final scores only" layout, as on paper."""
    page.click("#grid-layouts a[data-layout=scores]")
    page.wait_for_selector("input[name='d0.scores.0']")
    for deal, scores in enumerate(deals):
        for seat, score in enumerate(scores):
            page.fill(f"input[name='d{deal}.scores.{seat}']", str(score))
    last = f'.grid-deal[data-deal="{len(deals) - 1}"] [data-out=running_payouts]'
    page.wait_for_function(f"() => document.querySelector('{last}').textContent !== ''")


def mark_absent(page, url: str, name: str, table: int) -> None:
    """The table page's "Absent players" card, then its confirmation page."""
    page.goto(url)
    card = page.locator("#absence")
    card.get_by_label(name, exact=True).check()
    card.get_by_role("button", name="Mark absent…").click()
    page.wait_for_selector("section.confirm")
    assert f"Table {table}: {name} absent before the first deal." in page.inner_text("main")
    page.locator("section.confirm").get_by_role("button", name="Mark absent").click()
    page.wait_for_url(url)
    assert f"Table {table}: the absence counts as its result." in page.inner_text(".messages")


def test_a_club_evening_league_with_a_no_show_a_leaver_and_a_late_arrival(
    make_event, alice, live_server, browser
):
    event = club_event(
        make_event,
        alice,
        12,
        name="Thursday club evening",
        format="league",
        rounds=3,
        deals_per_match=2,  # one deal before a player leaves, one after
        play_online=False,
    )
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    no_show, leaver, late, full = first.fixtures.order_by("number")
    gone = names_at(no_show)[1]  # seat 1 never comes
    left = names_at(leaver)[2]  # seat 2 leaves after deal 1
    comes = names_at(late)[0]  # seat 0 is marked absent, then arrives
    url = live_server.url
    event_url = f"{url}/events/{event.slug}/"

    def table_url(fixture: Fixture) -> str:
        return f"{event_url}tables/{fixture.pk}/"

    page = new_page(browser, DESKTOP)
    errors = watch_errors(page, sockets=False)  # live_server: no sockets
    log_in(page, url, "alice")

    # Table 1: a no-show, marked before any deal.
    mark_absent(page, table_url(no_show), gone, 1)
    assert f"absent: {gone}" in page.inner_text("main")
    assert page.get_by_role("button", name="Undo (arrived late)").is_visible()

    # Table 2: one deal played, then a player left: the deal in the grid, "Absent" ticked.
    page.goto(f"{table_url(leaver)}result/")
    type_scores(page, [[20, 20, 35]])
    page.locator("#absence").get_by_label(left, exact=True).check()
    page.click("#grid-form button[type=submit]")
    page.wait_for_url(f"**/events/{event.slug}/rounds/1/")
    assert "Result of table 2 counted." in page.inner_text(".messages")

    # Table 3: marked absent, then the player arrives: undone, and the table plays as usual.
    mark_absent(page, table_url(late), comes, 3)
    page.get_by_role("button", name="Undo (arrived late)").click()
    page.wait_for_selector("section.confirm")
    page.locator("section.confirm").get_by_role("button", name="Undo the absence").click()
    page.wait_for_url(table_url(late))
    assert "Table 3: the absence is taken back." in page.inner_text(".messages")
    assert page.get_by_role("button", name="Mark absent…").is_visible()
    page.goto(f"{table_url(late)}result/")
    type_scores(page, [[35, 20, 20], [9, 9, 9]])
    page.click("#grid-form button[type=submit]")
    page.wait_for_url(f"**/events/{event.slug}/rounds/1/")

    # One table still plays: the round is open, the event says which table waits.
    page.goto(event_url)
    assert "4 tables, 3 results" in page.inner_text("main")
    assert "round 1 table 4" in page.inner_text(".organizer-actions .action-notes")
    page.goto(f"{table_url(full)}result/")
    type_scores(page, [[20, 35, 20], [20, 20, 35]])
    page.click("#grid-form button[type=submit]")
    page.wait_for_url(f"**/events/{event.slug}/rounds/1/")

    # The round is closed: every table has its counted result, the absences marked.
    cards = page.locator("section.fixture")
    assert cards.count() == 4
    for n in range(4):
        assert "Result v" in cards.nth(n).inner_text()
    assert page.get_by_role("link", name="Enter the result").count() == 0
    assert f"absent: {gone}" in cards.nth(0).inner_text()  # by name (seat 1)
    assert f"absent: {left}" in cards.nth(1).inner_text()  # by name (seat 2)
    assert "absent" not in cards.nth(2).inner_text()  # arrived late: played as usual
    assert "Result v2" in cards.nth(2).inner_text()  # the absence stays in the history
    page.goto(event_url)
    assert "4 tables, 4 results" in page.inner_text("main")
    organizer = page.locator(".organizer-actions")
    assert organizer.get_by_role("button", name="Generate next round").is_visible()
    assert organizer.locator(".action-notes").count() == 0  # nothing waits any more

    # The other rounds are played (services); the last result finishes the league by itself.
    play_round(event, alice, seed=2)
    play_round(event, alice, seed=3)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    podium = [row["player"] for row in standings_rows(event)[:3]]

    page.goto(event_url)
    assert page.get_attribute(".event-stage", "data-stage") == "finished"
    winners = page.locator("#winners ol.podium li a").all_inner_texts()
    assert winners == podium
    assert "Every round has been played." in page.inner_text("#winners")
    assert page.locator(".organizer-actions").get_by_text("This event is finished:").is_visible()
    assert page.get_by_role("button", name="Generate next round").count() == 0
    shot(page, "league-event-desktop")
    page.goto(f"{url}/")
    finished = page.locator("#finished-events li", has_text=event.name)
    assert finished.locator(".event-stage").get_attribute("data-stage") == "finished"
    assert finished.locator("ol.podium li a").all_inner_texts() == podium
    assert event.name not in page.inner_text("#running-events")
    finished.screenshot(path=str(SHOTS / "home-just-finished-desktop.png"))

    page.goto(f"{event_url}standings/")
    header = page.locator("table thead th").all_inner_texts()
    assert "Absent" in header
    column = header.index("Absent")
    marks = {}
    for row in page.locator("table tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        marks[cells[1].strip()] = cells[column].strip()
    # the no-show and the leaver, once each; not the late arrival, whose absence was undone
    assert {name: mark for name, mark in marks.items() if mark.isdigit()} == {gone: "1", left: "1"}
    assert len(marks) == 12 and comes in marks
    shot(page, "league-standings-desktop")
    assert errors == []

    # On a phone: the podium on the event page; the standings scroll sideways to "Absent".
    phone = new_page(browser, PHONE, phone=True)
    phone.goto(event_url)
    assert phone.locator("#winners ol.podium li a").all_inner_texts() == podium
    assert fits(phone)
    shot(phone, "league-event-phone")
    phone.goto(f"{event_url}standings/")
    assert fits(phone)  # the page does not widen: the table scrolls in its own box
    shot(phone, "league-standings-phone")
    absent = phone.locator("table.standings thead th", has_text="Absent")
    absent.scroll_into_view_if_needed()
    assert absent.is_visible()
    phone.locator("div.scroll").screenshot(path=str(SHOTS / "league-standings-phone-absent.png"))


def test_a_knockout_of_thirteen_in_threes_on_its_bracket_page_and_on_paper(
    make_event, alice, live_server, browser
):
    event = club_event(make_event, alice, 13, name="Knockout night", format="knockout", rounds=3)
    played = play_to_the_final(event, alice, level_tables={(1, 2)})  # table 2 ends level
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    drawn = bracket(event)
    tables = sum(r.fixtures.count() for r in played)
    assert [len(r.tables) for r in drawn.rounds] == [4, 2, 1]  # 13: 4 tables and a bye, 2, final
    tied = drawn.rounds[0].tables[1]
    lot_winner = draw_order(event.seed, [s.player_id for s in tied.seats])[0]
    goer = next(s.name for s in tied.seats if s.player_id == lot_winner)
    lots = sum(t.by_lot for r in drawn.rounds for t in r.tables)
    bracket_url = f"{live_server.url}/events/{event.slug}/bracket/"

    page = new_page(browser, DESKTOP, scale=2)  # a closer look at the tied table's box
    errors = watch_errors(page, sockets=False)  # live_server: no sockets
    page.goto(bracket_url)
    assert page.inner_text("#champion").startswith(f"Champion: {drawn.champion}")
    assert page.locator("svg.bracket g.box.table").count() == tables == 7
    assert (
        page.locator("svg.bracket g.box.champion").text_content().strip().endswith(drawn.champion)
    )
    box = page.locator(
        "svg.bracket g.box.table", has=page.locator(f'a[href$="/{tied.fixture_id}/"]')
    )
    assert box.locator(".foot.lot").text_content() == "⚄ the event's draw"
    assert box.locator(".seat.goes-on").all_text_contents() == [goer]
    assert page.locator("svg.bracket .foot.lot").count() == lots >= 1
    assert page.evaluate(CROWDED) == []  # the long names too
    shot(page, "bracket-desktop")
    box.screenshot(path=str(SHOTS / "bracket-tied-table.png"))
    assert errors == []

    phone = new_page(browser, PHONE, phone=True)
    phone.goto(bracket_url)
    assert fits(phone)  # the page fits; the bracket scrolls sideways in its own box
    shot(phone, "bracket-phone")

    paper = new_page(browser, PRINTABLE)
    paper.goto(bracket_url)
    paper.emulate_media(media="print")
    assert not paper.locator(".print-button").is_visible()
    svg = paper.locator("svg.bracket").bounding_box()
    assert svg["x"] >= 0 and svg["y"] >= 0
    assert svg["x"] + svg["width"] <= PRINTABLE["width"] + 1
    assert svg["y"] + svg["height"] <= PRINTABLE["height"] + 1, svg
    assert paper.evaluate(CROWDED) == []
    shot(paper, "bracket-print")
    printed = paper.pdf(format="A4", landscape=True, prefer_css_page_size=True)
    assert pdf.page_count(printed) == 1
    (SHOTS / "bracket.pdf").write_bytes(printed)
    text = " ".join(pdf.page_texts(printed)[0].split())
    assert re.search(rf"Champion: {re.escape(drawn.champion)}", text)
