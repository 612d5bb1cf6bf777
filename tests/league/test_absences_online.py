"""Absence at an online table (league.services.absences through `gameplay.api.stop_table`):
the live table is stopped so it does not wait for the absent player, the deals it finished
before the absence count; a no-show's table starts afresh when the absence is taken back."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from gameplay.models import Table
from gameplay.services import clocks, matches, play
from gameplay.services.errors import TableError
from league.errors import LeagueConflict, LeagueError
from league.models import LedgerEntry, Result
from league.services import absences
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.players import player_for_user

pytestmark = pytest.mark.django_db(transaction=True)


def online_table(alice, deals: int = 2, **fields):
    """A published round of one online table of three people; its fixture."""
    event = event_services.create_event(
        alice, name="Club night", game="saichugen", rounds=1, deals_per_match=deals, **fields
    )
    event_services.publish_event(event, by=alice)
    for name in ("ana", "ben", "cleo"):
        user = get_user_model().objects.create_user(name, password="pw")
        event_services.add_entry(event, player_for_user(user), by=alice, checked_in=True)
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    fixture = round_.fixtures.get()
    assert bool(fixture.table_ref) != event.asynchronous  # opened by its players
    return fixture


def play_deals(table_ref: str, deals: int) -> None:
    """Everyone plays what the clock would play for them until `deals` deals are finished."""
    rng = random.Random(3)
    for _ in range(1000):
        table = Table.objects.get(pk=table_ref)
        match = matches.load_match(table)
        if match.deal_no >= deals or match.finished:
            return
        seat = match.to_act()[0]
        play.play_action(table.id, seat, clocks.default_action(match, seat, rng), table.seq)
    raise AssertionError("the deals did not end")


def test_a_player_who_leaves_after_a_deal_stops_the_table_and_the_deal_counts(alice):
    fixture = online_table(alice)
    play_deals(fixture.table_ref, 1)
    with pytest.raises(LeagueError, match="only 1 deal was played at this table"):
        absences.mark_absent(fixture, by=alice, seats=[1], after_deal=2)
    table = Table.objects.get(pk=fixture.table_ref)
    assert table.status == Table.Status.PLAYING  # the refusal stopped nothing
    result = absences.mark_absent(fixture, by=alice, seats=[1], after_deal=1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.forfeited_seats == [1]
    assert result.record == table.record and len(result.scored["deals"]) == 1
    assert result.scored["deals"][0]["payouts"] == table.result["deals"][0]["payouts"]
    assert result.scored["winners"] == [0, 2]
    ledger = LedgerEntry.objects.filter(fixture=fixture)
    assert ledger.count() == 3 and sum(e.payout for e in ledger) == 0
    # the finished table's own announcement counted nothing twice: the absence stands
    assert Result.objects.filter(fixture=fixture).count() == 1
    with pytest.raises(LeagueError, match="deals were played before the absence"):
        absences.undo_absence(fixture, by=alice)


def test_a_no_show_at_a_live_table_then_a_late_arrival_starts_it_afresh(alice):
    fixture = online_table(alice)
    old = fixture.table_ref
    table = Table.objects.get(pk=old)
    match = matches.load_match(table)  # cached, as a server process holds it
    seat = match.to_act()[0]
    move = clocks.default_action(match, seat, random.Random(1))
    result = absences.mark_absent(fixture, by=alice, seats=[2])
    assert result.scored["deals"] == [] and result.scored["winners"] == [0, 1]
    assert Table.objects.get(pk=old).status == Table.Status.FINISHED
    with pytest.raises(TableError):  # nobody plays on at a stopped table
        play.play_action(old, seat, move, table.seq)
    fixture = absences.undo_absence(fixture, by=alice)
    assert fixture.table_ref and fixture.table_ref != old
    fresh = Table.objects.get(pk=fixture.table_ref)
    assert fresh.status == Table.Status.PLAYING
    assert not fixture.results.filter(current=True).exists()


def test_a_table_whose_match_ended_takes_no_absence(alice):
    fixture = online_table(alice, deals=1)
    play_deals(fixture.table_ref, 1)  # the last deal: the match is over and counted
    assert Table.objects.get(pk=fixture.table_ref).status == Table.Status.FINISHED
    with pytest.raises(LeagueConflict, match="already has a result"):
        absences.mark_absent(fixture, by=alice, seats=[0])


def test_an_unopened_asynchronous_table_has_no_deal_to_count(alice):
    fixture = online_table(alice, asynchronous=True)
    assert not fixture.table_ref
    with pytest.raises(LeagueError, match="it was never opened"):
        absences.mark_absent(fixture, by=alice, seats=[0], after_deal=1)
    result = absences.mark_absent(fixture, by=alice, seats=[0])
    assert result.scored["winners"] == [1, 2]
