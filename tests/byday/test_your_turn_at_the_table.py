"""Someone playing on at a turn-based table (the bots answer at once) is not told of each
turn: one "your turn" notice per table an hour at most, the new one reading the old ones, and
the page they are on only rings the bell (static/js/live.js)."""

from __future__ import annotations

from gameplay.models import Table
from league.models import Notice
from tests.byday.conftest import at, due_seat, move, user_at

from .conftest import clock, people, table  # noqa: F401  (fixtures)


def _turns(user) -> list[Notice]:
    return list(Notice.objects.filter(user=user, kind="your_turn").order_by("created_at", "pk"))


def test_turns_minutes_apart_make_one_notice_and_a_later_one_reads_it(clock, table):  # noqa: F811
    first = user_at(table.id, due_seat(table.id))
    assert len(_turns(first)) == 1
    # Everyone plays on within minutes: however many turns come back to them, no new notice.
    for minute in range(1, 40):
        clock.move_to(at(minute / 1440))
        move(table.id)
        if Table.objects.get(pk=table.id).status != "playing":
            break
    assert all(len(_turns(user_at(table.id, s))) <= 1 for s in range(3))
    # A day later it is their turn again: a new notice, and the old one is read.
    seat = due_seat(table.id)
    person = user_at(table.id, seat)
    before = _turns(person)
    clock.move_to(at(1))
    move(table.id, seat)
    while due_seat(table.id) != seat:
        move(table.id)
    after = _turns(person)
    assert len(after) == len(before) + 1
    assert [n.read_at is not None for n in after[:-1]] == [True] * (len(after) - 1)
    assert after[-1].read_at is None
