"""Quick pairing's rules: who meets, when bots fill the table, replacing, cancelling, expiry,
and that bad input changes nothing (gameplay/services/seeks.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.models import Seat, Seek, Table
from gameplay.services import seeks
from gameplay.services.lobby import LobbyError

from .conftest import make_user

pytestmark = pytest.mark.django_db


def seated(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("number"))


def test_three_seekers_of_one_pool_meet_at_one_playing_table(ana, ben, cleo, told):
    a = seeks.seek(ana, game="saichugen", pace="normal")
    b = seeks.seek(ben, game="saichugen", pace="normal")
    assert a.status == b.status == "open" and Table.objects.count() == 0
    c = seeks.seek(cleo, game="saichugen", pace="normal")
    assert c.status == "matched" and c.table is not None
    table = c.table
    assert table.status == "playing" and table.origin == "lobby" and table.rated
    assert table.seconds_per_move == 45 and table.n_deals == 3
    assert table.pace == "normal"  # the table says its pace, as a lobby table does
    assert {s.user_id for s in seated(table)} == {ana.pk, ben.pk, cleo.pk}
    assert set(Seek.objects.values_list("status", "table_id")) == {("matched", table.id)}
    started = {"type": "table_started", "table": table.id, "url": f"/tables/{table.id}/"}
    for person in (ana, ben, cleo):
        assert told.to(person) == [started]
    assert {"type": "seeks"} in told.lobby()


def test_pools_do_not_mix_games_paces_or_ratedness(ana, ben, cleo, dan):
    seeks.seek(ana, game="saichugen", pace="normal")
    seeks.seek(ben, game="saichugen", pace="fast")
    seeks.seek(cleo, game="saichugen", pace="normal", rated=False)
    seeks.seek(dan, game="schieberamsch", pace="normal")
    assert Table.objects.count() == 0
    assert Seek.objects.filter(status="open").count() == 4


def test_mediatore_waits_for_four_people(ana, ben, cleo, dan):
    for person in (ana, ben, cleo):
        assert seeks.seek(person, game="mediatore", pace="relaxed").status == "open"
    last = seeks.seek(dan, game="mediatore", pace="relaxed")
    assert last.status == "matched"
    assert len([s for s in seated(last.table) if s.user_id]) == 4
    assert last.table.seconds_per_move == 90


def test_seeking_again_replaces_the_open_seek(ana):
    first = seeks.seek(ana, game="saichugen", pace="normal")
    second = seeks.seek(ana, game="three_five_eight", pace="fast", bots_after=60)
    first.refresh_from_db()
    assert first.status == "cancelled" and second.status == "open"
    assert Seek.objects.filter(user=ana, status="open").count() == 1


def test_bots_fill_the_table_once_the_oldest_wait_has_passed(ana, ben):
    mine = seeks.seek(ana, game="saichugen", pace="fast", bots_after=30)
    seeks.seek(ben, game="saichugen", pace="fast", bots_after=120)
    now = timezone.now()
    assert seeks.sweep(now + timedelta(seconds=10)) == 0
    assert Table.objects.count() == 0
    assert seeks.sweep(now + timedelta(seconds=31)) == 1
    mine.refresh_from_db()
    table = mine.table
    assert mine.status == "matched" and table.status == "playing"
    people = [s for s in seated(table) if s.user_id]
    bots = [s for s in seated(table) if s.bot]
    assert {s.user_id for s in people} == {ana.pk, ben.pk}
    assert [b.bot_level for b in bots] == ["basic"]
    assert table.seconds_per_move == 20


def test_a_seeker_who_said_never_is_not_put_with_bots(ana, ben):
    mine = seeks.seek(ana, game="saichugen", pace="normal", bots_after=30)
    never = seeks.seek(ben, game="saichugen", pace="normal", bots_after=None)
    seeks.sweep(timezone.now() + timedelta(seconds=40))
    mine.refresh_from_db()
    never.refresh_from_db()
    assert mine.status == "matched" and never.status == "open"
    assert len([s for s in seated(mine.table) if s.bot]) == 2
    # Without a bot wait nothing ever fills: it expires instead.
    assert seeks.sweep(timezone.now() + timedelta(seconds=400)) == 0


def test_a_polling_seeker_finds_the_bot_table_without_a_sweep(ana, monkeypatch):
    mine = seeks.seek(ana, game="saichugen", pace="normal", bots_after=30)
    Seek.objects.filter(pk=mine.pk).update(created_at=timezone.now() - timedelta(seconds=31))
    read = seeks.readable_seek(ana, mine.id)
    assert read.status == "matched" and read.table.status == "playing"


def test_a_seek_expires_and_its_seeker_is_told(ana, told):
    mine = seeks.seek(ana, game="saichugen", pace="normal")
    seeks.sweep(timezone.now() + timedelta(seconds=601))
    mine.refresh_from_db()
    assert mine.status == "expired"
    notices = [m for m in told.to(ana) if m["type"] == "notice"]
    assert len(notices) == 1 and "expired" in notices[0]["text"]


def test_the_expiry_notice_speaks_the_seekers_language(ana, told):
    ana.language = "de"
    ana.save()
    seeks.seek(ana, game="saichugen", pace="normal")
    seeks.expire_seeks(timezone.now() + timedelta(seconds=601))
    (notice,) = [m for m in told.to(ana) if m["type"] == "notice"]
    assert notice["text"]  # translated once the catalogue has it; never empty


def test_cancel_is_for_the_seeker_and_only_while_open(ana, ben, cleo):
    mine = seeks.seek(ana, game="saichugen", pace="normal")
    with pytest.raises(LobbyError) as err:
        seeks.cancel(ben, mine.id)
    assert err.value.status == 404
    assert seeks.cancel(ana, mine.id).status == "cancelled"
    with pytest.raises(LobbyError) as err:
        seeks.cancel(ana, mine.id)
    assert err.value.status == 409
    seeks.seek(ana, game="saichugen", pace="normal")
    seeks.seek(ben, game="saichugen", pace="normal")
    matched = seeks.seek(cleo, game="saichugen", pace="normal")
    with pytest.raises(LobbyError) as err:
        seeks.cancel(cleo, matched.id)
    assert err.value.status == 409


@pytest.mark.parametrize(
    "bad",
    [
        {"game": "chess"},
        {"game": None},
        {"game": "saichugen", "pace": "blitz"},
        {"game": "saichugen", "pace": 45},
        {"game": "saichugen", "bots_after": 45},
        {"game": "saichugen", "bots_after": True},
        {"game": "saichugen", "rated": "yes"},
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(ana, bad):
    before = seeks.seek(ana, game="mediatore", pace="normal")
    with pytest.raises(LobbyError) as err:
        seeks.seek(ana, **bad)
    assert err.value.status == 400 and err.value.detail
    before.refresh_from_db()
    assert before.status == "open" and Seek.objects.count() == 1


def test_anonymous_cannot_seek():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(LobbyError) as err:
        seeks.seek(AnonymousUser(), game="saichugen")
    assert err.value.status == 403
    assert not Seek.objects.exists()


def test_six_seekers_make_two_tables_and_nobody_sits_twice():
    people = [make_user(f"p{n}") for n in range(6)]
    for person in people:
        seeks.seek(person, game="schieberamsch", pace="normal")
    tables = Table.objects.all()
    assert tables.count() == 2
    users = list(Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True))
    assert sorted(users) == sorted(p.pk for p in people)


def test_the_group_is_pure_and_takes_the_oldest():
    now = timezone.now()

    def s(n: int, wait: int | None) -> Seek:
        return Seek(id=str(n), created_at=now - timedelta(seconds=100 - n), bots_after=wait)

    pool = [s(1, None), s(2, 30), s(3, None), s(4, 60)]
    assert [x.id for x in seeks.group_to_seat(pool, 3, now)] == ["1", "2", "3"]
    assert [x.id for x in seeks.group_to_seat(pool[:2], 3, now)] == ["2"]
    assert seeks.group_to_seat(pool[:1], 3, now) == []
    assert [x.id for x in seeks.group_to_seat([pool[1], pool[3]], 4, now)] == ["2", "4"]
