"""The ledger page shows what ledger.csv holds, table by table and deal by deal (deals from 1),
a page at a time with a fixed number of queries, to exactly whoever may download the CSV."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from django.urls import reverse

from league.models import Event, LedgerEntry, Player
from league.pages import event_ledger
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

HEADING = re.compile(r"Round (\d+)</a>, <a [^>]*>table (\d+)</a>")
SECTION = re.compile(r'<section class="ledger-table" id="table-\d+">(.*?)</section>', re.S)


def ledger_url(event: Event, page: int | None = None) -> str:
    url = reverse("league:ledger", args=[event.slug])
    return url if page is None else f"{url}?page={page}"


def csv_rows(client, event: Event) -> list[list[str]]:
    response = client.get(reverse("league:ledger_csv", args=[event.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert rows[0] == ["round", "table", "deal", "seat", "player_id", "player", "score", "payout"]
    return rows[1:]


def page_rows(page: str) -> list[list[str]]:
    """The page's tables read back into the CSV's rows: round, table, deal, seat, player id,
    player, score, payout."""
    rows = []
    for section in SECTION.findall(page):
        round_no, table_no = HEADING.search(section).groups()
        players = re.findall(r'<th colspan="2"><a href="/players/(\d+)/">(.*?)</a></th>', section)
        body = section.split("<tbody>")[1]
        for deal, cells in re.findall(r"<tr><td>(\d+)</td>(.*?)</tr>", body, re.S):
            values = re.findall(r'<td class="num">([^<]*)</td>', cells)
            for seat, (player_id, name) in enumerate(players):
                score, payout = values[2 * seat], str(int(values[2 * seat + 1]))  # +2 is 2
                name = html.unescape(name)
                rows.append([round_no, table_no, deal, str(seat), player_id, name, score, payout])
    return rows


def test_the_page_shows_every_row_of_ledger_csv_with_deals_from_one(client, played):
    response = client.get(ledger_url(played))
    assert response.status_code == 200
    page = response.content.decode()
    expected = csv_rows(client, played)
    assert len(expected) == 2 * 2 * 2 * 3  # rounds x tables x deals x seats
    assert page_rows(page) == expected
    assert {row[2] for row in page_rows(page)} == {"1", "2"}  # never deal 0
    assert f'href="{reverse("league:ledger_csv", args=[played.slug])}"' in page


def test_the_pages_together_are_the_csv(client, played, monkeypatch):
    monkeypatch.setattr(event_ledger, "LEDGER_PAGE_DEALS", 3)  # 8 deals: pages of 3, 3, 2
    pages = [client.get(ledger_url(played, n)).content.decode() for n in (1, 2, 3)]
    assert "page 1 of 3" in pages[0] and "deals 1\u20133 of 8" in pages[0]  # an en dash
    assert "deals 7\u20138 of 8" in pages[2]
    rows = [row for page in pages for row in page_rows(page)]
    assert rows == csv_rows(client, played)
    # A page out of range shows the last one, as the standings do.
    assert page_rows(client.get(ledger_url(played, 99)).content.decode()) == page_rows(pages[2])


def test_a_player_renamed_with_markup_is_shown_as_text(client, played):
    player = LedgerEntry.objects.filter(event=played).first().player
    Player.objects.filter(pk=player.pk).update(name="<b>Zoë</b> & co")
    page = client.get(ledger_url(played)).content.decode()
    assert "<b>Zoë</b>" not in page and "&lt;b&gt;Zoë&lt;/b&gt; &amp; co" in page
    assert page_rows(page) == csv_rows(client, played)


def test_an_event_without_results_says_so(client, make_event):
    event = make_event("saichugen")
    page = client.get(ledger_url(event)).content.decode()
    assert "No results yet." in page


# The session and its account, the event, whether the reader organizes it, the count, the page.
QUERIES = 6


@pytest.mark.parametrize("page_deals", [3, event_ledger.LEDGER_PAGE_DEALS])
def test_the_page_uses_a_fixed_number_of_queries(
    client, make_event, alice, played, monkeypatch, page_deals, django_assert_max_num_queries
):
    monkeypatch.setattr(event_ledger, "LEDGER_PAGE_DEALS", page_deals)
    big = make_event("three_five_eight", players=36, deals_per_match=3)
    for seed in (1, 2, 3):
        play_round(big, alice, seed=seed)
    # 36 tables of up to 3 deals (a 3-5-8 match may end early): far more than a page of 3
    assert LedgerEntry.objects.filter(event=big).count() > 250
    client.force_login(alice)
    for event in (played, big):
        with django_assert_max_num_queries(QUERIES):
            assert client.get(ledger_url(event, 2)).status_code == 200


def test_a_private_events_ledger_is_hidden_exactly_as_its_csv(client, played, alice, bob, charlie):
    Event.objects.filter(pk=played.pk).update(visibility=Event.Visibility.DRAFT)
    csv_url = reverse("league:ledger_csv", args=[played.slug])
    for who, status in ((None, 404), (charlie, 404), (bob, 404), (alice, 200)):
        client.logout()
        if who is not None:
            client.force_login(who)
        assert client.get(ledger_url(played)).status_code == status, who
        assert client.get(csv_url).status_code == status, who
    # The stranger learns nothing of it: no name, no score.
    client.force_login(charlie)
    assert played.name not in client.get(ledger_url(played)).content.decode()
