"""Formats come from the registry: a format registered here, in this one module, is offered by
the event form and the API and plans rounds; the knockout's rules hold at the service level."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import catalogue
from league.errors import LeagueError
from league.forms.events import EventForm
from league.models import Bye, Event, Player, Round
from league.scheduling import RoundPlan, register, unregister
from league.scheduling.formats import Format
from league.scheduling.leftovers import table_sizes
from league.services import advancing
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from tests.league.conftest import play_round, record_for

pytestmark = pytest.mark.django_db


class Ladder(Format):
    """A toy format: tables in order of player id, the highest ids sit out or meet bots."""

    name = "ladder"
    label = "Ladder (tables in entry order)"
    title = "Ladder"

    def plan_round(self, players, history, *, table_size, round_no, leftover, seed):
        ids = sorted(p.id for p in players)
        sizes, n_byes = table_sizes(len(ids), table_size, leftover)
        sitting, tables = ids[: len(ids) - n_byes], []
        for size in sizes:
            tables.append((*sitting[:size], *[None] * (table_size - size)))
            sitting = sitting[size:]
        return RoundPlan(tuple(tables), tuple(ids[len(ids) - n_byes :]))


@pytest.fixture
def ladder():
    fmt = register(Ladder())
    yield fmt
    unregister(fmt.name)


def seated(round_: Round) -> list[list[int]]:
    return [
        [seat.player_id for seat in fixture.seats.order_by("number")]
        for fixture in round_.fixtures.order_by("number")
    ]


def test_a_registered_format_is_offered_by_the_form_and_the_api_and_plans_rounds(ladder, alice):
    form = EventForm(game="saichugen")
    assert ("ladder", "Ladder (tables in entry order)") in list(form.fields["format"].choices)

    client = APIClient()
    client.force_login(alice)
    response = client.post(
        "/api/events/",
        {"name": "Ladder Cup", "game": "saichugen", "format": "ladder", "rounds": 2},
        format="json",
    )
    assert response.status_code == 201, response.content
    event = Event.objects.get(slug=response.json()["slug"])
    assert event.format == "ladder"
    assert event.get_format_display() == "Ladder (tables in entry order)"

    event_services.publish_event(event, by=alice)
    players = [Player.objects.create(name=f"rung-{n}") for n in range(7)]
    for player in players:
        event_services.add_entry(event, player, by=alice, checked_in=True)
    ids = [p.pk for p in players]
    first = round_services.generate_round(event, by=alice)
    assert seated(first) == [ids[0:3], ids[3:6]]
    assert list(Bye.objects.filter(round=first).values_list("player_id", flat=True)) == ids[6:]
    # The toy does not need results: the next round is planned while tables still play.
    round_services.publish_round(first, by=alice)
    second = round_services.generate_round(event, by=alice)
    assert seated(second) == [ids[0:3], ids[3:6]]


def test_an_unregistered_format_is_refused_by_the_api_and_the_service(alice):
    client = APIClient()
    client.force_login(alice)
    response = client.post(
        "/api/events/",
        {"name": "Ladder Cup", "game": "saichugen", "format": "ladder"},
        format="json",
    )
    assert response.status_code == 400
    assert "format" in response.json()
    with pytest.raises(LeagueError, match="Unknown format 'ladder'"):
        event_services.create_event(alice, name="Ladder Cup", game="saichugen", format="ladder")
    assert not Event.objects.exists()
    assert "ladder" not in dict(EventForm(game="saichugen").fields["format"].choices)


def goes_on(scored: dict, seats: list) -> int:
    """The person who goes on from a knockout table: winners first, then by payout, then by
    seat; bots never."""
    payouts, winners = scored["totals"]["payouts"], scored["winners"]
    order = sorted(range(len(seats)), key=lambda s: (s not in winners, -payouts[s], s))
    return next(seats[s].player_id for s in order if not seats[s].player.is_bot)


def test_a_knockout_takes_the_table_winners_on_until_the_final(make_event, alice):
    event = make_event("saichugen", players=9, format="knockout", rounds=3)
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    fixtures = list(first.fixtures.order_by("number"))
    record_result(fixtures[0], by=alice, record=record_for(fixtures[0]))
    with pytest.raises(LeagueError, match=r"waits for 2 result.*Knockout rounds need them"):
        round_services.generate_round(event, by=alice)
    for fixture in fixtures[1:]:
        record_result(fixture, by=alice, record=record_for(fixture))
    winners = {
        goes_on(f.results.get(current=True).scored, list(f.seats.order_by("number")))
        for f in fixtures
    }

    final = round_services.generate_round(event, by=alice)
    assert {p for table in seated(final) for p in table} == winners
    round_services.publish_round(final, by=alice)
    (table,) = final.fixtures.all()
    record_result(table, by=alice, record=record_for(table))
    with pytest.raises(LeagueError, match="the final has been played: the knockout is decided"):
        round_services.generate_round(event, by=alice)
    assert event.round_set.count() == 2


def test_a_correction_that_changes_who_advances_waits_for_no_next_round(make_event, alice):
    event = make_event("saichugen", players=6, format="knockout", rounds=3, leftover="bot")
    first = round_services.generate_round(event, by=alice)
    round_services.publish_round(first, by=alice)
    for fixture in first.fixtures.all():
        record_result(fixture, by=alice, record=record_for(fixture))
    fixture = first.fixtures.order_by("number").first()
    round_services.generate_round(event, by=alice)  # planned from the winners
    # Sorted by whether counting them keeps the field of round 2: the best non-winners who
    # fill the final go by total payout, so a same-winner record may still change it.
    records = {}
    for seed in range(1, 200):
        record = record_for(fixture, seed=seed)
        scored = catalogue.score_record(record, n_deals=event.deals_per_match)
        if scored == fixture.results.get(current=True).scored:
            continue  # an identical correction is refused for that reason
        records.setdefault(advancing.correction_keeps_who_went_on(fixture, scored, []), record)
        if len(records) == 2:
            break
    assert len(records) == 2, "records that keep and that change who advances"

    with pytest.raises(LeagueError, match="changes who advances"):
        record_result(
            fixture, by=alice, record=records[False], correction=True, reason="wrong winner"
        )
    assert fixture.results.get(current=True).version == 1
    kept = record_result(
        fixture, by=alice, record=records[True], correction=True, reason="same winner"
    )
    assert kept.version == 2


def test_a_swiss_correction_may_change_the_winner_after_the_next_round(make_event, alice):
    event = make_event("saichugen", players=6, format="swiss", rounds=3)
    first = play_round(event, alice)
    play_round(event, alice, seed=50)
    fixture = first.fixtures.order_by("number").first()
    seats = list(fixture.seats.order_by("number"))
    went_on = goes_on(fixture.results.get(current=True).scored, seats)
    for seed in range(1, 100):
        record = record_for(fixture, seed=seed)
        if goes_on(catalogue.score_record(record, n_deals=1), seats) != went_on:
            break
    else:
        pytest.fail("no record with another winner in 99 seeds")
    corrected = record_result(
        fixture, by=alice, record=record, correction=True, reason="another winner"
    )
    assert corrected.version == 2


def test_a_knockout_takes_no_late_entries_but_a_league_does(make_event, alice):
    knockout = make_event("saichugen", players=6, format="knockout", rounds=2)
    league = make_event("three_five_eight", players=6, format="league", rounds=2)
    for event in (knockout, league):
        round_services.generate_round(event, by=alice)
    with pytest.raises(LeagueError, match="a Knockout event takes no entries"):
        event_services.add_entry(knockout, Player.objects.create(name="late"), by=alice)
    entry = event_services.add_entry(league, Player.objects.get(name="late"), by=alice)
    assert entry.event == league
