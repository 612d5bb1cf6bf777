"""Bad input gets a clear error and changes nothing (findings of an audit of the league app)."""

from __future__ import annotations

import pytest

from games import catalogue
from league.errors import LeagueError
from league.models import Entry, Event, LedgerEntry, Player, Result
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from league.tasks import rate_result, recompute_standings

from .builders import client_of, enter, make_event, record_for, seat_round, table_one

pytestmark = pytest.mark.django_db


def result_url(event: Event, fixture) -> str:
    return f"/api/events/{event.slug}/fixtures/{fixture.pk}/result/"


def test_a_record_that_stops_before_the_match_ends_is_not_a_result(alice):
    event = make_event(alice, game="saichugen", deals_per_match=3)
    players = enter(event, ["bob", "dora", "emil"])
    seat_round(event, [players])
    fixture = table_one(event)
    short = catalogue.random_record(
        "saichugen", players=["bob", "dora", "emil"], variant=event.variant, n_deals=1, seed=3
    )
    answer = client_of(alice).post(result_url(event, fixture), {"record": short}, format="json")
    assert answer.status_code == 400
    sheet = {"deals": [{"scores": [20, 20, 35]}]}
    answer = client_of(alice).post(result_url(event, fixture), {"sheet": sheet}, format="json")
    assert answer.status_code == 400
    assert not Result.objects.exists() and not LedgerEntry.objects.exists()


def test_a_record_must_name_the_tables_players(alice):
    event = make_event(alice)
    a = enter(event, ["bob", "dora", "emil"])
    b = enter(event, ["fritz", "gus", "hal"])
    round_ = seat_round(event, [a, b])
    first, second = round_.fixtures.order_by("number")
    other = record_for(second, seed=5)
    del other["players"]  # without names, table 2's match would count for table 1
    answer = client_of(alice).post(result_url(event, first), {"record": other}, format="json")
    assert answer.status_code == 400 and "players" in answer.json()["detail"]
    answer = client_of(alice).post(
        result_url(event, first), {"record": {**record_for(first), "players": 5}}, format="json"
    )
    assert answer.status_code == 400
    assert not Result.objects.exists()


def test_a_correction_of_a_result_that_changed_meanwhile_is_refused(alice):
    event = make_event(alice)
    seat_round(event, [enter(event, ["bob", "dora", "emil"])])
    fixture = table_one(event)
    client = client_of(alice)
    assert (
        client.post(
            result_url(event, fixture),
            {"record": record_for(fixture), "expected_version": 0},
            format="json",
        ).status_code
        == 201
    )
    again = {"record": record_for(fixture, seed=2), "correction": True, "reason": "typo"}
    assert (
        client.post(
            result_url(event, fixture), {**again, "expected_version": 1}, format="json"
        ).status_code
        == 201
    )
    stale = client.post(result_url(event, fixture), {**again, "expected_version": 1}, format="json")
    assert (
        stale.status_code == 400 and "was counted while you were entering" in stale.json()["detail"]
    )
    assert fixture.results.count() == 2


