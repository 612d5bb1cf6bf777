"""A person's turn clock starts at their first connection (bots at once), or at the end of the
table's connect grace, so a no-show still times out; and the state says who took the last
action — the clock's own actions included (docs/tables.md, "Clocks")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import clock
from gameplay.models import Action, Seat, Table
from gameplay.runtime import runner
from gameplay.services import clocks, payloads, presence
from gameplay.services.create import SeatSpec, create_table
from gameplay.services.play import play_action

from .conftest import current, make_table, make_users, some_legal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]

SECONDS = 15
GRACE = 60


@pytest.fixture
def people():
    return make_users("ana", "ben", "cleo")


def seconds_after(moment, seconds: float):
    return moment + timedelta(seconds=seconds)


def state_of(table: Table, seat: int | None) -> dict:
    return payloads.states_since(table.id, seat, -1)[0]


def connect(table: Table, seat: int) -> int | None:
    """What the table socket does on a seat's first connection."""
    table.refresh_from_db()
    return presence.record_connection(table.id, seat, table.seats_rev)


def test_a_persons_clock_waits_for_their_first_connection(people):
    # Saichugen: everyone commits at seq 0; the bots commit at once, ana's clock waits for her.
    table = make_table("saichugen", people[:1], ["Bot B", "Bot C"], seconds_per_move=SECONDS)
    table, match = current(table)
    assert match.to_act() == [0], "the bots have committed"
    grace_until = seconds_after(table.dealt_at, GRACE)
    assert table.connect_grace == GRACE
    assert table.deadline == seconds_after(grace_until, SECONDS)
    with time_machine.travel(seconds_after(table.dealt_at, 5), tick=False):
        before = state_of(table, 0)
        assert before["clock"]["0"] == SECONDS, "a clock that has not started shows it all"
        assert before["clock_starts_in"] == GRACE - 5
        rev = table.seats_rev
        assert connect(table, 0) == rev + 1  # the seats' revision: no move reads her unseen
        table.refresh_from_db()
        assert table.deadline == seconds_after(table.dealt_at, 5 + SECONDS)
        after = state_of(table, 0)
        assert after["clock"]["0"] == SECONDS and "clock_starts_in" not in after
    with time_machine.travel(seconds_after(table.dealt_at, 9), tick=False):
        assert state_of(table, 0)["clock"]["0"] == SECONDS - 4, "now it runs"
        assert state_of(table, None)["clock"]["0"] == SECONDS - 4
        # One write per seat per table: a second connection changes nothing.
        assert connect(table, 0) is None
        table.refresh_from_db()
        assert table.seats_rev == rev + 1
        assert table.deadline == seconds_after(table.dealt_at, 5 + SECONDS)
    assert Seat.objects.get(table=table, number=0).connected_at is not None


def test_a_no_show_times_out_after_the_grace_and_the_allowance(people):
    table = make_table("saichugen", people, seconds_per_move=SECONDS)
    table.refresh_from_db()
    with time_machine.travel(seconds_after(table.dealt_at, GRACE + SECONDS - 1), tick=False):
        assert clocks.sweep_clocks() == 0, "the no-shows' clocks started only at the grace's end"
        assert state_of(table, 1)["clock"]["1"] == 1.0
    with time_machine.travel(seconds_after(table.dealt_at, GRACE + SECONDS + 1), tick=False):
        assert clocks.sweep_clocks() == 3  # all three seats of the decision
    assert Action.objects.filter(table=table, kind=Action.Kind.TIMEOUT).count() == 3


def test_a_no_show_forfeits_after_the_grace_when_the_table_says_so(people):
    table = make_table("saichugen", people[:1], ["Bot B", "Bot C"], seconds_per_move=SECONDS)
    Table.objects.filter(pk=table.pk).update(on_timeout=Table.OnTimeout.FORFEIT)
    table.refresh_from_db()
    with time_machine.travel(seconds_after(table.dealt_at, GRACE + SECONDS - 1), tick=False):
        assert clocks.sweep_clocks() == 0
    with time_machine.travel(seconds_after(table.dealt_at, GRACE + SECONDS + 1), tick=False):
        assert clocks.sweep_clocks() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.forfeited_seats == [0]


def test_the_grace_is_the_tables_own(people):
    table = make_table(
        "saichugen", people[:1], ["Bot B", "Bot C"], seconds_per_move=SECONDS, connect_grace=0
    )
    table.refresh_from_db()
    assert table.deadline == seconds_after(table.dealt_at, SECONDS), "no grace: runs at once"
    with pytest.raises(ValueError, match="connect_grace"):
        make_table("saichugen", people[:1], ["Bot B", "Bot C"], connect_grace=-1)


