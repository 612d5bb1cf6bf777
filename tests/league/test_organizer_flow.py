"""An organizer runs an event end to end: entries, rounds, results, standings, a correction."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from league.errors import LeagueError
from league.models import Bye, Entry, LedgerEntry, Player, Result, Round, Seat
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.results import record_result
from league.services.standings import refresh_standings, standings_rows
from tests.league.conftest import play_round, record_for

pytestmark = pytest.mark.django_db


def test_a_swiss_event_from_entries_to_corrected_standings(make_event, alice):
    event = make_event("saichugen", players=7)  # 7 players in threes: a bye each round
    first = play_round(event, alice)
    assert first.fixtures.count() == 2
    assert Bye.objects.filter(round=first).count() == 1

    rows = standings_rows(event)
    assert len(rows) == 7
    assert sum(r["match_points"] for r in rows) == event.bye_match_points  # the bye's points
    assert sum(r["total_payouts"] for r in rows) == 0

    second = play_round(event, alice, seed=100)
    byes = list(Bye.objects.filter(round__event=event).values_list("player_id", flat=True))
    assert len(set(byes)) == 2, "nobody gets a second bye while others have none"

    fixture = second.fixtures.first()
    before = {r["player_id"]: r["total_payouts"] for r in standings_rows(event)}
    old = fixture.results.get(current=True)
    corrected = record_result(
        fixture,
        by=alice,
        record=record_for(fixture, seed=555),
        reason="wrong record uploaded",
        correction=True,
    )
    assert corrected.version == 2
    assert list(fixture.results.order_by("version").values_list("current", flat=True)) == [
        False,
        True,
    ]
    assert not LedgerEntry.objects.filter(result=old).exists()
    after = {r["player_id"]: r["total_payouts"] for r in standings_rows(event)}
    old_totals = old.scored["totals"]["payouts"]
    new_totals = corrected.scored["totals"]["payouts"]
    for seat in fixture.seats.all():
        n = seat.number
        assert after[seat.player_id] - before[seat.player_id] == new_totals[n] - old_totals[n]


def test_a_result_posted_twice_is_refused_unless_it_is_a_correction(make_event, alice):
    event = make_event()
    round_ = play_round(event, alice)
    fixture = round_.fixtures.first()
    with pytest.raises(LeagueError, match="already has a result"):
        record_result(fixture, by=alice, record=record_for(fixture))
    with pytest.raises(LeagueError, match="say why"):
        record_result(fixture, by=alice, record=record_for(fixture), correction=True)
    assert fixture.results.count() == 1


def test_a_record_of_the_wrong_game_or_players_is_refused(make_event, alice):
    event = make_event()
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.first()
    record = record_for(fixture)
    with pytest.raises(LeagueError, match="is a Mediatore game"):
        record_result(fixture, by=alice, record={**record, "game": "mediatore"})
    with pytest.raises(LeagueError, match="not this table's seats"):
        record_result(fixture, by=alice, record={**record, "players": ["x", "y", "z"]})
    broken = {**record, "deals": [{**record["deals"][0], "stock": []}]}
    with pytest.raises(LeagueError, match="illegal record: deal 0: wrong deck"):
        record_result(fixture, by=alice, record=broken)
    assert not Result.objects.exists()
    assert not LedgerEntry.objects.exists()


def test_a_score_sheet_whose_payouts_do_not_sum_to_zero_is_refused(make_event, alice):
    event = make_event("schieberamsch")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.first()
    bad = {"deals": [{"scores": [0, 4, 0], "payouts": [4, -8, 3]}]}
    with pytest.raises(LeagueError, match="do not sum to zero"):
        record_result(fixture, by=alice, sheet=bad)
    good = {"deals": [{"scores": [0, 4, 0]}]}
    result = record_result(fixture, by=alice, sheet=good)
    assert result.source == Result.Source.SHEET
    assert list(
        LedgerEntry.objects.filter(result=result).order_by("seat").values_list("payout", flat=True)
    ) == [4, -8, 4]


def test_a_withdrawn_player_is_not_seated_in_later_rounds(make_event, alice):
    event = make_event(players=6)
    play_round(event, alice)
    gone = Entry.objects.filter(event=event).first()
    event_services.withdraw(gone, by=alice)
    second = round_services.generate_round(event, by=alice)
    seated = set(Seat.objects.filter(fixture__round=second).values_list("player_id", flat=True))
    byes = set(Bye.objects.filter(round=second).values_list("player_id", flat=True))
    assert gone.player_id not in seated | byes
    # results already in are kept, and the withdrawn player stays in the standings
    assert gone.player_id in {r["player_id"] for r in standings_rows(event)}


def test_a_round_that_exists_cannot_be_generated_again(make_event, alice):
    event = make_event()
    round_services.generate_round(event, by=alice)
    with pytest.raises(LeagueError, match="still a draft"):
        round_services.generate_round(event, by=alice)
    assert Round.objects.filter(event=event).count() == 1


def test_swiss_waits_for_results_and_the_event_has_a_last_round(make_event, alice):
    event = make_event(rounds=2)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    with pytest.raises(LeagueError, match="waits for 2 result"):
        round_services.generate_round(event, by=alice)
    for fixture in round_.fixtures.all():
        record_result(fixture, by=alice, record=record_for(fixture))
    play_round(event, alice)
    with pytest.raises(LeagueError, match="all 2 rounds"):
        round_services.generate_round(event, by=alice)


def test_a_draft_with_a_player_at_two_tables_cannot_be_published(make_event, alice):
    event = make_event(players=6)
    round_ = round_services.generate_round(event, by=alice)
    first, second = round_.fixtures.all()[:2]
    intruder = first.seats.first().player
    Seat.objects.filter(fixture=second, number=0).update(player=intruder)
    with pytest.raises(LeagueError, match=f"{intruder.name} would play twice"):
        round_services.publish_round(round_, by=alice)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT


def test_swapping_players_between_tables_of_a_draft(make_event, alice):
    event = make_event(players=6)
    round_ = round_services.generate_round(event, by=alice)
    first, second = round_.fixtures.all()[:2]
    a = first.seats.get(number=1).player_id
    b = second.seats.get(number=2).player_id
    round_services.swap_players(round_, a, b, by=alice)
    assert first.seats.get(number=1).player_id == b
    assert second.seats.get(number=2).player_id == a
    round_services.publish_round(round_, by=alice)
    with pytest.raises(LeagueError, match="only a draft"):
        round_services.swap_players(round_, a, b, by=alice)


def test_leftover_seats_filled_by_bots(make_event, alice):
    event = make_event("three_five_eight", players=7, leftover="bot")
    round_ = play_round(event, alice)
    bots = Player.objects.filter(is_bot=True, seats__fixture__round=round_)
    assert bots.count() == 2
    assert not Bye.objects.filter(round=round_).exists()
    ids = {r["player_id"] for r in standings_rows(event)}
    assert set(bots.values_list("id", flat=True)) <= ids


def test_the_ledger_is_zero_sum_per_deal_fixture_round_and_event(make_event, alice):
    event = make_event("mediatore", players=8, deals_per_match=2)
    play_round(event, alice)
    play_round(event, alice, seed=9)
    for key in ("fixture", "round", "event"):
        sums = LedgerEntry.objects.values(key).annotate(s=Sum("payout"))
        assert sums
        assert all(row["s"] == 0 for row in sums)
    per_deal = LedgerEntry.objects.values("result", "deal").annotate(s=Sum("payout"))
    assert all(row["s"] == 0 for row in per_deal)
    assert LedgerEntry.objects.count() == 2 * 2 * 8  # rounds x deals x players


def test_recomputing_standings_twice_changes_nothing(make_event, alice):
    event = make_event()
    play_round(event, alice)
    first = refresh_standings(event)
    assert refresh_standings(event) == first


def test_a_closed_event_takes_no_more_results(make_event, alice):
    event = make_event()
    round_ = play_round(event, alice)
    event_services.close_event(event, by=alice)
    fixture = round_.fixtures.first()
    with pytest.raises(LeagueError, match="closed"):
        record_result(
            fixture, by=alice, record=record_for(fixture, 7), correction=True, reason="late"
        )


def test_an_event_with_tables_waiting_for_results_cannot_close(make_event, alice):
    event = make_event()
    round_ = round_services.generate_round(event, by=alice)
    with pytest.raises(LeagueError, match="draft"):
        event_services.close_event(event, by=alice)
    round_services.publish_round(round_, by=alice)
    with pytest.raises(LeagueError, match="no result yet"):
        event_services.close_event(event, by=alice)


def test_the_first_swiss_round_is_seeded_by_rating(make_event, alice):
    event = make_event("saichugen", players=6)
    entries = list(Entry.objects.filter(event=event).order_by("player_id"))
    for rating, entry in zip([1.0, 30.0, 2.0, 20.0, None, 10.0], entries, strict=True):
        Entry.objects.filter(pk=entry.pk).update(rating_at_entry=rating)
    round_ = round_services.generate_round(event, by=alice)
    tables = [{seat.player_id for seat in fixture.seats.all()} for fixture in round_.fixtures.all()]
    by_rating = [entries[i].player_id for i in (1, 3, 5, 2, 0, 4)]  # 30, 20, 10, 2, 1, None
    assert set(by_rating[:3]) in tables  # the three strongest sit together
    assert set(by_rating[3:]) in tables
