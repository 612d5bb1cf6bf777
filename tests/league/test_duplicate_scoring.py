"""Duplicate scoring through the real models (issue #21, shared/spec/duplicate.md): sections
loaded from fixtures and score sheets, forfeits, completion and release, standings by total and
by percentage, secrecy until a section is complete, travellers (page, API, CSV).

Saichugen sheets: `[30, 25, 20]` pays `[-1, 2, -1]`, `[20, 20, 35]` pays `[1, 1, -2]`,
`[25, 25, 25]` pays nothing (the middle score wins; checked below, the figures lean on it).
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from league.errors import LeagueError
from league.models import Event, Fixture, Notice, RatedMatch, Result, Section
from league.ratings.services import rated_fixtures
from league.services import duplicate_scoring
from league.services import rounds as round_services
from league.services.results import record_forfeit, record_result
from league.services.standings import compute_rows, refresh_standings
from tests.language import text_plural

pytestmark = pytest.mark.django_db

MIDDLE_1 = [30, 25, 20]  # pays [-1, 2, -1]
LOW_TIE = [20, 20, 35]  # pays [1, 1, -2]
FLAT = [25, 25, 25]  # pays [0, 0, 0]


def sheet(*deals):
    return {"deals": [{"scores": d} for d in deals]}


@pytest.fixture
def dup(make_event, alice):
    """A published duplicate round of three tables (nine players, two deals, over the table);
    the seat-0 player of each table has an account: users[0..2]."""
    event = make_event(
        "saichugen", players=9, scoring="duplicate", deals_per_match=2, play_online=False
    )
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    event.refresh_from_db()
    fixtures = list(round_.fixtures.order_by("number"))
    users = []
    for fixture in fixtures:
        player = fixture.seats.get(number=0).player
        player.user = get_user_model().objects.create_user(f"p{fixture.number}", password="pw")
        player.save()
        users.append(player.user)
    return event, round_, fixtures, users


def enter(alice, fixture, *deals, forfeited=None):
    return record_result(
        Fixture.objects.get(pk=fixture.pk), by=alice, sheet=sheet(*deals), forfeited_seats=forfeited
    )


def section_of(fixtures) -> Section:
    return Section.objects.get(pk=fixtures[0].section_id)


def test_the_sheets_pay_as_the_docstring_says(dup, alice):
    _event, _round, fixtures, _users = dup
    result = enter(alice, fixtures[0], MIDDLE_1, LOW_TIE)
    assert [d["payouts"] for d in result.scored["deals"]] == [[-1, 2, -1], [1, 1, -2]]


def test_one_section_holds_every_table_and_completes_with_the_last_result(dup, alice):
    event, _round, fixtures, _users = dup
    assert {f.section_id for f in fixtures} == {section_of(fixtures).pk}
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    assert section_of(fixtures).completed_at is None
    assert duplicate_scoring.pending_fixtures(event) == {f.pk for f in fixtures}
    enter(alice, fixtures[2], FLAT, FLAT)
    assert section_of(fixtures).completed_at is not None
    assert duplicate_scoring.pending_fixtures(event) == frozenset()
    # a correction once complete is published as in any event
    enter_correction = record_result(
        Fixture.objects.get(pk=fixtures[2].pk),
        by=alice,
        sheet=sheet(FLAT, MIDDLE_1),
        correction=True,
        reason="typo",
    )
    assert enter_correction.version == 2


def test_the_loaded_section_is_scored_as_the_spec_says(dup, alice):
    event, round_, fixtures, _users = dup
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    enter(alice, fixtures[2], FLAT, FLAT)
    [loaded] = duplicate_scoring.load_sections(event, round_=round_)
    assert loaded.fixture_ids == [f.pk for f in fixtures]
    first, second = loaded.scores.travellers
    # deal 0, seat 0: -1, 1, 0 → datum 0; seat 1: 2, 1, 0 → datum 1; seat 2: -1, -2, 0 → -1
    assert first.datum == (0, 1, -1)
    assert [row.differences for row in first.tables] == [(-1, 1, 0), (1, 0, -1), (0, -1, 1)]
    assert [row.matchpoints for row in first.tables] == [(0, 2, 1), (2, 1, 0), (1, 0, 2)]
    assert [row.percentages for row in first.tables] == [(0, 100, 50), (100, 50, 0), (50, 0, 100)]
    # deal 1: the same payout everywhere: no difference, every table half the top
    assert [row.matchpoints for row in second.tables] == [(1, 1, 1)] * 3
    assert [row.percentages for row in second.tables] == [(50, 50, 50)] * 3


def test_a_forfeit_stops_the_table_and_the_forfeiter_gets_the_lowest_difference(dup, alice):
    event, round_, fixtures, _users = dup
    enter(alice, fixtures[0], FLAT, MIDDLE_1)
    enter(alice, fixtures[1], FLAT, FLAT)
    enter(alice, fixtures[2], FLAT, forfeited=[2])  # seat 2 walked out after deal 1
    [loaded] = duplicate_scoring.load_sections(event, round_=round_)
    table = loaded.scores.section.tables[2]
    assert table.deals == ((0, 0, 0), None) and table.stopped_by == {2}
    second = loaded.scores.travellers[1]
    # deal 1 over C = tables 1, 2: seat 2 pays -1, 0 → datum -1/2, differences -1/2, +1/2
    assert second.datum == (Fraction(-1, 2), 1, Fraction(-1, 2))
    stopped = second.tables[2]
    assert not stopped.completed and stopped.payouts is None and stopped.matchpoints is None
    assert stopped.differences == (0, 0, Fraction(-1, 2))
    assert stopped.percentages == (50, 50, 0)
    assert section_of(fixtures).completed_at is not None  # a forfeit is a counting result


def test_a_deal_completed_at_one_table_only_has_no_datum(dup, alice):
    event, round_, fixtures, _users = dup
    enter(alice, fixtures[0], MIDDLE_1, LOW_TIE)
    record_forfeit(fixtures[1], [0], reason="absent")  # no deal at all (a deadline's forfeit)
    enter(alice, fixtures[2], MIDDLE_1, forfeited=[1])  # deal 0 only
    [loaded] = duplicate_scoring.load_sections(event, round_=round_)
    first, second = loaded.scores.travellers
    assert first.datum == (-1, 2, -1)  # tables 1 and 3, the same payouts
    assert second.datum == (None, None, None)  # only table 1 completed deal 1
    assert second.tables[0].differences == (0, 0, 0)
    assert second.tables[0].percentages == (50, 50, 50)
    # the forfeiter at a table not in C: min(0, nothing) = 0, and 0 %
    assert second.tables[2].differences == (0, 0, 0)
    assert second.tables[2].percentages == (50, 0, 50)
    assert first.tables[1].percentages == (0, 50, 50)


def complete(alice, fixtures):
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    enter(alice, fixtures[2], FLAT, FLAT)


def player_at(fixture, seat):
    return fixture.seats.get(number=seat).player_id


def test_standings_rank_by_duplicate_total_and_show_the_percentage(dup, alice):
    event, _round, fixtures, _users = dup
    complete(alice, fixtures)
    rows = {r["player_id"]: r for r in compute_rows(event)}
    top = rows[player_at(fixtures[0], 1)]  # +1 on deal 0, 0 on deal 1
    assert top["duplicate_total"] == 1.0 and top["matchpoint_pct"] == 75.0
    assert top["duplicate_total_shown"] == "1.00" and top["matchpoint_pct_shown"] == "75.00"
    assert top["rank"] == 1
    bottom = rows[player_at(fixtures[1], 2)]  # -1 on deal 0
    assert bottom["duplicate_total"] == -1.0 and bottom["rank"] > top["rank"]
    totals = sorted((r["duplicate_total"] for r in rows.values()), reverse=True)
    assert [r["duplicate_total"] for r in compute_rows(event)] == totals
    assert sum(totals) == 0  # differences sum to zero over the section


def test_standings_by_percentage_rank_exactly_and_the_total_is_shown(dup, alice):
    event, _round, fixtures, _users = dup
    Event.objects.filter(pk=event.pk).update(duplicate_rank="percentage")
    event.refresh_from_db()
    complete(alice, fixtures)
    table = compute_rows(event)
    pcts = [r["matchpoint_pct"] for r in table]
    assert pcts == sorted(pcts, reverse=True)
    # 100 % then 50 %: 75 % each, the best three (the event's tie-breaks order them)
    assert {r["player_id"] for r in table[:3]} == {
        player_at(fixtures[0], 1),
        player_at(fixtures[1], 0),
        player_at(fixtures[2], 2),
    }
    assert pcts[:3] == [75.0] * 3 and pcts[3] == 50.0
    assert [r["duplicate_total"] for r in table[:3]] == [1.0] * 3


def test_only_completed_sections_count_in_the_standings(dup, alice):
    event, _round, fixtures, _users = dup
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    table = compute_rows(event)
    assert all(r["matches_played"] == 0 and r["total_payouts"] == 0 for r in table)
    assert all(r["duplicate_total"] == 0 and r["matchpoint_pct"] is None for r in table)
    enter(alice, fixtures[2], FLAT, FLAT)
    assert all(r["matches_played"] == 1 for r in compute_rows(event))


def test_a_bot_that_fills_a_seat_is_scored_and_marked(make_event, alice):
    event = make_event(
        "saichugen",
        players=5,
        scoring="duplicate",
        deals_per_match=1,
        play_online=False,
        leftover="bot",
    )
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixtures = list(round_.fixtures.order_by("number"))
    assert len(fixtures) == 2
    enter(alice, fixtures[0], MIDDLE_1)
    enter(alice, fixtures[1], LOW_TIE)
    rows = compute_rows(Event.objects.get(pk=event.pk))
    bots = [r for r in rows if r["is_bot"]]
    assert len(bots) == 1 and "duplicate_total" in bots[0]
    assert sum(r["duplicate_total"] for r in rows) == 0


# --- secrecy ------------------------------------------------------------------------------------


def round_page(client, event, round_):
    return client.get(reverse("league:round", args=[event.slug, round_.number])).content.decode()


def test_results_are_withheld_until_the_section_is_complete(client, dup, alice, charlie):
    event, round_, fixtures, users = dup
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    withheld = "this table's result is published when every table"
    anonymous = round_page(client, event, round_)
    assert anonymous.count(withheld) == 3 and "Result v1" not in anonymous
    # a player of table 1 sees their own table's result, not table 2's
    client.force_login(users[0])
    own = round_page(client, event, round_)
    assert own.count(withheld) == 2 and own.count("Result v1") == 1
    # the player of table 3, whose table has no result, sees no other table's
    client.force_login(users[2])
    assert "Result v1" not in round_page(client, event, round_)
    # the organizer, who plays nowhere, sees everything
    client.force_login(alice)
    assert round_page(client, event, round_).count("Result v1") == 2
    # the fixture page, the API, the ledger and its CSV, the player page, the standings
    client.force_login(charlie)
    fixture_page = client.get(reverse("league:fixture", args=[event.slug, fixtures[0].pk]))
    assert withheld in fixture_page.content.decode()
    api = APIClient()
    answer = api.get(f"/api/events/{event.slug}/rounds/{round_.number}/").json()
    assert [f["result"] for f in answer["fixtures"]] == [None, None, None]
    one = api.get(f"/api/events/{event.slug}/fixtures/{fixtures[0].pk}/").json()
    assert one["result"] is None
    ledger = client.get(reverse("league:ledger_csv", args=[event.slug])).content.decode()
    assert len(ledger.strip().splitlines()) == 1  # the header only
    assert api.get(f"/api/events/{event.slug}/ledger/").json()["count"] == 0
    organizer = APIClient()
    organizer.force_login(alice)  # who plays nowhere: the whole ledger, as in the CSV
    assert organizer.get(f"/api/events/{event.slug}/ledger/").json()["count"] == 2 * 2 * 3
    player = fixtures[0].seats.get(number=1).player
    page = client.get(reverse("league:player", args=[player.pk])).content.decode()
    assert "No results yet." in page
    assert api.get(f"/api/players/{player.pk}/").json()["history"] == []
    standings = api.get(f"/api/events/{event.slug}/standings/").json()["results"]
    assert all(r["total_payouts"] == 0 and r["matchpoint_pct"] is None for r in standings)
    # then everything at once
    enter(alice, fixtures[2], FLAT, FLAT)
    client.logout()
    assert round_page(client, event, round_).count("Result v1") == 3
    answer = api.get(f"/api/events/{event.slug}/rounds/{round_.number}/").json()
    assert all(f["result"] is not None for f in answer["fixtures"])
    ledger = client.get(reverse("league:ledger_csv", args=[event.slug])).content.decode()
    assert len(ledger.strip().splitlines()) == 1 + 3 * 2 * 3
    assert api.get(f"/api/events/{event.slug}/ledger/").json()["count"] == 3 * 2 * 3
    assert api.get(f"/api/players/{player.pk}/").json()["history"] != []


def test_the_event_page_counts_no_results_while_a_section_is_played(client, dup, alice, charlie):
    """A count such as "3 tables, 1 results" would tell everyone that one table has finished."""
    event, _round, fixtures, users = dup
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    tables = text_plural("%(tables)s table", "%(tables)s tables", 3, tables=3)

    def results(n: int) -> str:
        return f"{tables}, {text_plural('%(results)s result', '%(results)s results', n, results=n)}"

    progress = results(1)

    def event_page(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client.get(reverse("league:event", args=[event.slug])).content.decode()

    # anonymous, the player of the finished table, the player of one still playing, an outsider
    for viewer in (None, users[0], users[2], charlie):
        page = event_page(viewer)
        assert progress not in page and tables in page
    assert progress in event_page(alice)  # the organizer, who plays nowhere
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    enter(alice, fixtures[2], FLAT, FLAT)
    done = results(3)
    assert all(done in event_page(viewer) for viewer in (None, users[0], charlie))


def test_an_organizer_who_plays_is_a_player_here(client, dup, alice):
    event, round_, fixtures, _users = dup
    seat = fixtures[1].seats.get(number=1)
    seat.player.user = alice
    seat.player.save()
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    assert not duplicate_scoring.sees_everything(alice, event)
    client.force_login(alice)
    assert "Result v1" not in round_page(client, event, round_)


def test_notices_and_ratings_wait_for_the_section(dup, alice, django_capture_on_commit_callbacks):
    _event, _round, fixtures, users = dup
    with django_capture_on_commit_callbacks(execute=True):
        enter(alice, fixtures[0], MIDDLE_1, FLAT)
        enter(alice, fixtures[1], LOW_TIE, FLAT)
    assert not Notice.objects.filter(kind="result_entered").exists()
    assert not RatedMatch.objects.exists()
    assert not rated_fixtures().filter(pk=fixtures[0].pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        enter(alice, fixtures[2], FLAT, FLAT)
    notified = set(Notice.objects.filter(kind="result_entered").values_list("user_id", flat=True))
    assert notified == {u.pk for u in users}
    assert RatedMatch.objects.filter(fixture__in=fixtures).count() == 3


def test_completion_releases_the_online_tables(dup, alice, monkeypatch):
    _event, _round, fixtures, _users = dup
    Fixture.objects.filter(pk__in=[f.pk for f in fixtures]).update(table_ref="")
    Fixture.objects.filter(pk=fixtures[0].pk).update(table_ref="t-one")
    Fixture.objects.filter(pk=fixtures[2].pk).update(table_ref="t-three")
    released = []
    monkeypatch.setattr(
        duplicate_scoring.gameplay, "release_tables", lambda refs: released.append(sorted(refs))
    )
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    assert released == []
    enter(alice, fixtures[2], FLAT, FLAT)
    assert released == [["t-one", "t-three"]]


# --- travellers ---------------------------------------------------------------------------------


def deals_api(event, round_, user=None):
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api.get(f"/api/events/{event.slug}/rounds/{round_.number}/deals/")


def test_the_deals_api_has_the_spec_shape_and_waits_for_the_section(dup, alice, charlie):
    event, round_, fixtures, users = dup
    enter(alice, fixtures[0], FLAT, MIDDLE_1)
    enter(alice, fixtures[1], FLAT, FLAT)
    ids = [f.pk for f in fixtures]
    withheld = {"sections": [{"tables": ids, "deals": None}]}
    assert deals_api(event, round_).json() == withheld
    assert deals_api(event, round_, users[0]).json() == withheld  # a player waits too
    early = deals_api(event, round_, alice).json()  # the organizer who plays nowhere sees it
    assert early["sections"][0]["deals"][0]["tables"][2]["completed"] is False
    enter(alice, fixtures[2], FLAT, forfeited=[2])
    answer = deals_api(event, round_, charlie)
    assert answer.status_code == 200
    [section] = answer.json()["sections"]
    assert section["tables"] == ids
    first, second = section["deals"]
    assert first == {
        "deal": 0,
        "datum": [0.0, 0.0, 0.0],
        "tables": [
            {
                "fixture": fid,
                "completed": True,
                "payouts": [0, 0, 0],
                "differences": [0.0, 0.0, 0.0],
                "matchpoints": [1.0, 1.0, 1.0],
                "percentages": [50.0, 50.0, 50.0],
            }
            for fid in ids
        ],
    }
    assert second["deal"] == 1
    assert second["datum"] == [-0.5, 1.0, -0.5]
    assert second["tables"][2] == {
        "fixture": ids[2],
        "completed": False,
        "payouts": None,
        "differences": [0.0, 0.0, -0.5],
        "matchpoints": None,
        "percentages": [50.0, 50.0, 0.0],
    }
    assert second["tables"][0]["differences"] == [-0.5, 1.0, -0.5]


def test_the_deals_api_is_404_for_an_event_that_is_not_duplicate(make_event, alice):
    event = make_event("saichugen", players=3, play_online=False)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    assert deals_api(event, round_, alice).status_code == 404
    assert deals_api(event, round_).status_code == 404
    page = APIClient().get(reverse("league:traveller", args=[event.slug, round_.number, 1]))
    assert page.status_code == 404


def test_the_traveller_page_and_csv(client, dup, alice):
    event, round_, fixtures, users = dup
    enter(alice, fixtures[0], MIDDLE_1, FLAT)
    enter(alice, fixtures[1], LOW_TIE, FLAT)
    url = reverse("league:traveller", args=[event.slug, round_.number, 1])
    csv_url = reverse("league:travellers_csv", args=[event.slug, round_.number])
    client.force_login(users[0])
    page = client.get(url).content.decode()
    assert "are still playing these cards" in page and "100.00" not in page
    assert len(client.get(csv_url).content.decode().strip().splitlines()) == 1
    enter(alice, fixtures[2], FLAT, FLAT)
    page = client.get(url).content.decode()
    assert "are still playing these cards" not in page
    assert "100.00" in page and "50.00" in page and "-1.00" in page
    for fixture in fixtures:
        for seat in fixture.seats.select_related("player"):
            assert seat.player.name in page
    assert client.get(reverse("league:traveller", args=[event.slug, 1, 3])).status_code == 404
    rows = list(csv.DictReader(io.StringIO(client.get(csv_url).content.decode())))
    assert len(rows) == 2 * 3 * 3  # deals x tables x seats
    row = next(r for r in rows if r["deal"] == "1" and r["table"] == "1" and r["seat"] == "1")
    assert row["payout"] == "2" and row["difference"] == "1.000000"
    assert row["matchpoints"] == "2.000000" and row["percentage"] == "100.000000"
    assert row["datum"] == "1.000000"
    # linked from the round page and the standings
    assert url in round_page(client, event, round_)
    standings = client.get(reverse("league:standings", args=[event.slug])).content.decode()
    assert url in standings and "Duplicate total" in standings
    player = fixtures[0].seats.get(number=2).player_id
    assert url in client.get(reverse("league:player", args=[player])).content.decode()


def test_pages_and_api_use_a_constant_number_of_queries(
    client, dup, alice, django_assert_max_num_queries
):
    event, round_, fixtures, users = dup
    complete(alice, fixtures)
    client.force_login(users[1])
    urls = {  # the round page's own prefetches are most of its 17
        reverse("league:traveller", args=[event.slug, round_.number, 1]): 9,
        reverse("league:travellers_csv", args=[event.slug, round_.number]): 8,
        reverse("league:round", args=[event.slug, round_.number]): 18,
        f"/api/events/{event.slug}/rounds/{round_.number}/deals/": 8,
        reverse("league:standings", args=[event.slug]): 12,
    }
    refresh_standings(event)  # the snapshot is made once, then read
    for url, most in urls.items():
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


def test_a_section_with_a_bad_record_is_refused_not_a_500(dup, alice):
    event, _round, fixtures, _users = dup
    with pytest.raises(LeagueError):
        enter(alice, fixtures[0], MIDDLE_1)  # one deal of two without a forfeit
    assert not Result.objects.exists()
    refresh_standings(event)


def test_each_section_completes_and_is_published_on_its_own(make_event, alice, client):
    from league.services.sections import split_sections

    event = make_event(
        "saichugen", players=12, scoring="duplicate", deals_per_match=1, play_online=False
    )
    round_ = round_services.generate_round(event, by=alice)
    split_sections(round_, [[1, 2], [3, 4]], by=alice)
    round_services.publish_round(round_, by=alice)
    event.refresh_from_db()
    fixtures = list(round_.fixtures.order_by("number"))
    first, second = (Section.objects.get(round=round_, number=n) for n in (1, 2))
    assert [f.section_id for f in fixtures] == [first.pk, first.pk, second.pk, second.pk]
    enter(alice, fixtures[0], MIDDLE_1)
    enter(alice, fixtures[1], LOW_TIE)
    enter(alice, fixtures[2], FLAT)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.completed_at is not None and second.completed_at is None
    sections = deals_api(event, round_).json()["sections"]
    assert sections[1] == {"tables": [fixtures[2].pk, fixtures[3].pk], "deals": None}
    [deal] = sections[0]["deals"]
    assert deal["datum"] == [0.0, 1.5, -1.5]  # (-1 + 1) / 2, (2 + 1) / 2, (-1 - 2) / 2
    assert [t["differences"] for t in deal["tables"]] == [[-1.0, 0.5, 0.5], [1.0, -0.5, -0.5]]
    # only the completed section counts in the standings
    rows = compute_rows(event)
    assert sum(r["matches_played"] for r in rows) == 6
    page = client.get(reverse("league:traveller", args=[event.slug, round_.number, 1]))
    text = page.content.decode()
    assert "Section 1" in text and "Section 2" in text and "Hands" in text
    assert text.count("are still playing these cards") == 1
    # the standings CSV writes both duplicate figures, 6 places
    refresh_standings(event)
    lines = client.get(reverse("league:standings_csv", args=[event.slug])).content.decode()
    header = lines.splitlines()[0].split(",")
    assert header[3:5] == ["duplicate_total", "matchpoint_pct"]
    assert "1.000000" in lines and "100.000000" in lines


def test_online_tables_stay_embargoed_until_the_section_completes(
    make_event, alice, client, django_capture_on_commit_callbacks
):
    from gameplay import api as gameplay
    from gameplay.models import Table
    from tests.league.conftest import record_for

    event = make_event("saichugen", players=6, scoring="duplicate", deals_per_match=1)
    for entry in event.entries.select_related("player"):  # online: every seat an account
        entry.player.user = get_user_model().objects.create_user(entry.player.name)
        entry.player.save()
    round_ = round_services.generate_round(event, by=alice)
    with django_capture_on_commit_callbacks(execute=True):
        round_services.publish_round(round_, by=alice)
    fixtures = list(round_.fixtures.order_by("number"))
    refs = [f.table_ref for f in fixtures]
    assert all(refs) and all(Table.objects.filter(pk__in=refs).values_list("embargoed", flat=True))
    record_result(fixtures[0], by=alice, record=record_for(fixtures[0]))
    assert Table.objects.filter(pk__in=refs, embargoed=True).count() == 2
    record = record_for(fixtures[1])
    record_result(fixtures[1], by=alice, record=record)
    assert not Table.objects.filter(pk__in=refs, embargoed=True).exists()
    # the traveller's line has the table's contract or outcome, from its record
    page = client.get(reverse("league:traveller", args=[event.slug, round_.number, 1]))
    assert gameplay.deal_outcomes(record)[0] in page.content.decode()
