"""Paper in Chromium: the PDFs a browser prints of a round's pairings, its score sheets and the
standings (Playwright's `page.pdf()`, the print stylesheets applied).

A 36-player Saichugen club night over the table (round 1 played, round 2's twelve tables of three
published) and a 48-player Mediatore Sunday (twelve tables of four): their pairings print on
exactly one page, A4 and Letter, with every name. A 66-player league's standings print every
column, the header on each page. Each game's score sheets print a page per table, in order, each
with its table, its players and its grid. The PDFs and screenshots (in print media too) are kept
in /tmp/shots_print/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.play import watch_errors
from tests.print import pdf

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_print")
PASSWORD = "a long pass phrase"
GAMES = {"saichugen": 6, "three_five_eight": 6, "schieberamsch": 6, "mediatore": 8}

NAMES = [
    "Wilhelmina Vandersteen-Okonkwo", "Zoë Ørsted", "Ann", "Bartholomew Fairweather", "Carla",
    "Dmitri Alexandrovich Volkonsky", "Ed", "Fatima", "Giuseppe Verdi", "Hana", "Ivo", "Jutta",
    "Kofi Annan-Mensah", "Lea", "Mo", "Nils", "Oona", "Pia", "Quentin", "Rosa", "Sven", "Tea",
    "Ugo", "Vera", "Walt", "Xena", "Yusuf", "Zeno", "Amélie", "Bruno", "Chiara", "Dario", "Elif",
    "Femi", "Greta", "Hugo",
]  # fmt: skip
MORE = ["Ines", "Jakob", "Kirsi", "Lorenzo", "Maja", "Noor", "Otto", "Paulina", "Rafael",
        "Sofía", "Timo", "Ulla"]  # fmt: skip

# Runs in the server's own database (manage.py shell): the organizer orla, the club night (its
# round 1 played from random legal records, round 2 published) and one small event per game.
SETUP = """
import json
from django.contrib.auth import get_user_model
from games import catalogue
from league.services import events, rounds
from league.services.permissions import organizer_role
from league.services.results import record_result
User = get_user_model()
orla = User.objects.create_user("orla", password=PASSWORD)
orla.user_permissions.add(organizer_role())
orla = User.objects.get(pk=orla.pk)

def over_the_table(name, game, players, deals):
    event = events.create_event(orla, name=name, game=game, rounds=3, deals_per_match=deals,
        format="swiss", play_online=False)
    events.publish_event(event, by=orla)
    for player in players:
        events.enter_player(event, by=orla, name=player)
    return event

def next_round(event):
    return rounds.publish_round(rounds.generate_round(event, by=orla), by=orla)

def play(round_):
    for k, fixture in enumerate(round_.fixtures.all()):
        names = [s.player.name for s in fixture.seats.select_related("player").order_by("number")]
        event = round_.event
        record = catalogue.random_record(event.game, players=names, variant=event.variant,
            n_deals=event.deals_per_match, seed=k)
        record_result(fixture, by=orla, record=record)

night = over_the_table("Thursday club night", "saichugen", NAMES, 3)
play(next_round(night))
league = over_the_table("Winter league", "three_five_eight", LEAGUE, 1)
play(next_round(league))
def seated(round_):
    return [[s.player.name for s in f.seats.select_related("player").order_by("number")]
            for f in round_.fixtures.order_by("number")]

pairings = {"saichugen": {"slug": night.slug, "round": 2, "tables": seated(next_round(night))}}
four = over_the_table("Mediatore Sunday", "mediatore", NAMES + MORE, 3)
pairings["mediatore"] = {"slug": four.slug, "round": 1, "tables": seated(next_round(four))}
sheets = {}
for game, n in GAMES.items():
    event = over_the_table(f"{game} evening", game, [f"{game[:5]} player {i}" for i in range(n)], 6)
    round_ = next_round(event)
    sheets[game] = {"slug": event.slug, "tables": seated(round_)}
print(json.dumps({"league": league.slug, "pairings": pairings, "sheets": sheets}))
"""
LEAGUE = NAMES + MORE + [f"Guest {n}" for n in range(1, 19)]  # 66: the standings take two pages
for word, value in (("PASSWORD", PASSWORD), ("NAMES", NAMES), ("MORE", MORE), ("GAMES", GAMES)):
    SETUP = SETUP.replace(word, repr(value))
SETUP = SETUP.replace("LEAGUE", repr(LEAGUE))


@pytest.fixture(scope="module")
def made(server) -> dict:
    return json.loads(server.manage("shell", "-c", SETUP).strip().splitlines()[-1])


@pytest.fixture
def organizer(server, browser):
    """A page logged in as orla, at A4's width (as the printed page lays out)."""
    context = browser.new_context(viewport={"width": 900, "height": 1200})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.errors = watch_errors(page)
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=login]", "orla")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")
    yield page
    context.close()


