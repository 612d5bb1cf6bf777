"""The end of an event (docs/league.md, "The end of an event"): each format played to its end
finishes by itself and names its winners (API, event page, home page); "Generate next round" is
no longer offered; closing keeps the podium and stops corrections; a change that reopens it (more
rounds) takes `finished` back; a knockout's tied final is decided by the event's draw."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.draws import draw_order
from league.errors import LeagueError
from league.models import Event, Round
from league.scheduling import get_format
from league.services import actions, event_end
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from league.services.standings import standings_rows
from tests.home.page import Node, parse
from tests.league.conftest import play_round, record_for

pytestmark = pytest.mark.django_db

KNOCKOUT = get_format("knockout")
LEVEL = {"deals": [{"scores": [20, 20, 20]}]}  # a Saichugen sheet: all three win, level


def play_to_the_end(event: Event, alice) -> list[Round]:
    """Generate, publish and play rounds while the event's organizer may generate one."""
    played = []
    while actions.problem_now(event, "generate_round") is None:
        played.append(play_round(event, alice, seed=len(played)))
        event.refresh_from_db()
    return played


def api(client, event: Event) -> dict:
    response = client.get(f"/api/events/{event.slug}/")
    assert response.status_code == 200, response.content
    return response.json()


def page(client, url: str) -> Node:
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.content)


def with_class(node: Node, tag: str, name: str) -> list[Node]:
    return [n for n in node.find_all(tag) if name in n.attrs.get("class", "").split()]


def podium_names(soup: Node, section: str) -> list[str]:
    (podium,) = with_class(soup.find(id=section), "ol", "podium")
    return [li.find(tag="a").text for li in podium.find_all("li")]


@pytest.mark.parametrize(
    ("fmt", "players", "rounds"), [("swiss", 6, 2), ("league", 6, 3), ("knockout", 10, 4)]
)
def test_each_format_played_to_its_end_finishes_by_itself_and_names_its_winners(
    make_event, alice, client, fmt, players, rounds
):
    event = make_event("saichugen", players=players, format=fmt, rounds=rounds)
    played = play_to_the_end(event, alice)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.stage == "finished"
    rows = standings_rows(event)
    if fmt == "knockout":  # 10 in threes: 9, 6, then the final of three (round 4 never needed)
        assert len(played) == 3 and KNOCKOUT.is_decided(round_services.played_plan(played[-1]))
        final = {s.player_id for s in played[-1].fixtures.get().seats.all()}
        expected = [r["player_id"] for r in rows if r["player_id"] in final]
    else:
        assert len(played) == rounds
        expected = [r["player_id"] for r in rows[:3]]

    body = api(client, event)
    assert body["status"] == "finished"
    assert [w["place"] for w in body["winners"]] == [1, 2, 3]
    assert [w["player"]["id"] for w in body["winners"]] == expected
    how = [w["decided_by"] for w in body["winners"]]
    ways = {"result", "total_payouts", "match_points", "lot"} if fmt == "knockout" else {None}
    assert how[1:] == [None, None] and how[0] in ways

    names = [r["player"] for r in rows if r["player_id"] in expected]
    shown = podium_names(page(client, event.get_absolute_url()), "winners")
    assert sorted(shown) == sorted(names) and shown[0] == body["winners"][0]["player"]["name"]
    home = page(client, "/")
    assert podium_names(home, "finished-events") == shown
    assert event.name not in home.find(id="running-events").text  # no "round 3 of 4"


def test_generate_next_round_is_no_longer_offered_after_the_final(make_event, alice, client):
    event = make_event("saichugen", players=10, format="knockout", rounds=4)
    play_to_the_end(event, alice)
    event.refresh_from_db()
    assert actions.problem_now(event, "generate_round") == KNOCKOUT.decided_message
    with pytest.raises(LeagueError, match="the knockout is decided"):
        round_services.generate_round(event, by=alice)
    client.force_login(alice)
    soup = page(client, event.get_absolute_url())
    (organizer,) = with_class(soup, "section", "organizer-actions")
    assert "Generate next round" not in organizer.text
    assert "Next round: the final has been played" in organizer.text
    assert "This event is finished:" in organizer.text
    assert organizer.find(tag="form", action=reverse("league:event_close", args=[event.slug]))
    # A finished event takes no more entries (more rounds would reopen it first).
    finished = "this event is finished: every round has been played"
    assert actions.problem_now(event, "enter") == finished


def test_closing_a_finished_event_keeps_its_podium_and_stops_corrections(make_event, alice, client):
    event = make_event("saichugen", players=6, format="swiss", rounds=1)
    (round_,) = play_to_the_end(event, alice)
    event.refresh_from_db()
    podium = event.winners
    event_services.close_event(event, by=alice)
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED and event.winners == podium
    fixture = round_.fixtures.first()
    with pytest.raises(LeagueError, match="this event is closed"):
        record_result(
            fixture, by=alice, record=record_for(fixture, seed=9), correction=True, reason="x"
        )
    body = api(client, event)
    assert body["status"] == "closed" and len(body["winners"]) == 3
    assert "Every round has been played" not in page(client, event.get_absolute_url()).text


def test_closing_under_way_names_the_standings_podium_but_no_knockout_champion(make_event, alice):
    swiss = make_event("saichugen", players=6, format="swiss", rounds=3)
    play_round(swiss, alice)
    event_services.close_event(swiss, by=alice)
    swiss.refresh_from_db()
    top = [row["player_id"] for row in standings_rows(swiss)[:3]]
    assert [w["player"] for w in swiss.winners] == top
    knockout = make_event("mediatore", players=8, format="knockout", rounds=2)
    play_round(knockout, alice)
    event_services.close_event(knockout, by=alice)
    knockout.refresh_from_db()
    assert knockout.status == Event.Status.CLOSED and knockout.winners == []


