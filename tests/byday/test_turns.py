"""A turn-based table played over simulated days: the clock in days, whose turn it is, the
"Your turn" list and the header's count, one "your turn" notice a turn, none at a live table."""

from __future__ import annotations

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from gameplay.clock import DAY
from gameplay.models import Seat, Table
from gameplay.services import lobby, turns
from league.models import Notice

from .conftest import START, at, due_seat, move, user_at


def notices(user) -> int:
    return Notice.objects.filter(user=user, kind="your_turn").count()


def test_moves_over_days_move_the_turn_the_list_the_count_and_the_notices(table, clock, people):
    assert (table.pace, table.seconds_per_move, table.connect_grace) == ("2-days", 2 * DAY, 0)
    assert table.deadline == START + 2 * (at(1) - START)  # two days from the deal
    first = due_seat(table.id)
    a = user_at(table.id, first)
    assert turns.count_your_turns(a) == 1
    assert [t.id for t in turns.your_turns(a)] == [table.id]
    assert notices(a) == 1
    others = [u for u in people[:3] if u != a]
    assert all(turns.count_your_turns(u) == 0 and notices(u) == 0 for u in others)

    clock.move_to(at(1))  # a day later, a move: the next person's turn, a fresh two days
    move(table.id)
    second = due_seat(table.id)
    b = user_at(table.id, second)
    table.refresh_from_db()
    if b != a:
        assert turns.count_your_turns(a) == 0
        assert table.deadline == at(3)
    assert turns.count_your_turns(b) == 1 and notices(b) >= 1
    notice = Notice.objects.filter(user=b, kind="your_turn").latest("id")
    assert notice.url == f"/tables/{table.id}/"

    # My games lists it with the time left; the header counts it on every page.
    client = Client()
    client.force_login(b)
    page = client.get("/games/")
    assert page.status_code == 200
    assert [r["table"].id for r in page.context["your_turn"]] == [table.id]
    assert page.context["your_turn"][0]["left"] == "2 days 0 h"
    assert page.context["your_turns"].count == 1
    assert 'id="your-turn"' in page.content.decode()
    home = client.get("/").content.decode()
    assert "data-your-turns" in home and ">1</span>" in home


def test_one_notice_a_turn_not_one_a_state(table, clock):
    seat = due_seat(table.id)
    person = user_at(table.id, seat)
    before = notices(person)
    # Anything that re-sends the states (a resignation elsewhere, a sync) makes no new turn.
    from gameplay.runtime.cache import Snapshot
    from gameplay.services import matches
    from gameplay.services import turns as turn_marks

    t = Table.objects.get(pk=table.id)
    turn_marks.mark_turns(Snapshot.of(t), matches.load_match(t))
    turn_marks.mark_turns(Snapshot.of(t), matches.load_match(t))
    assert notices(person) == before
    since = Seat.objects.get(table=table, number=seat).due_since
    assert since == START


def test_a_live_table_has_no_turns_and_no_notice(clock, people, quick_tables):
    ana, ben, cleo, _ = people
    made = lobby.create_friendly(ana, game="three_five_eight", pace="fast", rated=False)
    lobby.join(ben, made.table.id)
    lobby.join(cleo, made.table.id)
    assert not Seat.objects.filter(table_id=made.table.id, due_since__isnull=False).exists()
    assert not Notice.objects.filter(kind="your_turn").exists()
    assert all(turns.count_your_turns(u) == 0 for u in (ana, ben, cleo))


def _queries(client) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as games:
        assert client.get("/games/").status_code == 200
    with CaptureQueriesContext(connection) as home:
        assert client.get("/").status_code == 200
    return len(games), len(home)


def test_my_games_and_the_header_count_in_a_constant_number_of_queries(clock, people, quick_tables):
    ana, ben, cleo, _ = people
    client = Client()

    def new_table() -> None:
        # ana at seat 0 deals first at 3-5-8 (dealer 0 is not first: whoever is, is due).
        made = lobby.create_friendly(ana, game="three_five_eight", pace="1-day", rated=False)
        lobby.join(ben, made.table.id)
        lobby.join(cleo, made.table.id)

    new_table()
    who = user_at(Table.objects.get().id, due_seat(Table.objects.get().id))
    client.force_login(who)
    one = _queries(client)
    for _ in range(3):
        new_table()
    assert turns.count_your_turns(who) == 4
    assert _queries(client) == one