@pytest.mark.django_db(transaction=True)  # so on_commit runs inside the request, as live
def test_a_result_is_kept_when_the_broker_is_down(alice, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(rate_result, "delay", down)
    monkeypatch.setattr(recompute_standings, "delay", down)
    event = make_event(alice)
    seat_round(event, [enter(event, ["bob", "dora", "emil"])])
    fixture = table_one(event)
    answer = client_of(alice).post(
        result_url(event, fixture), {"record": record_for(fixture)}, format="json"
    )
    assert answer.status_code == 201  # committed, and said so (it was a 500 before)
    assert fixture.results.filter(current=True).exists()


def test_a_person_called_like_a_bot_does_not_block_bot_seats(alice, bob):
    # A person called so before "bot" was kept for the bots (league.services.players).
    Player.objects.create(name="Bot 1")
    event = make_event(alice, leftover="bot")
    enter(event, ["ana", "ben", "cleo", "dan"])
    round_ = round_services.generate_round(event, by=alice)
    bots = [s.player for f in round_.fixtures.all() for s in f.seats.all() if s.player.is_bot]
    assert bots and all(b.name != "Bot 1" or b.is_bot for b in bots)


def test_a_closed_event_cannot_be_edited_and_rounds_cannot_shrink(alice):
    event = make_event(alice)
    players = enter(event, ["bob", "dora", "emil"])
    for _ in range(2):
        round_ = seat_round(event, [players])
        record_result(
            table_one(event, round_.number),
            by=alice,
            record=record_for(table_one(event, round_.number)),
        )
    with pytest.raises(LeagueError, match="fewer"):
        event_services.update_event(event, by=alice, rounds=1)
    with pytest.raises(LeagueError, match="seed"):
        event_services.update_event(event, by=alice, seed=event.seed + 1)
    event_services.close_event(event, by=alice)
    event.refresh_from_db()
    with pytest.raises(LeagueError, match="closed"):
        event_services.update_event(event, by=alice, name="Renamed")


def test_an_event_called_new_gets_a_reachable_address(alice):
    event = make_event(alice, "New")
    assert event.slug != "new"
    assert client_of(alice).get(f"/events/{event.slug}/").status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/events/{slug}/fixtures/?round=²", None),
        ("post", "/api/events/{slug}/rounds/1/swap/", {"first": 2**70, "second": 1}),
    ],
)
def test_malformed_input_is_a_400_not_a_500(alice, method, path, body):
    event = make_event(alice)
    seat_round(event, [enter(event, ["bob", "dora", "emil"])], publish=False)
    client = client_of(alice)
    client.raise_request_exception = False
    url = path.format(slug=event.slug)
    answer = client.get(url) if method == "get" else client.post(url, body, format="json")
    assert answer.status_code == 400


def test_json_nested_too_deeply_is_a_400(alice):
    event = make_event(alice)
    seat_round(event, [enter(event, ["bob", "dora", "emil"])])
    client = client_of(alice)
    client.raise_request_exception = False
    deep = "[" * 100_000 + "]" * 100_000
    answer = client.post(result_url(event, table_one(event)), deep, content_type="application/json")
    assert answer.status_code == 400


def test_inputs_that_could_do_nothing_are_refused(alice):
    event = make_event(alice)
    players = enter(event, ["bob", "dora", "emil"])
    seat_round(event, [players])
    fixture = table_one(event)
    with pytest.raises(LeagueError, match="must not have forfeited"):
        record_result(fixture, by=alice, record=record_for(fixture), forfeited_seats=[0, 1, 2])
    entry = Entry.objects.get(event=event, player=players[0])
    event_services.withdraw(entry, by=alice)
    entry.refresh_from_db()
    with pytest.raises(LeagueError, match="withdrawn"):
        event_services.check_in(entry, by=alice)
    knockout = make_event(alice, "Cup KO", format="knockout", rounds=2)
    enter(knockout, ["k1", "k2", "k3"])
    round_services.generate_round(knockout, by=alice)
    with pytest.raises(LeagueError, match="no entries"):
        enter(knockout, ["late"])


def test_a_match_cut_by_a_forfeit_counts_the_deals_finished(alice):
    from league.services.standings import match_records

    event = make_event(alice, game="saichugen", deals_per_match=3)
    a = enter(event, ["bob", "dora", "emil"])
    b = enter(event, ["fritz", "gus", "hal"])
    round_ = seat_round(event, [a, b])
    first, second = round_.fixtures.order_by("number")
    sheet = {"deals": [{"scores": [20, 20, 35]}, {"scores": [35, 20, 20]}]}
    record_result(first, by=alice, sheet=sheet, forfeited_seats=[1])
    short = catalogue.random_record(
        "saichugen", players=["fritz", "gus", "hal"], variant=event.variant, n_deals=1, seed=4
    )
    record_result(second, by=alice, record=short, forfeited_seats=[2])
    played = {m.fixture_id: m.deals_played for m in match_records(event)}
    assert played == {first.pk: 2, second.pk: 1}
