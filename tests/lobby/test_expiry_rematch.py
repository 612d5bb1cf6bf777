"""Unfilled tables expire (the beat task and, lazily, the list); private tables are joined by
id only; a rematch reserves every person's seat for them and starts when all have joined."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import queue
from gameplay.models import Seat, Table
from gameplay.services import lobby

from .conftest import TABLES, api, create, join, leave

pytestmark = pytest.mark.django_db


def age(table_id: str, seconds: float) -> None:
    Table.objects.filter(pk=table_id).update(created_at=timezone.now() - timedelta(seconds=seconds))


def test_a_table_waiting_longer_than_the_setting_is_cancelled_by_the_task(ana, settings):
    settings.LOBBY_WAITING_EXPIRY = 600
    old = create(ana, game="saichugen")["table"]
    young = create(ana, game="saichugen")["table"]
    playing = create(ana, game="saichugen", bots=2)["table"]
    for table_id in (old, playing):
        age(table_id, 601)
    age(young, 599)
    assert queue.run_here(queue.EXPIRE_WAITING).get() == 1
    assert Table.objects.get(pk=old).status == "cancelled"
    assert Table.objects.get(pk=young).status == "waiting"
    assert Table.objects.get(pk=playing).status == "playing"
    assert lobby.expire_waiting() == 0  # idempotent
    assert join(ana, old).json()["status"] == "cancelled"  # her own seat, nothing more


def test_the_list_expires_lazily_without_beat(ana, olga, settings):
    settings.LOBBY_WAITING_EXPIRY = 60
    made = create(ana, game="saichugen")["table"]
    age(made, 61)
    assert api(olga).get(TABLES).json()["results"] == []
    assert Table.objects.get(pk=made).status == "cancelled"
    assert join(olga, made).status_code == 409


def test_the_beat_schedule_runs_the_expiry():
    from django.conf import settings

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert queue.EXPIRE_WAITING in tasks


def test_a_private_table_is_not_listed_but_joins_by_its_id(ana, ben, olga):
    made = create(ana, game="saichugen", private=True)
    assert api(olga).get(TABLES).json()["results"] == []
    joined = join(ben, made["table"])
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert api(olga).get(f"{TABLES}{made['table']}/").status_code == 200  # spectators allowed


# --- rematch ------------------------------------------------------------------------------


def finished_table(ana, ben, **options) -> str:
    made = create(ana, game="mediatore", bots=2, deals=1, **options)
    join(ben, made["table"])
    Table.objects.filter(pk=made["table"]).update(status="finished")
    return made["table"]


def test_a_rematch_reserves_the_other_persons_seat_and_rotates_the_dealer(ana, ben, olga):
    old = finished_table(ana, ben, seconds_per_move=20)
    joined = lobby.rematch(ben, old)
    table = joined.table
    assert (joined.seat, table.status, table.rematch_of_id, table.dealer) == (1, "waiting", old, 1)
    assert (table.game, table.n_deals, table.seconds_per_move, table.rated) == (
        "mediatore",
        1,
        20,
        True,
    )
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.user_id, s.reserved_for_id, s.bot) for s in seats] == [
        (None, ana.pk, ""),
        (ben.pk, None, ""),
        (None, None, "Basic bot 1"),
        (None, None, "Basic bot 2"),
    ]
    # Nobody else may take ana's seat, and the table is not offered to strangers.
    assert join(olga, table.id).status_code == 409
    assert table.id not in [e["table"] for e in api(olga).get(TABLES).json()["results"]]
    assert api(olga).get(f"{TABLES}{table.id}/").json()["open_seats"] == []
    # Ana's own rematch request joins the same table, in her seat, and it starts.
    hers = lobby.rematch(ana, old)
    assert (hers.table.id, hers.seat, hers.table.status) == (table.id, 0, "playing")


def test_rematch_refusals(ana, ben, olga):
    made = create(ana, game="saichugen")
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.rematch(ana, made["table"])
    assert refused.value.status == 409  # not finished
    old = finished_table(ana, ben)
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.rematch(olga, old)
    assert refused.value.status == 403  # not a player of it
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.rematch(None, old)
    assert refused.value.status == 403


def test_an_expired_rematch_makes_room_for_another(ana, ben, settings):
    settings.LOBBY_WAITING_EXPIRY = 60
    old = finished_table(ana, ben)
    first = lobby.rematch(ana, old).table
    age(first.id, 61)
    lobby.expire_waiting()
    second = lobby.rematch(ana, old).table
    assert second.id != first.id and second.status == "waiting"


def test_leaving_a_rematch_cancels_it_when_nobody_is_left(ana, ben):
    old = finished_table(ana, ben)
    table = lobby.rematch(ana, old).table
    assert leave(ana, table.id).json()["status"] == "cancelled"
