"""A seek lives while its seeker reads it (docs/lobby.md, "A seek lives while its seeker reads
it"): a closed browser is never seated at a table, nor listed, nor keeps a pool waiting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.models import Seek, Table
from gameplay.services import seeks

pytestmark = pytest.mark.django_db


def _left(seek: Seek, seconds: int) -> None:
    """As if its seeker's last read was `seconds` ago."""
    Seek.objects.filter(pk=seek.pk).update(seen_at=timezone.now() - timedelta(seconds=seconds))


def test_a_seek_nobody_reads_is_not_seated_with_people(ana, ben, cleo):
    gone = seeks.seek(ana, game="saichugen", pace="normal")
    _left(gone, seeks.seek_idle() + 1)
    seeks.seek(ben, game="saichugen", pace="normal")
    third = seeks.seek(cleo, game="saichugen", pace="normal")
    assert third.status == "open" and Table.objects.count() == 0
    assert seeks.waiting_in_pool(third) == 2  # the two who are there


def test_a_seek_nobody_reads_is_not_listed_and_the_sweep_closes_it_quietly(ana, ben, told):
    gone = seeks.seek(ana, game="saichugen", pace="normal")
    here = seeks.seek(ben, game="saichugen", pace="normal")
    _left(gone, seeks.seek_idle() + 1)
    assert [s.pk for s in seeks.open_seeks()] == [here.pk]
    seeks.sweep()
    gone.refresh_from_db()
    here.refresh_from_db()
    assert gone.status == "lapsed" and gone.closed_at is not None
    assert here.status == "open"
    assert not [m for m in told.to(ana) if m["type"] == "notice"]  # nobody there to read it


def test_reading_ones_seek_keeps_it_alive(ana, ben, cleo):
    mine = seeks.seek(ana, game="saichugen", pace="normal")
    _left(mine, seeks.seek_idle() - 5)
    seeks.readable_seek(ana, mine.id)  # the waiting panel's poll
    seeks.sweep(timezone.now() + timedelta(seconds=10))
    mine.refresh_from_db()
    assert mine.status == "open"
    seeks.seek(ben, game="saichugen", pace="normal")
    seeks.seek(cleo, game="saichugen", pace="normal")
    mine.refresh_from_db()
    assert mine.status == "matched"


def test_a_read_after_the_seek_lapsed_does_not_revive_it(ana):
    mine = seeks.seek(ana, game="saichugen", pace="normal")
    _left(mine, seeks.seek_idle() + 1)
    read = seeks.readable_seek(ana, mine.id)
    assert read.status == "lapsed"  # the panel reloads and offers the seek form again


def test_a_bot_wait_does_not_seat_a_seeker_who_left(ana):
    mine = seeks.seek(ana, game="saichugen", pace="normal", bots_after=30)
    _left(mine, seeks.seek_idle() + 1)
    Seek.objects.filter(pk=mine.pk).update(created_at=timezone.now() - timedelta(seconds=120))
    assert seeks.sweep() == 0
    mine.refresh_from_db()
    assert mine.status == "lapsed" and Table.objects.count() == 0
