"""`GET /api/events/<slug>/ledger/`: the ledger CSV's rows in JSON — the same rows for the same
readers, paginated, zero-sum per deal, in a fixed number of queries."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

import pytest
from django.urls import reverse

from league.models import Result
from tests.league_api.builders import client_of, enter, league_with, make_event, seat_round

pytestmark = pytest.mark.django_db


def ledger_url(event: Any) -> str:
    return f"/api/events/{event.slug}/ledger/"


def every_row(client: Any, event: Any) -> list[dict[str, Any]]:
    """Every page of the ledger, followed by its `next` links."""
    rows, address = [], ledger_url(event)
    while address:
        body = client.get(address).json()
        rows += body["results"]
        address = body["next"]
    return rows


def played_deals(event: Any) -> int:
    """The deals the event's counted results hold (fixtures' seeds differ between databases)."""
    return sum(
        len(r.scored["deals"])
        for r in Result.objects.filter(fixture__round__event=event, current=True)
    )


def csv_rows(client: Any, event: Any) -> list[list[str]]:
    response = client.get(reverse("league:ledger_csv", args=[event.slug]))
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))[1:]


def test_the_ledger_holds_the_csvs_rows_deals_from_0(alice, anonymous):
    event = league_with(alice, rounds=2, tables=2, deals_per_match=2)
    rows = every_row(anonymous, event)
    # seats x the deals each result counts (a 3-5-8 match may end before its last deal)
    played = played_deals(event)
    assert 2 * 2 <= played <= 2 * 2 * 2 and len(rows) == played * 3
    as_csv = [
        [r["round"], r["table"], r["deal"] + 1, r["seat"], r["player_id"], r["player"],
         r["score"], r["payout"]]
        for r in rows
    ]  # fmt: skip
    assert [[str(v) for v in row] for row in as_csv] == csv_rows(anonymous, event)
    assert {r["deal"] for r in rows} <= {0, 1} and 0 in {r["deal"] for r in rows}
    fixtures = {r["fixture_id"] for r in rows}
    assert len(fixtures) == 4
    assert set(rows[0]) == {
        "round", "table", "fixture_id", "deal", "seat", "player_id", "player", "score", "payout",
    }  # fmt: skip


def test_every_deal_pays_out_zero_in_all(alice, anonymous):
    event = league_with(alice, rounds=1, tables=2, deals_per_match=3)
    totals: dict[tuple[int, int], int] = defaultdict(int)
    for r in every_row(anonymous, event):
        totals[r["fixture_id"], r["deal"]] += r["payout"]
    assert len(totals) == 6 and set(totals.values()) == {0}


def test_it_is_paginated_like_the_other_lists(alice, anonymous):
    event = league_with(alice, rounds=3, tables=3, deals_per_match=3)  # up to 81 rows
    rows = 3 * played_deals(event)  # a 3-5-8 match may end before its last deal
    assert 50 < rows <= 81
    first = anonymous.get(ledger_url(event)).json()
    assert first["count"] == rows and first["previous"] is None
    assert len(first["results"]) == 50 and first["next"]
    second = anonymous.get(first["next"]).json()
    assert len(second["results"]) == rows - 50 and second["next"] is None
    order = [
        (r["round"], r["table"], r["deal"], r["seat"]) for r in first["results"] + second["results"]
    ]
    assert order == sorted(order)


def test_a_drafts_ledger_is_its_organizers_as_its_csv_is(alice, bob, charlie, anonymous):
    event = make_event(alice, "Secret Draft", published=False)
    seat_round(event, [enter(event, ["dora", "emil", "fritz"])], publish=False)
    for outsider in (anonymous, client_of(bob), client_of(charlie)):
        assert outsider.get(ledger_url(event)).status_code == 404
        assert outsider.get(reverse("league:ledger_csv", args=[event.slug])).status_code == 404
    answer = client_of(alice).get(ledger_url(event))
    assert answer.status_code == 200 and answer.json()["count"] == 0


def test_no_such_event_is_a_404(anonymous):
    assert anonymous.get("/api/events/nowhere/ledger/").status_code == 404


@pytest.mark.parametrize("size", [1, 3])
def test_the_ledger_reads_a_fixed_number_of_queries(
    alice, anonymous, size, django_assert_max_num_queries
):
    event = league_with(alice, rounds=size, tables=size)
    organizer = client_of(alice)
    with django_assert_max_num_queries(3):  # the event, the count, the page
        answer = anonymous.get(ledger_url(event))
    assert answer.json()["count"] == 3 * played_deals(event) >= size * size * 3
    with django_assert_max_num_queries(5):  # and the session, the account
        assert organizer.get(ledger_url(event)).status_code == 200
