"""The served `standings.csv` is the standings exporter's output, cell for cell.

The file's shape is a contract (scripts read it): machine column names, every snapshot row, ranks
and counts as numbers, tie-break values as computed (floats included), names neutralised.
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from league import csv_safe
from league.models import Entry
from league.services.standings import standings_rows
from tests.league.conftest import play_round

pytestmark = pytest.mark.django_db

TIEBREAKS = ["opponents_average_payout", "head_to_head", "wins"]


def expected_file(event) -> str:
    """The file as the view wrote it before it used the exporter (the shape to keep)."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    writer.writerow(
        [
            "rank",
            "player_id",
            "player",
            "matches_played",
            "match_points",
            "total_payouts",
            "wins",
            "byes",
            *event.tiebreaks,
        ]
    )
    for row in standings_rows(event):
        writer.writerow(
            [
                row["rank"],
                row["player_id"],
                row["player"],
                row["matches_played"],
                row["match_points"],
                row["total_payouts"],
                row["wins"],
                row["byes"],
                *row["tiebreaks"],
            ]
        )
    return out.getvalue()


def test_the_served_file_keeps_its_columns_cells_and_safety(client, make_event, alice):
    event = make_event("saichugen", players=6, tiebreaks=TIEBREAKS)
    entry = Entry.objects.filter(event=event).select_related("player").first()
    entry.player.name = "=HYPERLINK(1)"
    entry.player.save(update_fields=["name"])
    play_round(event, alice)
    play_round(event, alice, seed=3)
    served = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    assert served == expected_file(event)
    lines = served.splitlines()
    assert lines[0] == (
        "rank,player_id,player,matches_played,match_points,total_payouts,wins,byes,"
        "opponents_average_payout,head_to_head,wins"
    )
    assert len(lines) == 1 + 6
    assert "'=HYPERLINK(1)" in served  # the name reaches the spreadsheet as text
    averages = [line.split(",")[8] for line in lines[1:]]
    assert any("." in a for a in averages)  # a float tie-break is written as a number