def test_more_rounds_reopen_a_finished_event_and_its_end_comes_again(make_event, alice):
    event = make_event("saichugen", players=6, format="swiss", rounds=1)
    play_to_the_end(event, alice)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.winners

    event_services.update_event(event, by=alice, rounds=2)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and event.winners == []
    assert actions.problem_now(event, "generate_round") is None
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    first, *others = round_.fixtures.all()
    for fixture in others:
        record_result(fixture, by=alice, record=record_for(fixture))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING  # one table of the last round still plays
    record_result(first, by=alice, record=record_for(first))
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and len(event.winners) == 3


def test_settling_twice_changes_nothing(make_event, alice):
    event = make_event("saichugen", players=6, format="swiss", rounds=1)
    play_to_the_end(event, alice)
    event.refresh_from_db()
    before = (event.status, event.winners, event.standings_version)
    event_end.settle(event)
    event_end.settle(event)
    event.refresh_from_db()
    assert (event.status, event.winners, event.standings_version) == before


def three_at_a_final(make_event, alice):
    """A knockout of three: its round 1 is the final."""
    event = make_event("saichugen", players=3, format="knockout", rounds=1)
    final = round_services.generate_round(event, by=alice)
    round_services.publish_round(final, by=alice)
    return event, final.fixtures.get()


def test_a_tied_final_is_decided_by_the_draw_and_every_page_says_so(make_event, alice, client):
    event, fixture = three_at_a_final(make_event, alice)
    record_result(fixture, by=alice, sheet=LEVEL)  # all three win, level in everything
    event.refresh_from_db()
    table = [s.player_id for s in fixture.seats.order_by("number")]
    champion, *others = draw_order(event.seed, table)
    names = dict(event.entries.values_list("player_id", "player__name"))

    assert event.status == Event.Status.FINISHED
    body = api(client, event)
    assert body["winners"][0] == {
        "place": 1,
        "player": {"id": champion, "name": names[champion], "is_bot": False},
        "decided_by": "lot",
    }
    assert [w["player"]["id"] for w in body["winners"][1:]] == others

    winners = page(client, event.get_absolute_url()).find(id="winners")
    first = winners.find(tag="li", **{"class": "place-1"})
    assert first.find(tag="a").text == names[champion] and "by the event's draw" in first.text
    assert "by the event's draw" in page(client, "/").find(id="finished-events").text

    # The round page bolds only who went on: the co-winners who lost the draw are not marked.
    soup = page(client, reverse("league:round", args=[event.slug, 1]))
    (card,) = with_class(soup, "section", "fixture")
    marked = [tr.find_all("td")[1].find(tag="a").text for tr in with_class(card, "tr", "went-on")]
    assert marked == [names[champion]]
    assert not with_class(card, "tr", "winner")
    (note,) = [p.text for p in with_class(card, "p", "went-on-note")]
    assert names[champion] in note and "by the event's draw" in note


def test_a_correction_of_the_final_moves_the_champion(make_event, alice):
    event, fixture = three_at_a_final(make_event, alice)
    # Saichugen: the median game score wins the deal.
    record_result(fixture, by=alice, sheet={"deals": [{"scores": [40, 20, 0]}]})
    event.refresh_from_db()
    seats = [s.player_id for s in fixture.seats.order_by("number")]
    assert event.winners[0] == {"place": 1, "player": seats[1], "decided_by": "result"}
    record_result(
        fixture,
        by=alice,
        sheet={"deals": [{"scores": [20, 40, 0]}]},
        correction=True,
        reason="seats 0 and 1 swapped",
    )
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event.winners[0] == {"place": 1, "player": seats[0], "decided_by": "result"}
    assert {w["player"] for w in event.winners[1:]} == {seats[1], seats[2]}


@pytest.mark.parametrize("players", [6, 15])
def test_a_finished_events_pages_use_a_fixed_number_of_queries(
    make_event, alice, client, players, django_assert_max_num_queries
):
    event = make_event("saichugen", players=players, format="swiss", rounds=2)
    play_to_the_end(event, alice)
    client.get(reverse("league:standings", args=[event.slug]))  # the snapshot exists
    for url, most in (
        (reverse("league:events"), 10),
        (reverse("league:event", args=[event.slug]), 10),
        (f"/api/events/{event.slug}/", 8),
        ("/", 10),
    ):
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


def test_a_duplicate_events_podium_counts_its_last_section(make_event, alice):
    """The last result completes its section and then finishes the event: the podium ranks by
    the duplicate totals of that section (held out of the standings until it completed)."""
    event = make_event(
        "saichugen", players=9, scoring="duplicate", rounds=1, deals_per_match=2, play_online=False
    )
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixtures = list(round_.fixtures.order_by("number"))
    # Saichugen game scores: the median wins (pays [-1, 2, -1]; [1, 1, -2]; all level).
    for fixture, first in zip(fixtures, ([30, 25, 20], [20, 20, 35], [25, 25, 25]), strict=True):
        deals = [{"scores": first}, {"scores": [25, 25, 25]}]
        record_result(fixture, by=alice, sheet={"deals": deals})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    top = fixtures[0].seats.get(number=1).player_id  # +1 against the field on deal 1
    assert event.winners[0]["player"] == top
    assert [w["player"] for w in event.winners] == [
        r["player_id"] for r in standings_rows(event)[:3]
    ]
