"""Timeouts by the day: the others claim a late player's timeout (page and API), or the sweep
applies it after the grace; the late seat goes to a bot and the match plays on."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from gameplay.models import Seat, Table
from gameplay.services import lobby
from gameplay.services.clocks import sweep_clocks
from gameplay.services.turn_timeouts import claimable

from .conftest import at, due_seat, user_at


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def claim_url(table_id: str) -> str:
    return f"/api/tables/{table_id}/claim-timeout/"


def test_a_claim_before_the_deadline_by_the_late_player_or_an_outsider_is_refused(
    table, clock, people
):
    late_seat = due_seat(table.id)
    late = user_at(table.id, late_seat)
    other = user_at(table.id, (late_seat + 1) % 3)
    olga = people[3]
    clock.move_to(at(1.9))
    early = api(other).post(claim_url(table.id))
    assert early.status_code == 409 and "Nobody's time has run out" in early.json()["detail"]
    clock.move_to(at(2.1))
    assert api(late).post(claim_url(table.id)).status_code == 409  # make your move instead
    assert api(olga).post(claim_url(table.id)).status_code == 403
    assert APIClient().post(claim_url(table.id)).status_code in (401, 403)
    assert api(other).post("/api/tables/nothex/claim-timeout/").status_code == 404
    seat = Seat.objects.get(table=table, number=late_seat)
    assert seat.user_id == late.pk and not seat.bot  # nothing changed


def test_the_other_player_claims_the_timeout_on_the_table_page(table, clock):
    late_seat = due_seat(table.id)
    late = user_at(table.id, late_seat)
    other = user_at(table.id, (late_seat + 1) % 3)
    client = Client()
    client.force_login(other)
    clock.move_to(at(1))
    assert "claim-timeout-form" not in client.get(f"/tables/{table.id}/").content.decode()
    clock.move_to(at(2.5))
    t = Table.objects.prefetch_related("seats").get(pk=table.id)
    assert claimable(t, other) and not claimable(t, late)
    assert "claim-timeout-form" in client.get(f"/tables/{table.id}/").content.decode()
    response = client.post(f"/tables/{table.id}/claim-timeout/", follow=True)
    assert "seat goes to a bot" in response.content.decode()
    seat = Seat.objects.get(table=table, number=late_seat)
    assert seat.user_id is None and seat.resigned_user_id == late.pk and seat.bot
    t.refresh_from_db()
    assert late_seat in t.forfeited_seats
    assert t.status == Table.Status.PLAYING and t.seq > table.seq  # the bot played on


def test_the_api_claim_answers_the_seats_timed_out(table, clock):
    late_seat = due_seat(table.id)
    other = user_at(table.id, (late_seat + 2) % 3)
    clock.move_to(at(3))
    response = api(other).post(claim_url(table.id))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["table"] == table.id and body["timed_out"] == [late_seat]
    again = api(other).post(claim_url(table.id))
    assert again.status_code == 409  # settled: nobody is late any more


def test_unclaimed_the_sweep_applies_it_after_the_grace(table, clock, settings):
    settings.GAMEPLAY_TURN_TIMEOUT_GRACE = 86400
    late_seat = due_seat(table.id)
    clock.move_to(at(2.5))  # late, but within the grace: the sweep waits for a claim
    assert sweep_clocks(at(2.5)) == 0
    assert Seat.objects.get(table=table, number=late_seat).bot == ""
    clock.move_to(at(3.1))
    assert sweep_clocks(at(3.1)) == 1
    seat = Seat.objects.get(table=table, number=late_seat)
    assert seat.bot and seat.resigned_user_id is not None
    assert Table.objects.get(pk=table.id).status == Table.Status.PLAYING


def test_a_live_table_has_nothing_to_claim(clock, people, quick_tables):
    ana, ben, cleo, _ = people
    made = lobby.create_friendly(ana, game="three_five_eight", pace="fast", rated=False)
    lobby.join(ben, made.table.id)
    lobby.join(cleo, made.table.id)
    clock.move_to(at(1))
    response = api(ana).post(claim_url(made.table.id))
    assert response.status_code == 409 and "turn-based" in response.json()["detail"]
