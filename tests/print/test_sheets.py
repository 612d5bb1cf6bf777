"""The score sheets of a round, through the test client: one sheet per table with its players in
seat order and the game's blank grid (deals from 1, a totals row, the columns of the game's own
grid); whoever may see the round may print them, in a fixed number of queries; the round page
links to them and the pairings and standings pages offer a Print button."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import catalogue
from league.models import Seat
from tests.print.conftest import over_the_table

pytestmark = pytest.mark.django_db

GAMES = ["saichugen", "three_five_eight", "schieberamsch", "mediatore"]


def sheets_url(event, number: int = 1) -> str:
    return reverse("league:round_sheets", args=[event.slug, number])


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def sheets_of(html: str) -> list[str]:
    """The page's sheets, each as its own HTML."""
    parts = re.split(r'<section class="score-sheet"', html)[1:]
    return [part.split("</section>")[0] for part in parts]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def seat_names(fixture) -> list[str]:
    seats = Seat.objects.filter(fixture=fixture).select_related("player").order_by("number")
    return [s.player.name for s in seats]


def test_there_is_one_sheet_per_table_with_its_players_in_seat_order(alice, sam):
    event, round_ = over_the_table(alice, players=9, deals=4)
    response = client_of(sam).get(sheets_url(event))
    assert response.status_code == 200
    sheets = sheets_of(response.content.decode())
    fixtures = list(round_.fixtures.order_by("number"))
    assert len(sheets) == len(fixtures) == 3
    for sheet, fixture in zip(sheets, fixtures, strict=True):
        assert f'data-table="{fixture.number}"' in sheet
        seats = sheet.split('<ol class="sheet-seats"')[1].split("</ol>")[0]
        names = seat_names(fixture)
        positions = [seats.index(name) for name in names]
        assert positions == sorted(positions), "the players are listed in seat order"
        assert f"Table {fixture.number}" in text(sheet)
        assert event.name in text(sheet)
        assert "Round 1" in text(sheet)


def test_the_grid_has_a_row_per_deal_numbered_from_one_and_a_totals_row(alice):
    event, _round = over_the_table(alice, players=3, deals=5)
    (sheet,) = sheets_of(client_of(alice).get(sheets_url(event)).content.decode())
    body = sheet.split("<tbody>")[1].split("</tbody>")[0]
    numbers = re.findall(r'<tr><th scope="row">(\d+)</th>', body)
    assert numbers == ["1", "2", "3", "4", "5"]
    foot = sheet.split("<tfoot>")[1].split("</tfoot>")[0]
    assert "Total" in foot
    # Only the payouts add up over a match: the totals row is blank under them, shaded elsewhere.
    assert foot.count('class="payout') == 3
    assert "shaded" in foot


@pytest.mark.parametrize("game", GAMES)
def test_the_columns_are_those_of_the_games_own_grid(alice, game):
    seats = catalogue.game(game).seats
    event, round_ = over_the_table(alice, game, players=seats, deals=2, prefix=game[:4])
    description = catalogue.sheet_grid(game, event.variant)
    (sheet,) = sheets_of(client_of(alice).get(sheets_url(event)).content.decode())
    head = sheet.split("<thead>")[1].split("</thead>")[0]
    for field in description["fields"]:
        assert f">{field['label']}</th>" in head.replace("&#x27;", "'"), field["name"]
    # a column per field asked once per deal, one per seat for a field asked per seat, then the
    # payout per seat
    columns = sum(seats if f["per_seat"] else 1 for f in description["fields"]) + seats
    first_row = sheet.split("<tbody>")[1].split("</tr>")[0]
    assert first_row.count("<td") == columns
    assert sheet.count("<col ") == columns + 1  # and the deal's number
    ticks = sum(1 for f in description["fields"] if f["kind"] == "bool")
    assert first_row.count('class="box"') == ticks
    assert all(name in sheet for name in seat_names(round_.fixtures.get()))


def test_the_key_says_what_each_column_takes(alice):
    event, _round = over_the_table(alice, "schieberamsch", players=3, deals=1)
    (sheet,) = sheets_of(client_of(alice).get(sheets_url(event)).content.decode())
    key = text(sheet.split('<dl class="sheet-key">')[1].split("</dl>")[0]).replace("&#x27;", "'")
    assert "Declarer: a seat's number, 1 to 3; only if Grand Hand is ticked" in key
    assert "Jungfrau: the seat that took no trick" in key
    assert "may stay blank: nobody" in key
    assert "add up to 120 over the seats" in key
    # Columns that take the same share a line of the key.
    event, _round = over_the_table(alice, "saichugen", players=3, deals=1, prefix="s")
    (sheet,) = sheets_of(client_of(alice).get(sheets_url(event)).content.decode())
    key = text(sheet.split('<dl class="sheet-key">')[1].split("</dl>")[0])
    assert "Round 1, Round 2, Round 3, Round 4, Round 5: the values of the tricks" in key
    assert key.count("the values of the tricks") == 1


def test_the_page_takes_the_same_number_of_queries_for_any_number_of_tables(
    alice, sam, django_assert_max_num_queries
):
    small, _ = over_the_table(alice, players=3, prefix="s")
    large, _ = over_the_table(alice, players=36, prefix="l")
    for event, tables in ((small, 1), (large, 12)):
        for who in (None, sam, alice):
            client = client_of(who)
            with django_assert_max_num_queries(7):  # anonymous: 4
                response = client.get(sheets_url(event))
            assert len(sheets_of(response.content.decode())) == tables


def test_a_stranger_gets_no_sheets_of_a_draft_event_or_a_draft_round(alice, sam):
    draft, _ = over_the_table(alice, publish_event=False, publish_round=False, prefix="d")
    for who in (None, sam):
        assert client_of(who).get(sheets_url(draft)).status_code == 404
    assert client_of(alice).get(sheets_url(draft)).status_code == 200

    event, _ = over_the_table(alice, publish_round=False, prefix="r")
    for who in (None, sam):
        assert client_of(who).get(sheets_url(event)).status_code == 404
    assert client_of(alice).get(sheets_url(event)).status_code == 200
    assert client_of(alice).get(sheets_url(event, 2)).status_code == 404  # no round 2 yet
    assert client_of(alice).get("/events/nothing-here/rounds/1/sheets/").status_code == 404


def test_the_round_page_links_to_the_sheets_and_offers_a_print_button(alice, sam):
    event, _ = over_the_table(alice)
    page = client_of(sam).get(reverse("league:round", args=[event.slug, 1])).content.decode()
    assert f'href="{sheets_url(event)}"' in page
    assert "data-print>" in page  # static/js/site.js prints (no inline handler: the CSP)
    standings = client_of(sam).get(reverse("league:standings", args=[event.slug]))
    assert "data-print>" in standings.content.decode()


def test_an_online_event_links_its_sheets_for_its_organizers_only(alice, sam):
    event, _ = over_the_table(alice)
    event.play_online = True  # the tables are played online: paper is the organizers' fallback
    event.save(update_fields=["play_online"])
    url = reverse("league:round", args=[event.slug, 1])
    assert sheets_url(event) not in client_of(sam).get(url).content.decode()
    assert sheets_url(event) in client_of(alice).get(url).content.decode()
