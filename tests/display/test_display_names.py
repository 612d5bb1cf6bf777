"""Pages show games and formats by their display names, never by their ids.

`three_five_eight` and `knockout` are keys for URLs, the API and CSVs; a person reads
"3-5-8 (Sergeant Major)" and "Knockout" (`Event.game_name`, `Event.format_name`, from the games'
and the formats' registries). Every page of an event, for every game and every format, to a
visitor and to its organizer: no id in the text they see.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import catalogue
from league.models import Event
from league.scheduling.formats import formats, get_format
from tests.league.conftest import play_round

from .visible import visible_text

pytestmark = pytest.mark.django_db

GAMES = [g.name for g in catalogue.games()]
FORMATS = [f.name for f in formats()]


def raw_ids(text: str) -> list[str]:
    """The game ids and format keys found in `text` as words of their own, case and all: the
    display name "Saichugen" is not the id "saichugen", a "Swiss" round is not "swiss"."""
    found = []
    for key in (*GAMES, *FORMATS):
        found += re.findall(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text)
    return found


def pages(event: Event, fixture_id: int) -> dict[str, str]:
    return {
        "events": reverse("league:events"),
        "event": reverse("league:event", args=[event.slug]),
        "standings": reverse("league:standings", args=[event.slug]),
        "round": reverse("league:round", args=[event.slug, 1]),
        "table": reverse("league:fixture", args=[event.slug, fixture_id]),
    }


def test_the_lookups_give_the_registries_names():
    assert catalogue.display_name("three_five_eight") == "3-5-8 (Sergeant Major)"
    assert catalogue.display_name("a_game_since_removed") == "a_game_since_removed"
    assert Event(game="three_five_eight", format="knockout").game_name == "3-5-8 (Sergeant Major)"
    assert Event(format="knockout").format_name == "Knockout"
    assert Event(format="swiss").format_name == get_format("swiss").title
    assert Event(format="gone").format_name == "gone"  # no 500 for a format taken out


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_no_page_of_an_event_shows_a_game_or_format_id(client, alice, make_event, game, fmt):
    seats = catalogue.game(game).seats
    event = make_event(game, players=2 * seats, format=fmt, rounds=2, name="Display cup")
    round_ = play_round(event, alice)
    fixture = round_.fixtures.first()
    organizer = Client()
    organizer.force_login(alice)
    manager_pages = {"result": reverse("league:result", args=[event.slug, fixture.pk])}
    for who, browser in (("visitor", client), ("organizer", organizer)):
        urls = pages(event, fixture.pk) | (manager_pages if who == "organizer" else {})
        for page, url in urls.items():
            response = browser.get(url)
            assert response.status_code == 200, (who, page)
            text = visible_text(response.content)
            assert raw_ids(text) == [], (who, page, game, fmt)
            if page in {"events", "event"}:
                assert event.game_name in text, (who, page)
    listed = visible_text(client.get(reverse("league:events")).content)
    assert f"Display cup {event.game_name} {event.format_name}" in listed
