"""Game analysis over HTTP: who may ask, the throttle, the cached result on the replay page,
re-queueing a failed job, the player page's accuracy, and constant query counts."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gameplay.models import Seat, TableAnalysis
from league.models import Player
from tests.gameplay.conftest import make_table, make_users
from tests.replay.conftest import play_out

JSON = {"HTTP_ACCEPT": "application/json"}


def url(table) -> str:
    return reverse("gameplay:table_analysis", args=[table.id])


def config(client, table) -> dict:
    return config_of(client.get(reverse("gameplay:replay", args=[table.id])).content.decode())


def config_of(html: str) -> dict:
    start = html.index('<script id="table-config" type="application/json">')
    return json.loads(html[start:].split(">", 1)[1].split("</script>", 1)[0])


def ask(client, table, capture):
    with capture(execute=True):  # the job is queued once the request's transaction commits
        return client.post(url(table), **JSON)


def queries(client, address: str) -> int:
    """The queries of one GET (the log cleared first: a long test fills Django's deque)."""
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as done:
        assert client.get(address).status_code == 200
    return len(done.captured_queries)


@pytest.fixture
def people():
    return make_users("ana", "ben", "cleo")


def finished(people, game="schieberamsch", public=True, seed=1):
    return play_out(make_table(game, people=people, allow_spectators=public), seed=seed)


@pytest.mark.django_db
def test_a_player_asks_and_everyone_who_may_watch_sees_the_result(
    client, people, django_capture_on_commit_callbacks
):
    table = finished(people, public=False)
    client.force_login(people[0])
    assert client.get(url(table)).json() == {"status": "none", "may_request": True}
    response = ask(client, table, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    row = TableAnalysis.objects.get(table=table)
    assert row.status == "done" and row.requested_by == people[0]
    result = client.get(url(table)).json()["result"]
    assert set(result["players"]) == {"0", "1", "2"}  # every person's seat is judged
    for entry in result["decisions"]:
        assert entry["loss"] >= 0
        if entry["mark"]:
            assert any("cards" in p or "text" in p for p in entry["best_label"])
    # Cached: another player reads the same result and is not offered to ask again.
    client.force_login(people[1])
    again = config(client, table)["analysis"]
    assert again["status"] == "done" and again["may_request"] is False
    assert again["result"]["decisions"] == result["decisions"]
    # The page is never kept by the browser: Back and Forward show the state as it is now.
    page = client.get(reverse("gameplay:replay", args=[table.id]))
    assert "no-store" in page["Cache-Control"]
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    assert TableAnalysis.objects.get(table=table).requested_by == people[0]


@pytest.mark.django_db
def test_who_may_ask(client, people, django_capture_on_commit_callbacks):
    private = finished(people, public=False)
    public = finished(make_users("dora", "emil", "fritz"), public=True)
    # Nobody signed in: may watch the public replay, may not ask.
    assert client.get(url(public)).json()["may_request"] is False
    assert ask(client, public, django_capture_on_commit_callbacks).status_code == 403
    (olga,) = make_users("olga")
    client.force_login(olga)
    # A stranger: not the private table (no replay at all), but the public one.
    assert ask(client, private, django_capture_on_commit_callbacks).status_code == 404
    assert ask(client, public, django_capture_on_commit_callbacks).status_code == 202
    assert not TableAnalysis.objects.filter(table=private).exists()
    # An unfinished table has nothing to analyse.
    playing = make_table("mediatore", people=[*people, olga])
    assert ask(client, playing, django_capture_on_commit_callbacks).status_code == 404


@pytest.mark.django_db
def test_the_throttle_counts_per_account(
    client, people, settings, django_capture_on_commit_callbacks
):
    settings.GAMEPLAY_ANALYSIS_PER_HOUR = 2
    tables = [finished(people, seed=s) for s in (1, 2, 3)]
    client.force_login(people[0])
    assert ask(client, tables[0], django_capture_on_commit_callbacks).status_code == 202
    assert ask(client, tables[1], django_capture_on_commit_callbacks).status_code == 202
    # A done analysis is shown again without counting; a new one is refused, clearly.
    assert ask(client, tables[0], django_capture_on_commit_callbacks).status_code == 202
    refused = ask(client, tables[2], django_capture_on_commit_callbacks)
    assert refused.status_code == 429
    assert "2 analyses in the last hour" in refused.json()["detail"]
    form = client.post(url(tables[2]))  # the page's form without JavaScript
    assert form.status_code == 429 and b"try again later" in form.content
    page = form.content.decode()  # a page of the site, with the way back to the replay
    assert "<header" in page and "text/html" in form["Content-Type"]
    assert f'href="{reverse("gameplay:replay", args=[tables[2].id])}"' in page
    assert not TableAnalysis.objects.filter(table=tables[2]).exists()
    # Another account has its own allowance.
    client.force_login(people[1])
    assert ask(client, tables[2], django_capture_on_commit_callbacks).status_code == 202


@pytest.mark.django_db
def test_a_failed_job_may_be_asked_for_again(
    client, people, monkeypatch, django_capture_on_commit_callbacks
):
    from gameplay.services import analysis

    table = finished(people)
    client.force_login(people[0])

    def broken(work):
        raise RuntimeError("the evaluator broke")

    monkeypatch.setattr(analysis, "compute", broken)
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    state = client.get(url(table)).json()
    assert state["status"] == "failed" and state["may_request"] is True
    monkeypatch.undo()
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    assert client.get(url(table)).json()["status"] == "done"


@pytest.mark.django_db
def test_the_form_without_javascript_goes_back_to_the_replay(
    client, people, django_capture_on_commit_callbacks
):
    table = finished(people)
    client.force_login(people[0])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(table))
    assert response.status_code == 302
    assert response["Location"] == reverse("gameplay:replay", args=[table.id])


@pytest.mark.django_db
def test_the_player_page_shows_accuracy_per_game(
    client, people, django_capture_on_commit_callbacks
):
    player = Player.objects.create(name="ana", user=people[0])
    page = reverse("league:player", args=[player.pk])
    assert 'id="accuracy"' not in client.get(page).content.decode()
    client.force_login(people[0])
    tables = [finished(people, seed=s) for s in (1, 2)]
    hidden = finished(people, public=False, seed=3)  # a private table's accuracy is not shown
    for table in (*tables, hidden):
        assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    html = client.get(page).content.decode()
    assert 'id="accuracy"' in html
    for table in tables:
        accuracy = TableAnalysis.objects.get(table=table).summary["0"]["accuracy"]
        assert f'data-accuracy-table="{table.id}"' in html
        assert f"{accuracy:.1f} %" in html
    assert f'data-accuracy-table="{hidden.id}"' not in html
    # The page's queries do not grow with the games analysed.
    before = queries(client, page)
    more = finished(people, seed=4)
    ask(client, more, django_capture_on_commit_callbacks)
    assert queries(client, page) == before


@pytest.mark.django_db
def test_the_replay_page_and_the_state_take_a_constant_number_of_queries(
    client, people, django_capture_on_commit_callbacks
):
    client.force_login(people[0])
    short = finished(people, seed=1)
    long = play_out(make_table("schieberamsch", people=people, n_deals=3, allow_spectators=True))
    counts = []
    for table in (short, long):
        ask(client, table, django_capture_on_commit_callbacks)
        page = reverse("gameplay:replay", args=[table.id])
        counts.append((queries(client, page), queries(client, url(table))))
    assert counts[0] == counts[1]
    assert counts[0][0] <= 9 and counts[0][1] <= 6


@pytest.mark.django_db
def test_the_job_never_runs_in_the_request(
    client, people, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from celery import current_app

    from gameplay import queue
    from gameplay.services import analysis

    table = finished(people)
    client.force_login(people[0])
    # Embedded (eager Celery): handed to the worker beside the server, the request returns.
    settings.GAMEPLAY_ANALYSIS_BESIDE = True
    beside, sent = [], []
    monkeypatch.setattr(analysis.analysts, "run_beside", lambda t, job, store: beside.append(t))
    response = ask(client, table, django_capture_on_commit_callbacks)
    assert response.status_code == 202 and response.json()["status"] == "queued"
    assert beside == [table.id]
    # With a broker: a task of the bots queue, by name.
    TableAnalysis.objects.filter(table=table).update(status="failed")
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(queue, "send", lambda name, *args, **kw: sent.append((name, args)))
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    assert sent == [(queue.ANALYSE_TABLE, (table.id,))]
    assert settings.CELERY_TASK_ROUTES[queue.ANALYSE_TABLE] == {"queue": "bots"}
    # The task itself (what a worker of the bots queue runs) claims, evaluates and keeps it.
    from gameplay.tasks import analyse_table

    assert analyse_table(table.id) is True
    assert TableAnalysis.objects.get(table=table).status == "done"
    assert analyse_table(table.id) is False  # done: nothing queued to claim


@pytest.mark.django_db
def test_who_may_not_ask_sees_no_empty_box(client, people):
    public = finished(people, public=True)
    private = finished(make_users("dora", "emil", "fritz"), public=False)
    replay = reverse("gameplay:replay", args=[public.id])
    # A visitor of a public table: one line that says how to ask.
    html = client.get(replay).content.decode()
    assert 'id="analysis-hint"' in html and "Log in to ask for an analysis." in html
    assert '<section id="analysis" class="analysis" aria-label="Analysis">' in html
    # Signed in, a player: the button, no hint.
    client.force_login(people[0])
    html = client.get(replay).content.decode()
    assert 'id="analysis-hint"' not in html and 'id="analyse"' in html
    # A private table's replay (by a seat's link) for an account not at it: no box at all.
    token = Seat.objects.get(table=private, number=0).token
    address = reverse("gameplay:replay", args=[private.id]) + f"?token={token}"
    response = client.get(address)
    assert response.status_code == 200
    html = response.content.decode()
    assert config_of(html)["analysis"]["may_request"] is False
    assert '<section id="analysis" class="analysis" aria-label="Analysis" hidden>' in html


@pytest.mark.django_db
def test_one_accuracy_format_on_the_replay_and_the_player_page(
    client, people, django_capture_on_commit_callbacks
):
    player = Player.objects.create(name="ana", user=people[0])
    table = finished(people)
    client.force_login(people[0])
    assert ask(client, table, django_capture_on_commit_callbacks).status_code == 202
    accuracy = TableAnalysis.objects.get(table=table).summary["0"]["accuracy"]
    shown = client.get(url(table)).json()["result"]["players"]["0"]["accuracy_text"]
    assert shown == f"{accuracy:.1f} %"
    html = client.get(reverse("league:player", args=[player.pk])).content.decode()
    assert f'<td class="nowrap">{accuracy:.1f} %</td>' in html  # never broken across lines
