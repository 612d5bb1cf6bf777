"""A knockout's bracket: every table of every round with who went on and how (the lot shown),
lines to where they played next, the champion at its root; the same reading as the round
pages; a constant number of queries; a 404 for formats that have no bracket."""

from __future__ import annotations

import itertools
import re

import pytest

from league.draws import draw_order
from league.pages.bracket import COLUMN, FIGURE, INSET, Box, layout
from league.scheduling import get_format
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.bracket import bracket
from league.services.results import record_result
from league.services.standings import standings_rows
from tests.league.conftest import record_for

pytestmark = pytest.mark.django_db

KNOCKOUT = get_format("knockout")
LEVEL = {"deals": [{"scores": [20, 20, 20]}]}  # a Saichugen sheet: all three win, level


def play_to_the_final(event, alice, level_tables=frozenset()):
    """Every round to the final; the (round, table) pairs in `level_tables` end level."""
    played = []
    while not played or not KNOCKOUT.is_decided(round_services.played_plan(played[-1])):
        round_ = round_services.generate_round(event, by=alice)
        round_services.publish_round(round_, by=alice)
        for fixture in round_.fixtures.order_by("number"):
            if (round_.number, fixture.number) in level_tables:
                record_result(fixture, by=alice, sheet=LEVEL)
            else:
                record_result(fixture, by=alice, record=record_for(fixture, seed=round_.number))
        played.append(round_)
    return played


def test_thirteen_in_threes_to_the_champion_with_a_table_decided_by_lot(make_event, alice, client):
    event = make_event("saichugen", players=13, format="knockout", rounds=3)
    played = play_to_the_final(event, alice, level_tables={(1, 2)})
    drawn = bracket(event)
    assert [r.number for r in drawn.rounds] == [r.number for r in played]
    assert [len(r.tables) for r in drawn.rounds] == [r.fixtures.count() for r in played]
    assert drawn.rounds[-1].final and not any(r.final for r in drawn.rounds[:-1])
    # the champion is the standings' first, who went on from the final
    champion = standings_rows(event)[0]["player"]
    assert drawn.champion == champion
    (final_table,) = drawn.rounds[-1].tables
    assert [s.name for s in final_table.seats if s.goes_on] == [champion]
    # every table of a decided round sends exactly one person on; the tie by the event's draw
    for round_ in drawn.rounds:
        assert all(sum(s.goes_on for s in t.seats) == 1 for t in round_.tables)
    tied = drawn.rounds[0].tables[1]
    assert tied.by_lot and all(s.won for s in tied.seats)  # all three won the game, level
    lot_winner = draw_order(event.seed, [s.player_id for s in tied.seats])[0]
    assert [s.player_id for s in tied.seats if s.goes_on] == [lot_winner]
    # who went on is who plays the next round (table goers, byes and the best non-winners)
    for before, after in zip(drawn.rounds, drawn.rounds[1:], strict=False):
        on = {s.player_id for t in before.tables for s in t.seats if s.goes_on or s.filled}
        on |= {p for p, _n in before.byes}
        assert on == {s.player_id for t in after.tables for s in t.seats}

    page = client.get(f"/events/{event.slug}/bracket/")
    assert page.status_code == 200
    html = page.content.decode()
    assert re.search(r"Champion: <strong>[^<]+</strong>", html)
    assert champion in html
    assert "the event&#x27;s draw" in html  # the lot, shown under its table
    assert html.count('class="box table"') == sum(len(r.tables) for r in drawn.rounds)
    assert 'class="box champion"' in html
    # a line for everyone who went on, and one from the final to the champion
    going = sum(
        1 for r in drawn.rounds[:-1] for t in r.tables for s in t.seats if s.goes_on or s.filled
    ) + sum(len(r.byes) for r in drawn.rounds[:-1])
    assert len(re.findall(r'<path class="line', html)) == going + 1
    # reachable from the event page, and printable
    assert f"/events/{event.slug}/bracket/" in client.get(f"/events/{event.slug}/").content.decode()
    assert "data-print" in html