def test_a_bots_clock_runs_at_once_and_an_unseen_seat_waits_in_the_move_path(people, monkeypatch):
    monkeypatch.setattr(runner, "schedule_bot", lambda table_id, seq: None)  # bots hold still
    # 3-5-8: one seat bids after another. ana (0) connects, ben (1) does not, a bot sits at 2.
    seats = [SeatSpec("ana", user_id=people[0].pk), SeatSpec("ben", user_id=people[1].pk)]
    seats.append(SeatSpec("Bot C", bot="Bot C"))
    table = create_table("three_five_eight", seats, seed=7, seconds_per_move=SECONDS)
    with time_machine.travel(seconds_after(table.dealt_at, 2), tick=False) as traveller:
        for seat in (0, 1, 2):
            table, match = current(table)
            due = match.to_act()[0]
            if due == 0:
                connect(table, 0)
            table, match = current(table)
            moved_at = seconds_after(table.dealt_at, 2 + seat)
            traveller.move_to(moved_at)
            play_action(table.id, due, some_legal(match, due), table.seq)
            table, match = current(table)
            nxt = match.to_act()[0]
            grace_until = seconds_after(table.dealt_at, GRACE)
            expected = seconds_after(grace_until if nxt == 1 else moved_at, SECONDS)
            assert table.deadline == expected, (due, nxt)
            if nxt == 1:
                # ben connects: his clock starts now, with the whole allowance.
                traveller.move_to(seconds_after(moved_at, 1))
                connect(table, 1)
                table.refresh_from_db()
                assert table.deadline == seconds_after(moved_at, 1 + SECONDS)
                return
    pytest.fail("ben was never due")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
def test_a_move_while_the_clock_waits_for_a_seat_still_reads_nothing(people, match_cache):
    table = make_table("saichugen", people, seconds_per_move=SECONDS)
    for n in range(2):  # the first move also reads the seats, once per process
        table, match = current(table)
        seat = match.to_act()[0]
        with CaptureQueriesContext(connection) as queries:
            play_action(table.id, seat, some_legal(match, seat), table.seq, client_id=f"m{n}")
    statements = [q["sql"].split(None, 1)[0] for q in queries.captured_queries]
    assert statements == (["WITH"] if match_cache else ["SELECT", "SELECT", "SELECT", "WITH"])
    table.refresh_from_db()
    assert table.deadline == seconds_after(table.dealt_at, GRACE + SECONDS), "still waiting"


def test_the_state_says_who_took_the_last_action(people):
    bots = make_table("saichugen", people[:1], ["Bot B", "Bot C"])
    assert state_of(bots, 0)["last_action"] == {
        "seat": 2,
        "action": {"act": "commit"},
        "by": "bot",
    }
    table = make_table("saichugen", people, seconds_per_move=SECONDS)
    for seat in (0, 2):
        table, match = current(table)
        play_action(table.id, seat, some_legal(match, seat), table.seq)
    table.refresh_from_db()
    with time_machine.travel(seconds_after(table.deadline, 1), tick=False):
        assert clocks.apply_timeouts(table.id) == 1  # ben never came: the clock commits
    timeout = Action.objects.get(table=table, kind=Action.Kind.TIMEOUT)
    assert timeout.seat == 1
    table, match = current(table)
    # The trick is over (the three commits are shown), but a last action's cards go only to
    # its own seat while its deal goes on: a commit may be secret.
    own = state_of(table, 1)["last_action"]
    assert own == {"seat": 1, "action": timeout.action, "by": "clock"}
    for receiver in (0, 2, None):
        other = state_of(table, receiver)["last_action"]
        assert other == {"seat": 1, "action": {"act": "commit"}, "by": "clock"}
    # The same after a gap (replayed from the log), and in the states of a move.
    replayed = payloads.states_since(table.id, 0, 0)
    assert [s["last_action"]["by"] for s in replayed] == ["player", "player", "clock"]
    table, match = current(table)
    play_action(table.id, 0, some_legal(match, 0), table.seq)
    table.refresh_from_db()
    assert table.last_kind == Action.Kind.PLAYER
    assert state_of(table, None)["last_action"] == {
        "seat": 0,
        "action": {"act": "commit"},
        "by": "player",
    }


def test_a_new_table_has_no_last_action(people):
    table = make_table("three_five_eight", people)
    assert state_of(table, 0)["last_action"] is None


def test_the_deadline_rules():
    now = datetime(2026, 1, 1, tzinfo=UTC)
    grace = seconds_after(now, 30)
    assert clock.clock_starts_by([0], {0}, grace, now) == grace
    assert clock.clock_starts_by([0], {1}, grace, now) is None, "the seat due has connected"
    assert clock.clock_starts_by([0], {0}, grace, grace) is None, "the grace is over"
    assert clock.clock_starts_by([0], {0}, None, now) is None, "no grace (an old table)"
    deadline = clock.next_deadline([], [0], None, now, 10, starts_by=grace, extra=5)
    assert deadline == seconds_after(grace, 15), "the new deal's extra time is kept"
    assert clock.connected_deadline(deadline, grace, seconds_after(now, 4)) == seconds_after(
        now, 19
    )
    assert clock.clock_view([0], deadline, 10, 3, now, starts_by=grace) == {
        "0": 15.0,
        "1": 10.0,
        "2": 10.0,
    }
