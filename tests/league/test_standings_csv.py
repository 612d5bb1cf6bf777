"""The served `standings.csv` is the standings exporter's output, cell for cell.

The file's shape is a contract (scripts read it): machine column names, each once, every snapshot
row, ranks and counts as numbers, averages with two decimals, names neutralised, and never the
lot's numbers (they give the event's secret seed back; the ranks they decide are there).
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse

from league.draws import lot_number
from league.models import Entry
from league.services.standings import standings_rows
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

TIEBREAKS = ["opponents_average_payout", "head_to_head", "wins"]
FIXED = "rank,player_id,player,matches_played,match_points,total_payouts,wins,byes,absences"


def served(client, event) -> list[list[str]]:
    body = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    return list(csv.reader(io.StringIO(body, newline="")))


def test_the_served_file_keeps_its_columns_cells_and_safety(client, make_event, alice):
    event = make_event("saichugen", players=6, tiebreaks=TIEBREAKS)
    entry = Entry.objects.filter(event=event).select_related("player").first()
    entry.player.name = "=HYPERLINK(1)"
    entry.player.save(update_fields=["name"])
    play_round(event, alice)
    play_round(event, alice, seed=3)
    body = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    lines = body.splitlines()
    # `wins` is a fixed column already: the tie-break is not written a second time.
    assert lines[0] == f"{FIXED},opponents_average_payout,head_to_head"
    assert len(lines) == 1 + 6
    assert "'=HYPERLINK(1)" in body  # the name reaches the spreadsheet as text
    rows = served(client, event)
    snapshot = {row["player_id"]: row for row in standings_rows(event)}
    for line in rows[1:]:
        row = snapshot[int(line[1])]
        assert [int(c) for c in line[:2]] == [row["rank"], row["player_id"]]
        assert [int(c) for c in line[3:9]] == [
            row["matches_played"],
            row["match_points"],
            row["total_payouts"],
            row["wins"],
            row["byes"],
            row["absences"],
        ]
        average, head_to_head = line[9:]
        # Two decimals, rounded half up from the number a reader sees (-1.625 gives -1.63).
        exact = Decimal(repr(float(row["tiebreaks"][0])))
        assert average == str(exact.quantize(Decimal("0.01"), ROUND_HALF_UP) + 0), average
        assert int(head_to_head) == row["tiebreaks"][1]


def test_the_issues_event_has_no_duplicate_column_and_no_lot(client, make_event, alice):
    event = make_event(
        "saichugen", players=6, tiebreaks=["total_payouts", "opponents_average_payout", "lot"]
    )
    play_round(event, alice)
    rows = served(client, event)
    header = rows[0]
    assert ",".join(header) == f"{FIXED},opponents_average_payout"
    assert len(header) == len(set(header))
    lots = {str(lot_number(event.seed, int(line[1]))) for line in rows[1:]}
    assert not lots & {cell for line in rows for cell in line}
    # The lot still decides: nobody shares a rank.
    assert sorted(int(line[0]) for line in rows[1:]) == list(range(1, 7))


def test_a_knockout_writes_the_round_reached_its_page_shows(client, make_event, alice):
    event = make_event("saichugen", players=9, format="knockout", rounds=2)
    play_round(event, alice)
    play_round(event, alice, seed=2)  # the final: one table of round 1's winners
    header, *lines = served(client, event)
    assert header[:4] == ["rank", "player_id", "player", "round_reached"]
    assert ",".join(header[4:10]) == FIXED.split(",", 3)[3]
    snapshot = {row["player_id"]: row for row in standings_rows(event)}
    assert sorted(int(line[3]) for line in lines) == [1] * 6 + [2] * 3
    for line in lines:
        assert int(line[3]) == snapshot[int(line[1])]["round_reached"]
    page = client.get(reverse("league:standings", args=[event.slug])).content.decode()
    assert "Round reached" in page
    # A points event keeps its columns.
    league = make_event("three_five_eight", players=3, format="league", tiebreaks=TIEBREAKS)
    assert "round_reached" not in served(client, league)[0]
