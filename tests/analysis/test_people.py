"""Whose decisions the analysis judges: a person's own (before a resignation too), never the
moves a bot played for them after it; a table without one is answered at once, unthrottled."""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse

from gameplay.models import Action, Table, TableAnalysis
from gameplay.services import lobby, matches, play
from games.analysis import has_choice
from games.core.bots.common import expand_random
from league.models import Player
from tests.gameplay.conftest import make_table, make_users
from tests.replay.conftest import play_out

JSON = {"HTTP_ACCEPT": "application/json"}


def url(table) -> str:
    return reverse("gameplay:table_analysis", args=[table.id])


def config(client, table) -> dict:
    html = client.get(reverse("gameplay:replay", args=[table.id])).content.decode()
    start = html.index('<script id="table-config" type="application/json">')
    return json.loads(html[start:].split(">", 1)[1].split("</script>", 1)[0])


def resigning(table: Table, person, after: int, seed: int = 1) -> list[int]:
    """Play the table out at random; seat 0's person resigns before their decision number
    `after` (with a choice) and a bot plays the seat on. The record's places of the person's
    decisions."""
    rng = random.Random(seed)
    mine: list[int] = []
    resigned = False
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return mine
        match = matches.load_match(table)
        seat = match.to_act()[0]
        legal = match.legal(seat)
        if seat == 0 and not resigned and has_choice(legal) and len(mine) == after:
            lobby.leave(person, table.id)
            resigned = True
            continue
        person_plays = seat != 0 or not resigned
        if seat == 0 and person_plays:
            mine.append(table.seq)  # the record's place of the action about to be played
        kind = Action.Kind.PLAYER if person_plays else Action.Kind.BOT
        play.play_action(
            table.id, seat, expand_random(rng.choice(legal), rng), table.seq, kind=kind
        )


@pytest.mark.django_db
def test_the_decisions_before_a_resignation_are_judged_not_the_bots_after(
    client, django_capture_on_commit_callbacks
):
    people = make_users("ana", "ben", "cleo")
    table = make_table("schieberamsch", people=people, allow_spectators=True)
    mine = resigning(table, people[0], after=4)
    assert Action.objects.filter(table=table, seat=0, kind=Action.Kind.BOT).exists()
    client.force_login(people[0])
    assert config(client, table)["analysis"]["may_request"] is True
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url(table), **JSON).status_code == 202
    result = client.get(url(table)).json()["result"]
    assert "0" in result["players"]  # the resigned person's seat is judged
    places = {
        sum(len(d["actions"]) for d in table.record["deals"][: e["deal"]]) + e["index"]
        for e in result["decisions"]
        if e["seat"] == 0
    }
    assert places and places <= set(mine)  # theirs, before resigning; none of the bot's
    # No "with all cards open" line for the seat the bot played out: its end was the bot's.
    assert result["deals"][0]["seats"]["0"]["dd"] is None
    # The player page counts the resigned seat's accuracy as theirs.
    player = Player.objects.create(name="ana", user=people[0])
    html = client.get(reverse("league:player", args=[player.pk])).content.decode()
    assert f'data-accuracy-table="{table.id}"' in html


@pytest.mark.django_db
def test_a_table_without_a_persons_decision_is_not_offered_and_uses_no_quota(
    client, settings, django_capture_on_commit_callbacks
):
    settings.GAMEPLAY_ANALYSIS_PER_HOUR = 1
    (ana,) = make_users("ana")
    empty = make_table("schieberamsch", people=[ana], bots=["b1", "b2"], allow_spectators=True)
    assert resigning(empty, ana, after=0) == []  # resigned at their first decision
    client.force_login(ana)
    offered = config(client, empty)["analysis"]
    assert offered["may_request"] is False and offered["nothing"] is True
    html = client.get(reverse("gameplay:replay", args=[empty.id])).content.decode()
    assert "Nothing to analyse" in html  # said at once, not an empty box
    assert '<section id="analysis" class="analysis" aria-label="Analysis">' in html  # shown
    # Asked anyway (an old page): answered at once, nothing queued, the quota untouched.
    with django_capture_on_commit_callbacks(execute=True) as sent:
        answer = client.post(url(empty), **JSON)
    assert answer.status_code == 200 and not sent
    assert answer.json()["nothing"] is True and "result" not in answer.json()
    assert TableAnalysis.objects.get(table=empty).requested_by is None
    real = play_out(make_table("schieberamsch", people=make_users("ben", "cleo", "dora")))
    real.allow_spectators = True
    real.save(update_fields=["allow_spectators"])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url(real), **JSON).status_code == 202  # the one allowed this hour
