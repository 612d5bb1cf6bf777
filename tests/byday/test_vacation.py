"""Vacation: one's turn-based clocks stand still, a limited number of days a year; coming back
early gives the unused days back; bad input changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from gameplay.models import Table
from gameplay.services import vacation
from gameplay.services.lobby import LobbyError

from .conftest import at, due_seat, move, user_at


def deadline(table_id: str):
    return Table.objects.get(pk=table_id).deadline


def test_a_vacation_moves_the_waiting_deadline_and_counts_its_days(table, clock):
    person = user_at(table.id, due_seat(table.id))
    assert deadline(table.id) == at(2)
    clock.move_to(at(0.5))
    away = vacation.start(person, 3)
    assert (away.away, away.until, away.days_left, away.per_year) == (True, at(3.5), 11, 14)
    assert deadline(table.id) == at(5)  # the 1.5 days left to move, after the vacation
    # The profile says so.
    client = Client()
    client.force_login(person)
    html = client.get("/accounts/profile/").content.decode()
    assert 'id="vacation-status"' in html and "11 days left this year" in html
    assert "On vacation until" in html

    clock.move_to(at(1.5))  # back a day later: two days given back, the clock runs again
    back = vacation.end(person)
    assert (back.away, back.days_left) == (False, 13)
    assert deadline(table.id) == at(3)  # paused for one day


def test_a_turn_that_begins_on_vacation_starts_its_clock_when_it_ends(table, clock):
    away_seat = next(s for s in range(3) if s != due_seat(table.id))
    person = user_at(table.id, away_seat)
    clock.move_to(at(0.5))
    vacation.start(person, 4)  # until at(4.5)
    clock.move_to(at(1))
    for _ in range(60):  # the others move until it is the person's turn
        if due_seat(table.id) == away_seat:
            break
        move(table.id)
    assert due_seat(table.id) == away_seat
    assert deadline(table.id) == at(6.5)  # the vacation's end + two days


def test_vacation_days_are_limited_a_year(table, clock, settings, people):
    settings.GAMEPLAY_VACATION_DAYS_PER_YEAR = 5
    olga = people[3]
    vacation.start(olga, 3)
    vacation.end(olga)  # at once: the 3 whole days unused come back
    assert vacation.status(olga).days_left == 5
    vacation.start(olga, 5)
    clock.move_to(at(6))  # it ended by itself
    assert vacation.status(olga).away is False
    with pytest.raises(LobbyError) as refused:
        vacation.start(olga, 1)
    assert refused.value.status == 409 and "0 days of vacation left" in refused.value.detail
    clock.move_to(at(365))  # a new year, a new allowance
    assert vacation.status(olga).days_left == 5


@pytest.mark.parametrize("bad", [0, -1, "3", None, True, 2.5])
def test_a_bad_length_is_refused_and_changes_nothing(table, people, bad):
    olga = people[3]
    with pytest.raises(LobbyError) as refused:
        vacation.start(olga, bad)
    assert refused.value.status == 400
    olga.refresh_from_db()
    assert olga.vacation_until is None and olga.vacation_days_used == 0


def test_twice_too_long_not_away_and_guests_are_refused(table, people):
    olga = people[3]
    with pytest.raises(LobbyError) as too_long:
        vacation.start(olga, 15)
    assert too_long.value.status == 409
    with pytest.raises(LobbyError) as not_away:
        vacation.end(olga)
    assert not_away.value.status == 409
    vacation.start(olga, 2)
    with pytest.raises(LobbyError) as twice:
        vacation.start(olga, 2)
    assert twice.value.status == 409
    olga.is_guest = True
    olga.save(update_fields=["is_guest"])
    with pytest.raises(LobbyError) as guest:
        vacation.start(olga, 1)
    assert guest.value.status == 403


def test_the_page_refuses_a_bad_length_with_a_message(table, people):
    olga = people[3]
    client = Client()
    client.force_login(olga)
    response = client.post("/play/vacation/", {"days": "abc"}, follow=True)
    assert response.status_code == 200
    assert "whole days" in response.content.decode()
    olga.refresh_from_db()
    assert olga.vacation_until is None
    response = client.post("/play/vacation/", {"days": "2"}, follow=True)
    assert "You are on vacation until" in response.content.decode()
    assert Client().post("/play/vacation/", {"days": "2"}).status_code == 302  # to log in


def test_the_others_at_the_table_see_who_is_on_vacation(table, clock, people):
    import json

    away_seat = due_seat(table.id)
    person = user_at(table.id, away_seat)
    vacation.start(person, 3)
    watcher = next(u for u in people[:3] if u.pk != person.pk)
    client = Client()
    client.force_login(watcher)
    page = client.get(f"/tables/{table.id}/").content.decode()
    raw = page.split('id="table-config" type="application/json">')[1].split("</script>")[0]
    players = json.loads(raw)["players"]
    assert players[away_seat]["awayUntil"] == at(3).isoformat()
    assert [p["awayUntil"] for p in players if p["seat"] != away_seat] == [None, None]
    clock.move_to(at(3.5))  # back: no mark any more
    page = client.get(f"/tables/{table.id}/").content.decode()
    raw = page.split('id="table-config" type="application/json">')[1].split("</script>")[0]
    assert json.loads(raw)["players"][away_seat]["awayUntil"] is None
