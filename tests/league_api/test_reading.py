"""Reading the league: the public sees published events and rounds; drafts stay private."""

from __future__ import annotations

import pytest
from django.utils import timezone

from league.models import Player, Round
from league.services import events as event_services
from tests.league_api.builders import (
    client_of,
    enter,
    finish,
    seat_round,
    table_one,
)

pytestmark = pytest.mark.django_db


def slugs(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [event["slug"] for event in response.json()["results"]]


def test_the_public_lists_published_events_only(anonymous, cup, draft):
    assert slugs(anonymous.get("/api/events/")) == [cup.slug]


def test_an_outsider_lists_what_the_public_lists(as_charlie, cup, draft):
    assert slugs(as_charlie.get("/api/events/")) == [cup.slug]


def test_an_organizer_also_lists_her_drafts(as_alice, cup, draft):
    assert slugs(as_alice.get("/api/events/")) == [draft.slug, cup.slug]


def test_staff_list_every_draft(staff, cup, draft):
    assert set(slugs(client_of(staff).get("/api/events/"))) == {cup.slug, draft.slug}


def test_an_event_tells_its_game_rules_format_status_and_entries(anonymous, cup):
    body = anonymous.get(f"/api/events/{cup.slug}/").json()
    assert body["game"] == "three_five_eight"
    assert body["game_name"]
    assert body["variant"] == cup.variant  # the full variant, defaults filled in
    assert body["variant"]["targets"] == "8-5-3"
    assert body["format"] == "league"
    assert body["rounds"] == 5
    assert body["status"] == "running"  # its round 1 is published
    assert body["visibility"] == "published"
    assert body["entries_count"] == 3
    assert "seed" not in body  # it would let anyone work out the next rounds in advance


DRAFT_PAGES = [
    "",
    "entries/",
    "rounds/",
    "rounds/1/",
    "fixtures/",
    "fixtures/{fixture}/",
    "fixtures/{fixture}/record/",
    "standings/",
]


@pytest.fixture
def draft_with_a_finished_table(alice, draft):
    """A draft with a published round: made before publishing a round published its event too
    (docs/league.md, "Publishing"), so such drafts exist and must stay hidden."""
    round_ = seat_round(
        draft, [list(Player.objects.filter(name__in=["dora", "emil", "fritz"]))], publish=False
    )
    Round.objects.filter(pk=round_.pk).update(status="published", published_at=timezone.now())
    finish(round_.fixtures.get(), alice)
    return draft


@pytest.mark.parametrize("page", DRAFT_PAGES)
def test_a_draft_event_does_not_exist_for_the_public(anonymous, draft_with_a_finished_table, page):
    draft = draft_with_a_finished_table
    url = f"/api/events/{draft.slug}/" + page.format(fixture=table_one(draft).pk)
    assert anonymous.get(url).status_code == 404


@pytest.mark.parametrize("page", DRAFT_PAGES)
def test_a_draft_event_does_not_exist_for_an_outsider(
    as_charlie, draft_with_a_finished_table, page
):
    draft = draft_with_a_finished_table
    url = f"/api/events/{draft.slug}/" + page.format(fixture=table_one(draft).pk)
    response = as_charlie.get(url)
    assert response.status_code == 404
    assert draft.name not in response.content.decode()


@pytest.mark.parametrize("page", DRAFT_PAGES)
def test_its_organizer_reads_every_page_of_a_draft(as_alice, draft_with_a_finished_table, page):
    draft = draft_with_a_finished_table
    url = f"/api/events/{draft.slug}/" + page.format(fixture=table_one(draft).pk)
    assert as_alice.get(url).status_code == 200


@pytest.fixture
def cup_with_a_draft_round(cup):
    """The cup's round 1 is published; round 2 is being planned."""
    fritz, gus, hal = enter(cup, ["fritz", "gus", "hal"])
    seat_round(cup, [[fritz, gus, hal]], publish=False)
    return cup


def test_the_public_sees_published_rounds_only(anonymous, cup_with_a_draft_round):
    cup = cup_with_a_draft_round
    rounds = anonymous.get(f"/api/events/{cup.slug}/rounds/").json()["results"]
    assert [r["number"] for r in rounds] == [1]
    assert anonymous.get(f"/api/events/{cup.slug}/rounds/2/").status_code == 404
    fixtures = anonymous.get(f"/api/events/{cup.slug}/fixtures/").json()["results"]
    assert [f["round"] for f in fixtures] == [1]
    draft_table = table_one(cup, round_no=2)
    assert anonymous.get(f"/api/events/{cup.slug}/fixtures/{draft_table.pk}/").status_code == 404


def test_an_outsider_does_not_see_a_draft_round_either(as_charlie, cup_with_a_draft_round):
    cup = cup_with_a_draft_round
    assert as_charlie.get(f"/api/events/{cup.slug}/rounds/2/").status_code == 404


def test_the_organizer_previews_her_draft_round(as_alice, cup_with_a_draft_round):
    cup = cup_with_a_draft_round
    rounds = as_alice.get(f"/api/events/{cup.slug}/rounds/").json()["results"]
    assert [(r["number"], r["status"]) for r in rounds] == [(1, "published"), (2, "draft")]
    seats = rounds[1]["fixtures"][0]["seats"]
    assert [(s["number"], s["player"]["name"]) for s in seats] == [
        (0, "fritz"),
        (1, "gus"),
        (2, "hal"),
    ]


def test_a_round_shows_its_tables_seats_and_counting_result(anonymous, alice, cup):
    fixture = table_one(cup)
    result = finish(fixture, alice)
    body = anonymous.get(f"/api/events/{cup.slug}/rounds/1/").json()
    (table,) = body["fixtures"]
    assert table["id"] == fixture.pk
    assert table["round"] == 1
    assert [(s["number"], s["player"]["name"]) for s in table["seats"]] == [
        (0, "bob"),
        (1, "dora"),
        (2, "emil"),
    ]
    counted = table["result"]
    assert counted["version"] == 1
    assert counted["payouts"] == result.scored["totals"]["payouts"]
    assert sum(counted["payouts"]) == 0
    assert counted["winners"] == result.scored["winners"]
    assert counted["complete"] is True
    assert counted["record_url"].endswith(f"/api/events/{cup.slug}/fixtures/{fixture.pk}/record/")


def test_a_table_without_result_says_so(anonymous, cup):
    (table,) = anonymous.get(f"/api/events/{cup.slug}/fixtures/").json()["results"]
    assert table["result"] is None


def test_byes_are_listed_with_their_match_points(anonymous, cup):
    players = enter(cup, ["fritz", "gus", "hal", "ida"])
    seat_round(cup, [players[:3]], byes=[players[3]])
    body = anonymous.get(f"/api/events/{cup.slug}/rounds/2/").json()
    assert body["byes"] == [
        {"player": {"id": players[3].pk, "name": "ida", "is_bot": False}, "match_points": 1}
    ]


def test_fixtures_can_be_chosen_by_round(anonymous, cup):
    enter(cup, ["fritz", "gus", "hal"])
    seat_round(cup, [list(Player.objects.filter(name__in=["fritz", "gus", "hal"]))])
    tables = anonymous.get(f"/api/events/{cup.slug}/fixtures/?round=2").json()["results"]
    assert [(t["round"], [s["player"]["name"] for s in t["seats"]]) for t in tables] == [
        (2, ["fritz", "gus", "hal"])
    ]
    assert anonymous.get(f"/api/events/{cup.slug}/fixtures/?round=two").status_code == 400


def test_the_entries_of_an_event_are_public(anonymous, cup):
    entries = anonymous.get(f"/api/events/{cup.slug}/entries/").json()["results"]
    assert [(e["player"]["name"], e["checked_in"], e["withdrawn"]) for e in entries] == [
        ("bob", True, False),
        ("dora", True, False),
        ("emil", True, False),
    ]


def test_the_standings_rank_everyone_by_the_counted_results(anonymous, alice, cup):
    result = finish(table_one(cup), alice)
    rows = anonymous.get(f"/api/events/{cup.slug}/standings/").json()["results"]
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    payouts = dict(zip(["bob", "dora", "emil"], result.scored["totals"]["payouts"]))
    assert {row["player"]: row["total_payouts"] for row in rows} == payouts
    assert all(row["matches_played"] == 1 for row in rows)


def test_players_can_be_searched_by_name(anonymous, cup):
    found = anonymous.get("/api/players/?search=DOR").json()["results"]
    assert [p["name"] for p in found] == ["dora"]


def test_a_player_shows_published_events_and_payout_history(anonymous, alice, bob, cup, draft):
    result = finish(table_one(cup), alice)
    bobs_payout = result.scored["totals"]["payouts"][0]
    event_services.add_entry(draft, bob.player, by=alice)
    body = anonymous.get(f"/api/players/{bob.player.pk}/").json()
    assert body["name"] == "bob"
    assert [e["slug"] for e in body["events"]] == [cup.slug]  # not Alice's draft
    assert body["events"][0]["total_payout"] == bobs_payout
    (match,) = body["history"]
    assert (match["event"], match["round"], match["table"]) == (cup.slug, 1, 1)
    assert match["payout"] == match["running"] == bobs_payout


def test_a_players_running_total_counts_older_matches_first(anonymous, alice, bob, cup):
    first = finish(table_one(cup), alice)
    seat_round(cup, [list(Player.objects.filter(name__in=["bob", "dora", "emil"]))])
    second = finish(table_one(cup, round_no=2), alice, seed=7)
    paid = [first.scored["totals"]["payouts"][0], second.scored["totals"]["payouts"][0]]
    history = anonymous.get(f"/api/players/{bob.player.pk}/").json()["history"]
    assert [(m["round"], m["payout"], m["running"]) for m in history] == [
        (2, paid[1], paid[0] + paid[1]),
        (1, paid[0], paid[0]),
    ]


def test_an_unknown_event_or_player_is_404(anonymous):
    assert anonymous.get("/api/events/nothing-here/").status_code == 404
    assert anonymous.get("/api/events/nothing-here/rounds/").status_code == 404
    assert anonymous.get("/api/players/999999/").status_code == 404
