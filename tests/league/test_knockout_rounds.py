"""Knockouts of any field through the services and the pages: full tables, one bye at most,
a final of the game's size, ties decided by the stated order and explained on the round page,
standings by the round reached; Swiss round 1 from the event's draw."""

from __future__ import annotations

from collections import Counter

import pytest

from league.draws import draw_order, lot_number
from league.errors import LeagueError
from league.models import Bye, Round
from league.scheduling import get_format
from league.services import rounds as round_services
from league.services.results import record_result
from league.services.standings import standings_rows
from tests.league.conftest import record_for

pytestmark = pytest.mark.django_db

KNOCKOUT = get_format("knockout")
LEVEL = {"deals": [{"scores": [20, 20, 20]}]}  # a Saichugen sheet: all three win, level


def seated(round_: Round) -> list[list[int]]:
    return [
        [seat.player_id for seat in fixture.seats.order_by("number")]
        for fixture in round_.fixtures.order_by("number")
    ]


def play_to_the_final(event, alice) -> list[Round]:
    """Generate, publish and enter a result for every round until the final is played."""
    played: list[Round] = []
    while not played or not KNOCKOUT.is_decided(round_services.played_plan(played[-1])):
        round_ = round_services.generate_round(event, by=alice)
        round_services.publish_round(round_, by=alice)
        for fixture in round_.fixtures.order_by("number"):
            record_result(fixture, by=alice, record=record_for(fixture, seed=round_.number))
        played.append(round_)
    with pytest.raises(LeagueError):  # nothing follows the final
        round_services.generate_round(event, by=alice)
    return played


def test_ten_players_in_threes_reach_a_final_of_three(make_event, alice, client):
    event = make_event("saichugen", players=10, format="knockout", rounds=3)
    played = play_to_the_final(event, alice)
    assert [sum(len(t) for t in seated(r)) for r in played] == [9, 6, 3]
    assert all(len(t) == 3 for r in played for t in seated(r))
    byes = Counter(Bye.objects.filter(round__event=event).values_list("player_id", flat=True))
    assert sum(byes.values()) == 1 and max(byes.values()) == 1  # round 1's one, nobody twice
    final = played[-1]
    (final_table,) = seated(final)
    rows = standings_rows(event)
    # The final's three rank first (its winner on top), then round 2's, then round 1's.
    assert {r["player_id"] for r in rows[:3]} == set(final_table)
    assert [r["round_reached"] for r in rows] == [3] * 3 + [2] * 3 + [1] * 4
    page = client.get(f"/events/{event.slug}/rounds/3/").content.decode()
    assert "How this round works" in page
    assert f"{rows[0]['player']} wins the knockout" in page
    first = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Best non-winners taken to fill the tables" in first
    assert "had a bye and goes on" in first
    assert "Round 2: 6 players." in first


def test_seven_in_fours_with_bots_reach_a_final_of_four_people(make_event, alice):
    event = make_event("mediatore", players=7, format="knockout", rounds=3, leftover="bot")
    played = play_to_the_final(event, alice)
    first, final = played
    bots = [s for s in first.fixtures.all() for s in s.seats.all() if s.player.is_builtin_bot]
    assert len(bots) == 1  # 7 people: one bot seat in round 1
    (final_table,) = seated(final)
    assert len(final_table) == 4
    assert not any(p.player.is_builtin_bot for p in final.fixtures.get().seats.all())


def test_a_tie_at_the_table_is_decided_by_the_draw_and_the_page_says_who_and_why(
    make_event, alice, client
):
    event = make_event("saichugen", players=9, format="knockout", rounds=2)

    def level_at_table_one(round_, fixture):
        return LEVEL if round_.number == 1 and fixture.number == 1 else None

    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    for fixture in first.fixtures.order_by("number"):
        sheet = level_at_table_one(first, fixture)
        if sheet:
            record_result(fixture, by=alice, sheet=sheet)
        else:
            record_result(fixture, by=alice, record=record_for(fixture))
    table_one = seated(first)[0]
    # Level in the game, in payout, in totals and match points: the event's draw decides.
    drawn = draw_order(event.seed, table_one)
    final = round_services.generate_round(event, by=alice)
    assert drawn[0] in seated(final)[0] and not set(drawn[1:]) & set(seated(final)[0])
    page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    names = dict(event.entries.values_list("player_id", "player__name"))
    assert f"Table 1: {names[drawn[0]]} goes on: level at the table with" in page
    assert "by the event&#x27;s draw" in page
    # The draw is shown as who won it, never as the numbers (they give the seed away).
    assert str(event.seed) not in page
    assert not any(str(lot_number(event.seed, p)) in page for p in table_one)


def test_a_knockout_too_long_for_the_event_is_refused_before_it_starts(make_event, alice):
    event = make_event("saichugen", players=10, format="knockout", rounds=2)
    with pytest.raises(LeagueError, match="needs 3 rounds to reach its final; the event has 2"):
        round_services.generate_round(event, by=alice)
    assert not event.round_set.exists()


def test_the_round_page_uses_a_constant_number_of_queries(
    make_event, alice, client, django_assert_max_num_queries
):
    for game, players in (("saichugen", 10), ("three_five_eight", 31)):
        event = make_event(game, players=players, format="knockout", rounds=5)
        round_ = round_services.generate_round(event, by=alice)
        round_services.publish_round(round_, by=alice)
        for fixture in round_.fixtures.all():
            record_result(fixture, by=alice, record=record_for(fixture))
        with django_assert_max_num_queries(22):
            assert client.get(f"/events/{event.slug}/rounds/1/").status_code == 200


def test_swiss_round_one_is_the_event_draw_and_the_page_shows_it(make_event, alice, client):
    event = make_event("saichugen", players=9, format="swiss", rounds=2)
    round_ = round_services.generate_round(event, by=alice)
    ids = sorted(event.entries.values_list("player_id", flat=True))
    drawn = draw_order(event.seed, ids)
    assert [sorted(t) for t in seated(round_)] == [sorted(drawn[i : i + 3]) for i in (0, 3, 6)]
    round_services.publish_round(round_, by=alice)
    page = client.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Seeding of round 1 (9 players)" in page
    names = dict(event.entries.values_list("player_id", "player__name"))
    order = [page.index(f"{names[p]} <span") for p in drawn]
    assert order == sorted(order)
    assert str(event.seed) not in page
