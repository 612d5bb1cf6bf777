"""Two people taking the last open seat at the same moment: one seat, one 409, one deal.

Real threads with their own database connections, on PostgreSQL (CI): the join locks the table
row (`select_for_update`), so the second waits and then finds no open seat.
"""

from __future__ import annotations

import pytest

from gameplay.models import Seat, Table
from gameplay.services import lobby
from tests.gameplay.race import race

from .conftest import create, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_two_people_racing_for_the_last_seat_get_one_seat_and_one_409(ana, ben):
    rivals = [make_user(f"rival-{n}") for n in range(4)]
    for round_no in range(4):
        made = create(ana, game="saichugen", bots=1, rated=False)
        a, b = rivals[(2 * round_no) % 4], rivals[(2 * round_no + 1) % 4]
        table_id = made["table"]
        outcomes = race([lambda u=u, t=table_id: lobby.join(u, t) for u in (a, b)])
        won = [o for o in outcomes if isinstance(o, lobby.Joined)]
        lost = [o for o in outcomes if isinstance(o, lobby.LobbyError)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert lost[0].status == 409
        table = Table.objects.get(pk=made["table"])
        assert table.status == "playing"
        seated = Seat.objects.filter(table=table, user__isnull=False).count()
        assert seated == 2  # ana and the winner; the bot in the last seat


def test_one_person_joining_twice_at_once_gets_one_seat(ana, ben):
    made = create(ana, game="mediatore", rated=False)
    outcomes = race([lambda: lobby.join(ben, made["table"]) for _ in range(2)])
    assert all(isinstance(o, lobby.Joined) for o in outcomes), outcomes
    assert {o.seat for o in outcomes} == {1}
    assert Seat.objects.filter(table_id=made["table"], user=ben).count() == 1