def printed(page, name: str, **options) -> bytes:
    """The page as Chromium prints it to PDF (kept beside the screenshots)."""
    data = page.pdf(**{"format": "A4", "prefer_css_page_size": True, **options})
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"{name}.pdf").write_bytes(data)
    return data


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def shot_in_print(page, name: str, width: int) -> None:
    """A screenshot in print media at a paper's width, to look at (the PDF has the breaks)."""
    page.set_viewport_size({"width": width, "height": 1100})
    page.emulate_media(media="print")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.emulate_media(media="screen")


def squeezed(text: str) -> str:
    """Text without white space: a name the page wraps over two lines is still found."""
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("game", ["saichugen", "mediatore"])  # tables of three, of four
def test_the_pairings_of_twelve_tables_print_on_one_page(server, made, organizer, game):
    event = made["pairings"][game]
    organizer.goto(f"{server.url}/events/{event['slug']}/rounds/{event['round']}/")
    assert organizer.locator("section.fixture").count() == len(event["tables"]) == 12
    assert organizer.is_visible("text=Print score sheets")
    shot(organizer, f"pairings-{game}-screen")
    for paper in ("A4", "Letter"):
        data = printed(organizer, f"pairings-{game}-{paper}", format=paper)
        assert pdf.page_count(data) == 1, paper
        (text,) = pdf.page_texts(data)
        flat = squeezed(text)
        for number, names in enumerate(event["tables"], start=1):
            assert f"Table{number}" in flat
            for name in names:
                assert squeezed(name) in flat, (paper, name)
        for screen_only in ("Logout", "Printscoresheets", "Enterthescoregrid", "Enterthe"):
            assert screen_only not in flat, screen_only
    shot_in_print(organizer, f"pairings-{game}-print", 794)
    assert organizer.errors == []


def test_the_standings_print_every_column_with_the_header_on_every_page(server, made, organizer):
    organizer.goto(f"{server.url}/events/{made['league']}/standings/")
    headers = organizer.eval_on_selector_all(
        "table.standings thead th", "els => els.map(e => e.textContent.trim())"
    )
    assert len(headers) >= 7
    data = printed(organizer, "standings")
    pages = [squeezed(text) for text in pdf.page_texts(data)]
    assert len(pages) == pdf.page_count(data) == 2
    for page in pages:
        assert squeezed("".join(headers)) in page  # the table's header, repeated
    flat = "".join(pages)
    for name in LEAGUE:
        assert squeezed(name) in flat, name
    assert "Print" not in flat  # the button stays on screen
    # Every column fits the paper: the table is no wider than the page's body in print media.
    organizer.set_viewport_size({"width": 794 - 2 * 45, "height": 1100})  # A4, 12 mm margins
    organizer.emulate_media(media="print")
    assert organizer.evaluate(
        "() => document.querySelector('table.standings').getBoundingClientRect().right"
        " <= document.documentElement.clientWidth + 1"
    )
    organizer.emulate_media(media="screen")
    shot_in_print(organizer, "standings-print", 794)
    assert organizer.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_the_score_sheets_print_a_page_per_table(server, made, organizer, game):
    event = made["sheets"][game]
    organizer.goto(f"{server.url}/events/{event['slug']}/rounds/1/")
    organizer.click("text=Print score sheets")
    organizer.wait_for_url(f"**/events/{event['slug']}/rounds/1/sheets/")
    labels = organizer.eval_on_selector_all(
        ".score-sheet:first-of-type thead tr:first-child th",
        "els => els.map(e => e.textContent.trim())",
    )
    assert len(labels) > 2  # the deal's number, the game's fields, the payouts
    shot(organizer, f"sheets-{game}-screen")
    data = printed(organizer, f"sheets-{game}")
    pages = pdf.page_texts(data)
    assert len(pages) == pdf.page_count(data) == len(event["tables"])
    for number, (text, names) in enumerate(zip(pages, event["tables"], strict=True), start=1):
        flat = squeezed(text)
        assert f"Round1·Table{number}" in flat, text
        for name in names:
            assert squeezed(name) in flat
        for label in labels:
            assert squeezed(label) in flat, label
        assert "Total" in flat
        assert all(f"\n{n}\n" in f"\n{text}\n" for n in range(1, 7)), "deals 1 to 6"
    shot_in_print(organizer, f"sheets-{game}-print", 1123)
    assert organizer.errors == []
