"""`gameplay.api.stop_table`: an event's table whose seats are absent ends now — they forfeit,
the record keeps what was played, the players hear of it and `match_finished` is sent after
commit; a table that is not being played, or a seat it has not, is left as it is."""

from __future__ import annotations

import pytest
from django.db import transaction

from gameplay import api
from gameplay.models import Table
from gameplay.services.play import play_action
from gameplay.signals import match_finished

from .conftest import current, make_table, make_users, some_legal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]


@pytest.fixture
def table():
    played = make_table(people=make_users("ana", "ben", "cleo"), n_deals=2)
    played, match = current(played)
    seat = match.to_act()[0]
    play_action(played.id, seat, some_legal(match, seat), played.seq)  # a card is down
    return Table.objects.get(pk=played.pk)


def test_the_absent_seats_forfeit_and_the_end_is_announced_after_commit(table):
    heard = []

    def listen(sender, **kwargs):
        heard.append(kwargs)

    match_finished.connect(listen)
    try:
        with transaction.atomic():
            record = api.stop_table(table.id, [1])
            assert heard == []  # nothing is announced before the league's transaction commits
    finally:
        match_finished.disconnect(listen)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.forfeited_seats == [1]
    assert table.result["forfeited"] == [1] and not table.result["complete"]
    assert record == table.record and len(record["deals"][0]["actions"]) == 1
    assert [h["table_ref"] for h in heard] == [table.id] and heard[0]["forfeited_seats"] == [1]
    assert api.stop_table(table.id, [0]) is None  # over: nothing more to stop


def test_a_rollback_undoes_the_stop(table):
    with transaction.atomic():
        assert api.stop_table(table.id, [2]) is not None
        transaction.set_rollback(True)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.forfeited_seats == []


@pytest.mark.parametrize("seats", [[3], [], [True], ["1"]])
def test_a_seat_the_table_has_not_stops_nothing(table, seats):
    assert api.stop_table(table.id, seats) is None
    assert api.stop_table("no-such-table", [0]) is None
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
