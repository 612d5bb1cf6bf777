"""An event's ledger as a page, `/events/<slug>/ledger/`: what `ledger.csv` holds, readable.

The same rows as the CSV (`league.pages.events.ledger_csv`: one per seat per deal of every counting
result, in round, table, deal and seat order), visible to whoever may see the event, deals
counted from 1. A page holds `LEDGER_PAGE_DEALS` deals, grouped table by table, so a big event's
page reads one page of rows: a fixed number of queries (the event, who may see it, the count
and the page).
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import catalogue
from league.pages.events import visible_event
from league.services.ledger import ledger_rows, withheld_from

# Deals per page: a page holds this many deals times the game's seats rows.
LEDGER_PAGE_DEALS = 100


def ledger_tables(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One page's rows as tables: each table's seats (player by seat) and its deals, each deal
    its seats' scores and payouts. A table cut by the page break is shown on both pages."""
    tables = []
    for (round_no, table_no), table_rows in groupby(
        rows, key=lambda r: (r["round__number"], r["fixture__number"])
    ):
        table_rows = list(table_rows)
        deals = []
        for deal, deal_rows in groupby(table_rows, key=lambda r: r["deal"]):
            by_seat = {r["seat"]: r for r in deal_rows}
            deals.append({"number": deal + 1, "by_seat": by_seat})  # deals from 1 for a reader
        seats: dict[int, dict[str, Any]] = {}
        for r in table_rows:
            seats.setdefault(r["seat"], {"id": r["player_id"], "name": r["player__name"]})
        for d in deals:
            # a payout with its sign, as the help page shows them: +2, 0, -1; a table of
            # four's sitter played no part in the deal: a dash (no row in the ledger)
            d["cells"] = [_cell(d["by_seat"].get(s)) for s in sorted(seats)]
            del d["by_seat"]
        tables.append(
            {
                "round": round_no,
                "table": table_no,
                "fixture_id": table_rows[0]["fixture_id"],
                "seats": [seats[s] for s in sorted(seats)],
                "deals": deals,
            }
        )
    return tables


def _cell(row: dict[str, Any] | None) -> dict[str, Any]:
    if row is None:
        return {"score": "\u2013", "payout": "\u2013"}  # an en dash
    return {"score": row["score"], "payout": f"{row['payout']:+d}" if row["payout"] else "0"}


@require_GET
def ledger(request: HttpRequest, slug: str) -> HttpResponse:
    """One page of the event's ledger (`?page=`; a page out of range gives the last one)."""
    event = visible_event(request, slug)
    seats = catalogue.game(event.game).seats
    withheld = withheld_from(request.user, event)
    page = Paginator(ledger_rows(event, withheld=withheld), LEDGER_PAGE_DEALS * seats).get_page(
        request.GET.get("page")
    )
    context = {
        "event": event,
        "page": page,
        "tables": ledger_tables(list(page)),
        # the pager counts deals (a deal is `seats` rows), over the whole event
        "span": {
            "first": (page.start_index() - 1) // seats + 1,
            "last": -(-page.end_index() // seats),
            "total": -(-page.paginator.count // seats),
        },
    }
    return render(request, "league/ledger.html", context)
