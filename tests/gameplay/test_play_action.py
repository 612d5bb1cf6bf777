"""The service path: one function applies every action, in the protocol's check order."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gameplay import api
from gameplay.models import Action, Table
from gameplay.runtime import cache, runner
from gameplay.services import clocks, matches, payloads
from gameplay.services.errors import TableError
from gameplay.services.play import play_action
from games import catalogue, registry

from .conftest import current, make_table, make_users, some_legal

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]


@pytest.fixture
def people():
    return make_users("ana", "ben", "cleo")


def test_an_action_advances_seq_and_is_logged(people):
    table = make_table(people=people)
    table, match = current(table)
    seat = match.to_act()[0]
    action = some_legal(match, seat)
    played = play_action(table.id, seat, action, 0, client_id="c-1")
    assert played.applied and played.seq == 1
    table.refresh_from_db()
    assert table.seq == 1
    logged = Action.objects.get(table=table)
    assert (logged.seq, logged.seat, logged.client_id) == (1, seat, "c-1")


def test_checks_answer_in_protocol_order(people):
    table = make_table(people=people)
    table, match = current(table)
    seat = match.to_act()[0]
    other = (seat + 1) % 3
    with pytest.raises(TableError) as forbidden:
        play_action(table.id, None, some_legal(match, seat), 0)
    assert forbidden.value.code == "forbidden"
    # stale wins over not_your_turn and illegal
    with pytest.raises(TableError) as stale:
        play_action(table.id, other, {"act": "nonsense"}, 5)
    assert stale.value.code == "stale"
    # not_your_turn wins over illegal
    with pytest.raises(TableError) as turn:
        play_action(table.id, other, {"act": "nonsense"}, 0)
    assert turn.value.code == "not_your_turn"
    with pytest.raises(TableError) as illegal:
        play_action(table.id, seat, {"act": "trump", "suit": "X"}, 0)
    assert illegal.value.code == "illegal"
    table.refresh_from_db()
    assert table.seq == 0 and not Action.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
def test_a_move_the_cache_knows_is_one_statement_and_without_the_cache_reads_the_row(
    people, match_cache
):
    table = make_table(people=people)
    for n in range(2):  # the first move also reads the seats, once per process
        table, match = current(table)
        seat = match.to_act()[0]
        with CaptureQueriesContext(connection) as queries:
            play_action(table.id, seat, some_legal(match, seat), table.seq, client_id=f"m{n}")
    statements = [q["sql"].split(None, 1)[0] for q in queries.captured_queries]
    # cached: the claim and the log insert, nothing read; else the row, the id, the state
    assert statements == (["WITH"] if match_cache else ["SELECT", "SELECT", "SELECT", "WITH"])


def test_a_retried_id_is_acknowledged_not_applied_again_and_ids_are_per_seat(people):
    table = make_table(game="saichugen", people=people)
    table, match = current(table)
    first = play_action(table.id, 0, some_legal(match, 0), 0, client_id="same")
    again = play_action(table.id, 0, some_legal(match, 0), 0, client_id="same")
    assert first.applied and again.duplicate and not again.applied
    # another seat may use the same id: it is a different action
    table, match = current(table)
    other = play_action(table.id, 1, some_legal(match, 1), 1, client_id="same")
    assert other.applied and other.seq == 2
    assert Action.objects.filter(table=table).count() == 2


def test_a_saichugen_commit_at_an_old_seq_is_stale(people):
    table = make_table(game="saichugen", people=people)
    table, match = current(table)
    play_action(table.id, 0, some_legal(match, 0), 0)
    with pytest.raises(TableError) as stale:
        play_action(table.id, 1, some_legal(match, 1), 0)
    assert stale.value.code == "stale"
    assert play_action(table.id, 1, some_legal(match, 1), 1).applied


def test_a_table_rebuilt_from_its_log_mid_deal_is_identical(people):
    table = make_table(game="three_five_eight", people=people, n_deals=2)
    for _ in range(25):
        table, match = current(table)
        seat = match.to_act()[0]
        play_action(table.id, seat, some_legal(match, seat), table.seq)
    table.refresh_from_db()
    cached = registry.load_match(table.state)
    assert not cached.finished and cached.log[-1][2], "mid-deal"
    cache.forget()  # a restarted server has nothing in memory
    rebuilt = matches.rebuild_match(table)
    assert rebuilt.dump() == cached.dump()
    for seat in (0, 1, 2, None):
        assert payloads.states_since(table.id, seat, -1)[0]["view"] == cached.view(seat)


def test_states_after_a_gap_are_replayed_one_per_seq(people):
    table = make_table(game="saichugen", people=people)
    for _ in range(4):
        table, match = current(table)
        seat = match.to_act()[0]
        play_action(table.id, seat, some_legal(match, seat), table.seq)
    states = payloads.states_since(table.id, 2, 1)
    assert [s["seq"] for s in states] == [2, 3, 4]
    assert all(s["seat"] == 2 and "hand" in s["view"] for s in states)


def test_a_clock_that_expires_with_nobody_connected_is_applied_once(people):
    table = make_table(people=people, seconds_per_move=60)  # 3-5-8: the dealer names trump
    table.refresh_from_db()
    assert table.deadline is not None
    with time_machine.travel(table.deadline + timedelta(seconds=1), tick=False):
        assert clocks.sweep_clocks() == 1
        assert clocks.sweep_clocks() == 0
        assert clocks.apply_timeouts(table.id) == 0
    timeouts = Action.objects.filter(table=table, kind=Action.Kind.TIMEOUT)
    assert timeouts.count() == 1
    table.refresh_from_db()
    assert table.seq == 1
    assert table.deadline > timezone.now(), "the next decision has its own clock"


def test_the_celery_sweeper_task_applies_timeouts(people):
    from gameplay.tasks import sweep_clocks

    table = make_table(game="saichugen", people=people, seconds_per_move=30)
    table.refresh_from_db()
    with time_machine.travel(table.deadline + timedelta(seconds=1), tick=False):
        assert sweep_clocks.delay().get() == 3  # all three seats of the decision
    table.refresh_from_db()
    assert table.seq == 3


def test_a_timeout_may_forfeit_the_match_and_the_league_hears_of_it(people):
    heard = []

    def listener(**kwargs):
        heard.append(kwargs)

    api.match_finished.connect(listener)
    try:
        table = make_table(people=people, seconds_per_move=60, on_timeout="forfeit", rated=True)
        table.refresh_from_db()
        with time_machine.travel(table.deadline + timedelta(seconds=1), tick=False):
            assert clocks.sweep_clocks() == 1
            assert clocks.sweep_clocks() == 0
    finally:
        api.match_finished.disconnect(listener)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.forfeited_seats == [0]
    assert len(heard) == 1
    assert heard[0]["table_ref"] == table.id
    assert heard[0]["rated"] is True
    assert heard[0]["result"]["forfeited"] == [0]
    assert api.table_result(table.id)["forfeited_seats"] == [0]


def test_start_table_seats_people_and_bots_and_reports_the_result(people):
    heard = []

    def listener(**kwargs):
        heard.append(kwargs)

    api.match_finished.connect(listener)
    try:
        ref = api.start_table(
            "three_five_eight", seats=["Bot A", "Bot B", "Bot C"], n_deals=1, seed=3
        )
    finally:
        api.match_finished.disconnect(listener)
    outcome = api.table_result(ref)
    assert outcome is not None
    assert outcome["result"] == catalogue.score_record(outcome["record"])
    assert heard and heard[0]["seats"][0] == {
        "seat": 0,
        "user_id": None,
        "bot": "Bot A",
        "bot_level": "basic",
    }
    with pytest.raises(catalogue.VariantError):
        api.start_table("saichugen", seats=[people[0].pk, "Bot"])
    ref = api.start_table("saichugen", seats=[p.pk for p in people], seconds_per_move=30)
    assert api.table_result(ref) is None


def test_create_table_and_export_record_commands(people):
    out = StringIO()
    call_command(
        "create_table",
        "--game=schieberamsch",
        "--players=ana,newcomer,Robo",
        "--bots=1",
        "--deals=1",
        "--seed=11",
        stdout=out,
    )
    created = json.loads(out.getvalue())
    assert created["url"] == f"/tables/{created['table']}/"
    assert [s["player"] for s in created["seats"]] == ["ana", "newcomer", "Robo"]
    assert all(len(s["token"]) > 20 for s in created["seats"])
    table = Table.objects.get(pk=created["table"])
    assert table.seats.get(number=1).user.username == "newcomer"
    assert table.seats.get(number=2).bot == "Robo"
    out = StringIO()
    call_command("export_record", f"--table={table.id}", stdout=out)
    record = json.loads(out.getvalue())
    assert record["format"] == "mediana.record/1"
    assert record["players"] == ["ana", "newcomer", "Robo"]
    with pytest.raises(CommandError, match="already a person"):
        call_command("create_table", "--game=saichugen", "--players=x,y,ana", "--bots=1")
    with pytest.raises(CommandError, match="no table"):
        call_command("export_record", "--table=nope")


def test_a_restarted_server_requeues_a_due_bot_on_its_first_sweep(people, monkeypatch):
    # Embedded mode: a bot move waits on the server's event loop; a restart loses it. The new
    # process's first sweep (bot_grace=0) re-queues it at once, later sweeps only after the
    # grace period (a bot move queued elsewhere may still be on its way).
    table = make_table(people=people[:2], bots=["bot"])
    queued = []
    monkeypatch.setattr(runner, "schedule_bot", lambda table_id, seq: queued.append(seq))
    Table.objects.filter(pk=table.pk).update(bot_due=timezone.now() - timedelta(seconds=2))
    assert clocks.sweep_clocks() == 0 and queued == []
    clocks.sweep_clocks(bot_grace=0)
    assert queued == [Table.objects.get(pk=table.pk).seq]
