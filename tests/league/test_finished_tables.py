"""The end of a match is one-way: one receiver, one task, one read, off the move's path."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from gameplay import api as gameplay
from games import catalogue
from league import finished_tables, queue, tasks
from league.models import RatedMatch, Result
from league.services import rounds as round_services
from tests.league.test_online_fixtures import league_of_people, play_people_out

pytestmark = pytest.mark.django_db(transaction=True)


def counting(monkeypatch, name: str, module: object = gameplay) -> list[object]:
    """Count the calls of `<module>.<name>` (the league calls it through that module:
    `gameplay.api` for a table, `games.catalogue` for a record's replay)."""
    calls: list[object] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def online_round(alice):
    event = league_of_people(alice, ["ana", "ben", "cleo", "dario"], leftover="bot")
    round_ = round_services.generate_round(event, by=alice)
    round_services.publish_round(round_, by=alice)
    return list(round_.fixtures.all())


def test_the_league_listens_to_the_end_of_a_match_once():
    league_keys = [
        key[0] for key, *_ in gameplay.match_finished.receivers if str(key[0]).startswith("league")
    ]
    assert league_keys == ["league.match_finished"]


def test_a_fixture_table_is_read_once_and_replayed_once(alice, monkeypatch):
    reads = counting(monkeypatch, "table_result")
    replays = counting(monkeypatch, "score_record", catalogue)
    fixtures = online_round(alice)
    for fixture in fixtures:
        play_people_out(fixture.table_ref)
        assert fixture.results.get(current=True).source == Result.Source.ONLINE
    assert reads == [f.table_ref for f in fixtures]
    assert len(replays) == len(fixtures)


def test_a_friendly_table_is_read_once_and_not_replayed(monkeypatch):
    reads = counting(monkeypatch, "table_result")
    replays = counting(monkeypatch, "score_record", catalogue)
    ref = gameplay.start_table(
        "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=3, rated=True
    )
    assert RatedMatch.objects.get(table_ref=ref).rated_at is not None
    assert reads == [ref]
    assert replays == []


def test_the_final_move_does_not_wait_for_the_league(settings, monkeypatch):
    """Embedded mode: the league's work runs beside the server; here it blocks until released,
    and the move that ended the match (a bot's, on this thread) has returned long before."""
    settings.LEAGUE_EMBEDDED_BESIDE = True
    released = threading.Event()
    real = finished_tables.count_table

    def blocked(table_ref, finished):
        assert released.wait(10), "the test never released the league's work"
        real(table_ref, finished)

    monkeypatch.setattr(finished_tables, "count_table", blocked)
    ref = gameplay.start_table(
        "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=3, rated=True
    )
    assert gameplay.table_result(ref) is not None  # the match is over and acknowledged
    assert not RatedMatch.objects.filter(table_ref=ref).exists()
    released.set()
    queue.settle()
    assert RatedMatch.objects.get(table_ref=ref).rated_at is not None


def test_a_fixture_table_whose_task_was_lost_is_counted_by_the_sweep(alice, monkeypatch):
    monkeypatch.setattr(queue, "finish_table", lambda table_ref: None)  # the process died
    fixture = online_round(alice)[0]
    play_people_out(fixture.table_ref)
    assert not fixture.results.exists()
    assert finished_tables.sweep(grace_seconds=3600) == 0  # too recent: its task may still come
    with time_machine.travel(timezone.now() + timedelta(minutes=2), tick=False):
        tasks.sweep_ratings()  # beat's sweep, a minute or two later
    result = fixture.results.get(current=True)
    assert result.source == Result.Source.ONLINE
    assert finished_tables.sweep(grace_seconds=0) == 0  # counted once
    assert fixture.results.count() == 1