def test_a_bracket_half_played_has_no_champion_yet(make_event, alice, client):
    event = make_event("saichugen", players=10, format="knockout", rounds=3)
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    fixtures = list(first.fixtures.order_by("number"))
    record_result(fixtures[0], by=alice, record=record_for(fixtures[0]))
    drawn = bracket(event)
    assert drawn.champion is None and not drawn.rounds[0].decided
    assert drawn.rounds[0].tables[0].played and not drawn.rounds[0].tables[1].played
    html = client.get(f"/events/{event.slug}/bracket/").content.decode()
    assert "Champion:" not in html
    assert "not played yet" in html


def test_other_formats_have_no_bracket_and_drafts_stay_private(make_event, alice, client):
    swiss = make_event("saichugen", players=6, format="swiss")
    assert client.get(f"/events/{swiss.slug}/bracket/").status_code == 404
    assert client.get("/events/no-such-event/bracket/").status_code == 404
    draft = event_services.create_event(
        alice, name="draft cup", game="saichugen", rounds=3, deals_per_match=1, format="knockout"
    )
    assert client.get(f"/events/{draft.slug}/bracket/").status_code == 404  # a secret draft
    client.force_login(alice)
    assert client.get(f"/events/{draft.slug}/bracket/").status_code == 200  # its organizer's


def test_the_layout_keeps_every_box_inside_and_apart(make_event, alice):
    event = make_event("three_five_eight", players=29, format="knockout", rounds=4)
    play_to_the_final(event, alice)
    drawing = layout(bracket(event))
    for box in drawing.boxes:
        assert box.x >= 0 and box.x + 210 <= drawing.width
        assert box.y >= 0 and box.y + box.height <= drawing.height
    by_column = {}
    for box in drawing.boxes:
        by_column.setdefault(box.x, []).append(box)
    for boxes in by_column.values():
        boxes.sort(key=lambda b: b.y)
        assert all(a.y + a.height <= b.y for a, b in itertools.pairwise(boxes))


def test_a_name_too_long_for_its_box_is_drawn_narrower_not_over_its_payout():
    """Measured in Chromium (tests/league/test_club_evening_browser.py checks the drawing): a
    30-letter name in bold runs 250 px, past its payout and out of a 210 px box."""
    rows = [
        ("Wilhelmina Vandersteen-Okonkwo", "+2", "goes-on won"),
        ("Mo", "-1", ""),
        ("Bartholomew Fairweather", "", "filled"),  # 167 px: fits where no payout is
        ("山田太郎山田太郎山田太郎山田太郎", "", ""),  # 16 wide letters: 208 px
        ("Bot 1", "-1", "bot"),
    ]
    box = Box(0, 0, 120, "Table 1", rows, foot="the event's draw", foot_class="lot")
    box.rows_y = [20, 38, 56, 74, 92]
    placed = {label: fit for label, _figure, _classes, _y, fit in box.placed_rows}
    with_payout, whole = COLUMN - 2 * INSET - FIGURE, COLUMN - 2 * INSET
    assert placed == {
        "Wilhelmina Vandersteen-Okonkwo": with_payout,
        "Mo": None,
        "Bartholomew Fairweather": None,
        "山田太郎山田太郎山田太郎山田太郎": whole,
        "Bot 1 (bot)": None,
    }
    assert box.foot_line == ("⚄ the event's draw", None)


def test_the_bracket_uses_a_constant_number_of_queries(
    make_event, alice, client, django_assert_max_num_queries
):
    for game, players in (("saichugen", 10), ("three_five_eight", 29)):
        event = make_event(game, players=players, format="knockout", rounds=4)
        play_to_the_final(event, alice)
        with django_assert_max_num_queries(16):
            assert client.get(f"/events/{event.slug}/bracket/").status_code == 200
