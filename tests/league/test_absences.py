"""Absence as a result (league.services.absences, docs/league.md "Absences"): a no-show or a
player who left is marked absent at a published table; the format's rule scores it (the absent
seat forfeits, the others win, the deals played before it count and nothing more), the round
closes and the next one is planned; a no-show's absence is taken back when they arrive late.

Saichugen sheets: `[30, 25, 20]` pays `[-1, 2, -1]`, `[20, 20, 35]` pays `[1, 1, -2]` (the
middle score wins).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied

from league.errors import LeagueConflict, LeagueError
from league.models import Fixture, LedgerEntry, Result, Round
from league.services import absences
from league.services import rounds as round_services
from league.services.duplicate_scoring import load_sections
from league.services.results import record_result
from league.services.standings import standings_rows
from tests.league.conftest import record_for

pytestmark = pytest.mark.django_db

MIDDLE_1 = [30, 25, 20]  # pays [-1, 2, -1]: seat 1 leads
LOW_TIE = [20, 20, 35]  # pays [1, 1, -2]


def sheet(*deals):
    return {"deals": [{"scores": d} for d in deals]}


def published_round(event, alice) -> Round:
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    return round_


def tables(round_: Round) -> list[Fixture]:
    return list(round_.fixtures.order_by("number"))


def player_at(fixture: Fixture, seat: int) -> int:
    return fixture.seats.get(number=seat).player_id


def row_of(event, player_id: int) -> dict:
    return next(r for r in standings_rows(event) if r["player_id"] == player_id)


def test_a_no_show_forfeits_the_others_win_and_the_swiss_round_goes_on(make_event, alice):
    event = make_event("saichugen", players=6, deals_per_match=2, play_online=False)
    first, second = tables(published_round(event, alice))
    result = absences.mark_absent(first, by=alice, seats=[2], after_deal=None)
    assert result.source == Result.Source.ABSENCE
    assert (result.absent_seats, result.forfeited_seats) == ([2], [2])
    assert result.scored["winners"] == [0, 1]
    assert result.scored["deals"] == [] and result.scored["totals"]["payouts"] == [0, 0, 0]
    assert not LedgerEntry.objects.filter(fixture=first).exists()
    absent, present = player_at(first, 2), player_at(first, 0)
    assert (row_of(event, absent)["absences"], row_of(event, absent)["match_points"]) == (1, -2)
    assert (row_of(event, present)["absences"], row_of(event, present)["wins"]) == (0, 1)
    with pytest.raises(LeagueError, match="still waits for 1 result"):
        round_services.generate_round(event, by=alice)
    record_result(second, by=alice, sheet=sheet(MIDDLE_1, LOW_TIE))
    assert round_services.generate_round(event, by=alice).number == 2  # the round closed


def test_after_deal_k_the_deals_played_count_and_the_absent_leader_loses(make_event, alice):
    event = make_event("saichugen", players=3, deals_per_match=3, play_online=False)
    (fixture,) = tables(published_round(event, alice))
    typed = sheet(MIDDLE_1, LOW_TIE)  # seat 1 leads after two deals: +3
    result = absences.mark_absent(fixture, by=alice, seats=[1], after_deal=2, sheet=typed)
    assert result.scored["totals"]["payouts"] == [0, 3, -3]
    assert result.scored["winners"] == [0, 2]  # not the absent leader
    assert result.sheet == typed and result.reason.startswith("absent after deal 2")
    ledger = LedgerEntry.objects.filter(fixture=fixture)
    assert ledger.count() == 6 and sum(e.payout for e in ledger) == 0
    leader = row_of(event, player_at(fixture, 1))
    assert (leader["total_payouts"], leader["match_points"], leader["absences"]) == (3, -2, 1)
    # only the first k deals of what was typed count
    fixture.results.all().delete()
    LedgerEntry.objects.filter(fixture=fixture).delete()
    result = absences.mark_absent(fixture, by=alice, seats=[1], after_deal=1, sheet=typed)
    assert result.scored["totals"]["payouts"] == [-1, 2, -1]


def test_the_grid_typed_so_far_counts_as_the_deals_played(make_event, alice):
    event = make_event("three_five_eight", players=3, deals_per_match=3, play_online=False)
    (fixture,) = tables(published_round(event, alice))
    grid = [{"tricks": [10, 2, 4]}]  # 3-5-8 tricks per seat (seat 0 deals: target 8)
    result = absences.mark_absent(fixture, by=alice, seats=[0], after_deal=1, grid=grid)
    assert result.grid == grid and result.sheet == {"deals": [{"scores": [10, 2, 4]}]}
    assert result.scored["totals"]["payouts"] == [2, -3, 1]
    assert result.scored["winners"] == [1, 2]


@pytest.mark.parametrize(
    ("seats", "after_deal", "typed", "message"),
    [
        ([3], None, None, "seat 3 is not a seat of this table"),
        ([], None, None, "say which seats are absent"),
        ([0, 1, 2], None, None, "not every seat can be absent"),
        ([0], 1, None, "give the score grid of the deals played"),
        ([0], 2, sheet(MIDDLE_1), "only 1 deal was played at this table"),
        ([0], 4, None, "matches here last 3 deals"),
        ([0], 3, sheet(MIDDLE_1, LOW_TIE, MIDDLE_1), "the whole match"),
        ([0], 1, {"deals": [{"scores": [-1, 13, 4]}]}, "score sheet"),
        (["0"], None, None, "seats are given by their numbers"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    make_event, alice, seats, after_deal, typed, message
):
    event = make_event("saichugen", players=3, deals_per_match=3, play_online=False)
    (fixture,) = tables(published_round(event, alice))
    with pytest.raises(LeagueError, match=message):
        absences.mark_absent(fixture, by=alice, seats=seats, after_deal=after_deal, sheet=typed)
    assert not Result.objects.exists() and not LedgerEntry.objects.exists()


def test_a_bot_is_never_absent(make_event, alice):
    event = make_event("saichugen", players=4, leftover="bot", play_online=False)
    fixture = tables(published_round(event, alice))[0]
    bot_seat = next(s.number for s in fixture.seats.all() if s.player.is_builtin_bot)
    with pytest.raises(LeagueError, match="a bot is never absent"):
        absences.mark_absent(fixture, by=alice, seats=[bot_seat])


def test_who_may_mark_and_when(make_event, alice, charlie):
    event = make_event("saichugen", players=3, play_online=False)
    draft = round_services.generate_round(event, by=alice)
    (fixture,) = tables(draft)
    with pytest.raises(PermissionDenied):
        absences.mark_absent(fixture, by=charlie, seats=[0])
    with pytest.raises(LeagueError, match="published round only"):
        absences.mark_absent(fixture, by=alice, seats=[0])
    round_services.publish_round(draft, by=alice)
    record_result(fixture, by=alice, record=record_for(fixture))
    with pytest.raises(LeagueConflict, match="already has a result"):
        absences.mark_absent(fixture, by=alice, seats=[0])
    assert Result.objects.count() == 1


def test_a_knockout_sends_on_a_present_player_and_never_the_absent(make_event, alice):
    event = make_event(
        "saichugen", players=6, format="knockout", rounds=2, deals_per_match=2, play_online=False
    )
    first, second = tables(published_round(event, alice))
    # seat 1 led after a deal (+2) and left; the two who stayed decide who goes on
    absences.mark_absent(first, by=alice, seats=[1], after_deal=1, sheet=sheet(MIDDLE_1))
    absent = player_at(first, 1)
    absences.mark_absent(second, by=alice, seats=[0])  # a no-show
    final = round_services.generate_round(event, by=alice)
    (final_table,) = tables(final)
    going = {s.player_id for s in final_table.seats.all()}
    assert len(going) == 3
    assert absent not in going and player_at(second, 0) not in going
    assert going & {player_at(first, 0), player_at(first, 2)}
    assert going & {player_at(second, 1), player_at(second, 2)}


def test_a_duplicate_table_stops_at_the_absence_and_its_seat_takes_the_lowest(make_event, alice):
    event = make_event(
        "saichugen", players=9, scoring="duplicate", deals_per_match=2, play_online=False
    )
    fixtures = tables(published_round(event, alice))
    record_result(fixtures[0], by=alice, sheet=sheet(MIDDLE_1, LOW_TIE))
    record_result(fixtures[1], by=alice, sheet=sheet(LOW_TIE, MIDDLE_1))
    absences.mark_absent(fixtures[2], by=alice, seats=[1], after_deal=1, sheet=sheet(MIDDLE_1))
    (loaded,) = load_sections(event)
    assert loaded.completed  # the absence is the section's last result
    table = loaded.scores.section.tables[2]
    assert table.deals == ((-1, 2, -1), None) and table.stopped_by == {1}
    # deal 2 over the two tables that played it: seat 1 pays 1 and 2, differences -1/2, +1/2;
    # the absent seat 1 gets the lowest of them, 0 %; the others at its table 0 and 50 %
    stopped = loaded.scores.travellers[1].tables[2]
    assert stopped.differences == (0, Fraction(-1, 2), 0)
    assert stopped.percentages == (50, 0, 50)


def test_a_no_show_who_arrives_late_is_taken_back_and_the_table_plays(make_event, alice):
    event = make_event("saichugen", players=3, deals_per_match=2, play_online=False)
    (fixture,) = tables(published_round(event, alice))
    absences.mark_absent(fixture, by=alice, seats=[0])
    assert row_of(event, player_at(fixture, 0))["absences"] == 1
    absences.undo_absence(fixture, by=alice)
    assert not fixture.results.filter(current=True).exists()
    assert fixture.results.get().source == Result.Source.ABSENCE  # kept in the history
    assert row_of(event, player_at(fixture, 0))["absences"] == 0
    result = record_result(fixture, by=alice, sheet=sheet(MIDDLE_1, LOW_TIE))
    assert result.version == 2 and result.absent_seats == []
    with pytest.raises(LeagueError, match="no absence to take back"):
        absences.undo_absence(fixture, by=alice)


def test_an_absence_after_a_deal_stands(make_event, alice, charlie):
    event = make_event("saichugen", players=3, deals_per_match=2, play_online=False)
    (fixture,) = tables(published_round(event, alice))
    absences.mark_absent(fixture, by=alice, seats=[0], after_deal=1, sheet=sheet(MIDDLE_1))
    with pytest.raises(PermissionDenied):
        absences.undo_absence(fixture, by=charlie)
    with pytest.raises(LeagueError, match="deals were played before the absence"):
        absences.undo_absence(fixture, by=alice)
    assert fixture.results.get(current=True).source == Result.Source.ABSENCE


def test_an_absence_the_next_swiss_round_was_made_from_stands(make_event, alice):
    event = make_event("saichugen", players=6, play_online=False)
    first, second = tables(published_round(event, alice))
    absences.mark_absent(first, by=alice, seats=[1])
    absences.mark_absent(second, by=alice, seats=[2])
    round_services.generate_round(event, by=alice)  # a draft counts: it was made from them
    with pytest.raises(LeagueError, match="round 2 was made from this round's results"):
        absences.undo_absence(first, by=alice)


def test_a_league_round_does_not_wait_and_an_absence_is_still_taken_back(make_event, alice):
    event = make_event("saichugen", players=3, format="league", play_online=False)
    (fixture,) = tables(published_round(event, alice))
    absences.mark_absent(fixture, by=alice, seats=[1])
    published_round(event, alice)  # a league's rounds are not made from results
    absences.undo_absence(fixture, by=alice)
    assert not fixture.results.filter(current=True).exists()
