"""The turn-based paces: offered where a table is made to play with people one chooses (the
lobby's create form and API, challenges), never by Play now or seeks; they wait longer."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gameplay import paces
from gameplay.lobby_forms import CreateTableForm
from gameplay.meeting_forms import ChallengeForm, SeekForm
from gameplay.models import Challenge, Table
from gameplay.services import challenges, lobby, seeks
from gameplay.services.lobby import LobbyError

from .conftest import at


def test_the_registry_and_the_words():
    assert [p.name for p in paces.turn_based_paces()] == ["1-day", "2-days", "3-days", "7-days"]
    assert all(p.turn_based for p in paces.turn_based_paces())
    assert not any(p.turn_based for p in paces.live_paces())
    assert paces.describe("2-days", 2 * 86400) == "2 days a move"
    assert paces.describe("", 5 * 86400) == "5 days a move"
    assert paces.describe("fast", 20) == "Fast · 20 s a move"
    assert paces.pace_of_seconds(7 * 86400) == "7-days"


def test_the_forms_offer_them_where_people_choose_each_other():
    def names(form, field="pace"):
        return [value for value, _ in form.fields[field].choices]

    assert "2-days" in names(CreateTableForm()) and "2-days" in names(ChallengeForm())
    assert "2-days" not in names(SeekForm())


def test_a_friendly_table_by_the_day(people, clock, quick_tables):
    made = lobby.create_friendly(people[0], game="saichugen", pace="7-days", bots=2, rated=False)
    table = made.table
    assert (table.pace, table.seconds_per_move, table.connect_grace) == ("7-days", 7 * 86400, 0)
    assert table.deadline == at(7)


def test_a_challenge_by_the_day_waits_a_week_for_its_answer(people, clock, settings):
    settings.CHALLENGE_EXPIRY = 600
    ana = people[0]
    made = challenges.challenge(ana, player="ben", game="saichugen", pace="3-days", rated=False)
    assert (made.pace, made.seconds_per_move) == ("3-days", 3 * 86400)
    clock.move_to(at(1))
    assert challenges.expire_challenges() == 0
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.PENDING
    clock.move_to(at(7) + timedelta(minutes=1))
    assert challenges.expire_challenges() == 1


def test_a_seek_by_the_day_is_refused_naming_the_live_paces(people):
    with pytest.raises(LobbyError) as refused:
        seeks.seek(people[0], game="saichugen", pace="1-day")
    assert refused.value.status == 400
    assert refused.value.detail == "pace must be one of: relaxed, normal, fast."


def test_a_waiting_table_by_the_day_waits_a_week(people, clock, settings):
    settings.LOBBY_WAITING_EXPIRY = 1800
    made = lobby.create_friendly(people[0], game="saichugen", pace="1-day", rated=False)
    live = lobby.create_friendly(people[1], game="saichugen", pace="fast", rated=False)
    clock.move_to(at(1))
    assert lobby.expire_waiting() == 1
    assert Table.objects.get(pk=live.table.id).status == Table.Status.CANCELLED
    assert Table.objects.get(pk=made.table.id).status == Table.Status.WAITING
    clock.move_to(at(7.1))
    assert lobby.expire_waiting() == 1


def test_play_now_against_bots_stays_live(people, quick_tables):
    with pytest.raises(LobbyError) as refused:
        lobby.play_now(people[0], "saichugen", pace="2-days")
    assert refused.value.status == 400
    assert not Table.objects.exists()


def test_a_challenge_by_the_day_reaches_the_absent_by_a_notice_once(people, clock, mailoutbox):
    from league.models import Notice

    ana, ben = people[0], people[1]
    ben.email = "ben@example.org"
    ben.save()
    made = challenges.challenge(ana, player="ben", game="saichugen", pace="2-days")
    (notice,) = Notice.objects.filter(user=ben, kind="challenge")
    assert notice.url == "/play/#challenges" and notice.key == f"challenge:{made.pk}"
    assert not Notice.objects.filter(user=ana, kind="challenge").exists()
    (mail,) = [m for m in mailoutbox if ben.email in m.to]
    assert "ana" in mail.subject and "2 days a move" in mail.body and "Saichugen" in mail.body


def test_a_live_challenge_is_told_live_only(people, clock):
    from league.models import Notice

    challenges.challenge(people[0], player="ben", game="saichugen", pace="fast")
    assert not Notice.objects.filter(kind="challenge").exists()
