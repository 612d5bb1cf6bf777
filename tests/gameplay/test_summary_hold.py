"""A new deal's summary holds a person's clock until they dismiss it (`ready`), up to a cap;
bots are never held (docs/tables.md, "End of a deal")."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from gameplay.models import Seat, Table
from gameplay.runtime import cache
from gameplay.services import payloads, readiness
from gameplay.services.play import play_action

from .conftest import current, make_table, make_users, some_legal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]

SECONDS = 15
CAP = 40


@pytest.fixture(autouse=True)
def cap(settings):
    settings.GAMEPLAY_DEAL_SUMMARY_SECONDS = CAP


def state_of(table: Table, seat: int | None) -> dict:
    return payloads.states_since(table.id, seat, -1)[0]


def to_the_next_deal(table: Table) -> tuple[Table, object]:
    """Play ana's (seat 0) first legal action until the second deal is dealt and she is to act
    in it (the bots play inline after each move)."""
    for _ in range(200):
        table, match = current(table)
        if match.deal_no >= 1 and 0 in match.to_act():
            return table, match
        assert match.to_act() == [0], "only ana is left to act between the bots' moves"
        play_action(table.id, 0, some_legal(match, 0), table.seq)
    raise AssertionError("the second deal never came to ana")


def a_two_deal_table() -> Table:
    """ana and two bots, two deals of 3-5-8, a clock, no connect grace (she is there)."""
    ana = make_users("ana")[0]
    return make_table(
        "three_five_eight",
        [ana],
        ["Bot B", "Bot C"],
        n_deals=2,
        seconds_per_move=SECONDS,
        connect_grace=0,
    )


def test_the_summary_holds_a_persons_first_clock_of_the_new_deal_until_the_cap():
    table, _ = to_the_next_deal(a_two_deal_table())
    assert table.summary_until is not None
    assert table.deadline == table.summary_until + timedelta(seconds=SECONDS)
    with time_machine.travel(table.summary_until - timedelta(seconds=CAP - 5), tick=False):
        state = state_of(table, 0)
        assert state["clock"]["0"] == SECONDS, "a held clock shows its whole allowance"
        assert state["clock_starts_in"] == CAP - 5
    # After the cap the clock runs by itself: a late ready changes nothing.
    with time_machine.travel(table.summary_until + timedelta(seconds=1), tick=False):
        assert readiness.record_ready(table.id, 0, 1, table.seats_rev) is None
        state = state_of(table, 0)
        assert "clock_starts_in" not in state and state["clock"]["0"] == SECONDS - 1
    table.refresh_from_db()
    assert table.deadline == table.summary_until + timedelta(seconds=SECONDS)


def test_dismissing_the_summary_starts_the_clock_at_once():
    table, _ = to_the_next_deal(a_two_deal_table())
    moment = table.summary_until - timedelta(seconds=CAP - 3)
    with time_machine.travel(moment, tick=False):
        # A ready for another deal (a late one from the deal before) says nothing of this one.
        assert readiness.record_ready(table.id, 0, 0, table.seats_rev) is None
        table.refresh_from_db()
        assert table.deadline == table.summary_until + timedelta(seconds=SECONDS)

        rev = readiness.record_ready(table.id, 0, 1, table.seats_rev)
        assert rev == table.seats_rev + 1, "the caller is still who it was"
        table.refresh_from_db()
        assert table.deadline == moment + timedelta(seconds=SECONDS)
        assert Seat.objects.get(table=table, number=0).ready_deal == 1
        state = state_of(table, 0)
        assert "clock_starts_in" not in state and state["clock"]["0"] == SECONDS
        # Once is enough: a second ready writes nothing.
        assert readiness.record_ready(table.id, 0, 1, table.seats_rev) is None
        table.refresh_from_db()
        assert table.seats_rev == rev


def test_a_ready_person_is_not_held_on_the_next_move():
    """The move path reads the readiness from the seats cache (refreshed by the revision)."""
    table, match = to_the_next_deal(a_two_deal_table())
    moment = table.summary_until - timedelta(seconds=CAP - 2)
    with time_machine.travel(moment, tick=False):
        readiness.record_ready(table.id, 0, 1, table.seats_rev)
        table, match = current(table)
        play_action(table.id, 0, some_legal(match, 0), table.seq)
        table, match = current(table)
        if 0 in match.to_act() and match.deal_no == 1:
            assert table.deadline == moment + timedelta(seconds=SECONDS)


def test_bots_are_not_held_and_their_clock_runs_from_the_deal():
    table = make_table("three_five_eight", [], ["A", "B", "C"], n_deals=2, seconds_per_move=SECONDS)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.summary_until is not None, "a deal ended before the match's last"
    # Every bot had a plain clock: nothing held them (the sweeper never waited on a summary).
    assert cache.unready_seats(table.id, 1) == set()


def test_a_spectator_or_a_bot_seat_cannot_say_ready():
    table, _ = to_the_next_deal(a_two_deal_table())
    before = table.deadline
    assert readiness.record_ready(table.id, 1, 1, table.seats_rev) is None  # a bot's seat
    table.refresh_from_db()
    assert table.deadline == before
