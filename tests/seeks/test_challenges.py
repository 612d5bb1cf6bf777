"""Challenges by name: the whole life (made, told, accepted or declined, withdrawn, expired),
who may do what, and that a refusal changes nothing (gameplay/services/challenges.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.guests import create_guest
from gameplay.models import Challenge, Seat, Table
from gameplay.services import challenges
from gameplay.services.lobby import LobbyError

pytestmark = pytest.mark.django_db


def refused(status: int, call, *args, **kwargs) -> str:
    with pytest.raises(LobbyError) as err:
        call(*args, **kwargs)
    assert err.value.status == status, err.value.detail
    return err.value.detail


def test_a_challenge_by_name_in_any_case_is_told_and_accepted(ana, ben, told):
    ch = challenges.challenge(ana, player="BEN", game="saichugen", pace="fast")
    assert ch.challenged == ben and ch.status == "pending" and ch.seconds_per_move == 20
    (message,) = told.to(ben)
    assert message == {
        "type": "challenge",
        "challenge": ch.id,
        "by": "ana",
        "game": "saichugen",
        "pace": "fast",
        "url": "/play/#challenges",
    }
    assert [c.id for c in challenges.incoming(ben)] == [ch.id]
    assert list(challenges.incoming(ana)) == []
    done = challenges.accept(ben, ch.id)
    table = done.table
    assert done.status == "accepted" and table.status == "playing" and table.rated
    seats = Seat.objects.filter(table=table)
    assert {s.user_id for s in seats if s.user_id} == {ana.pk, ben.pk}
    assert [s.bot_level for s in seats if s.bot] == ["basic"]
    started = {"type": "table_started", "table": table.id, "url": f"/tables/{table.id}/"}
    assert started in told.to(ana) and started in told.to(ben)
    assert list(challenges.incoming(ben)) == []


def test_accepting_without_bots_makes_a_waiting_table_for_the_others(ana, ben, cleo, told):
    ch = challenges.challenge(ana, player="ben", game="mediatore", rated=False, bots=False)
    table = challenges.accept(ben, ch.id).table
    assert table.status == "waiting" and not table.rated
    seats = list(Seat.objects.filter(table=table))
    assert len([s for s in seats if s.is_open]) == 2
    (notice,) = [m for m in told.to(ana) if m["type"] == "notice"]
    assert notice["url"] == f"/tables/{table.id}/" and "ben" in notice["text"]


def test_declining_tells_the_challenger(ana, ben, told):
    ch = challenges.challenge(ana, player="ben", game="three_five_eight")
    assert challenges.decline(ben, ch.id).status == "declined"
    notices = [m for m in told.to(ana) if m["type"] == "notice"]
    assert len(notices) == 1 and "ben" in notices[0]["text"]
    assert not Table.objects.exists()
    refused(409, challenges.accept, ben, ch.id)


def test_only_the_challenged_answers_and_only_the_challenger_withdraws(ana, ben, cleo):
    ch = challenges.challenge(ana, player="ben", game="saichugen")
    refused(403, challenges.accept, ana, ch.id)
    refused(403, challenges.decline, ana, ch.id)
    refused(404, challenges.accept, cleo, ch.id)
    refused(404, challenges.withdraw, cleo, ch.id)
    refused(403, challenges.withdraw, ben, ch.id)
    assert challenges.withdraw(ana, ch.id).status == "withdrawn"
    refused(409, challenges.accept, ben, ch.id)
    assert not Table.objects.exists()


def test_a_challenge_expires_and_the_challenger_is_told(ana, ben, told):
    ch = challenges.challenge(ana, player="ben", game="saichugen")
    assert challenges.expire_challenges(timezone.now() + timedelta(seconds=599)) == 0
    Challenge.objects.filter(pk=ch.pk).update(created_at=timezone.now() - timedelta(seconds=601))
    refused(409, challenges.accept, ben, ch.id)  # too late, even before the sweep
    assert challenges.expire_challenges() == 1
    ch.refresh_from_db()
    assert ch.status == "expired"
    assert any(m["type"] == "notice" for m in told.to(ana))
    assert not Table.objects.exists()


def test_who_cannot_be_challenged(ana, ben):
    bot = get_user_model().objects.create_user(username="robo", is_bot_account=True)
    refused(400, challenges.challenge, ana, player="ana", game="saichugen")
    refused(400, challenges.challenge, ana, player="Robo", game="saichugen")
    refused(404, challenges.challenge, ana, player="nobody", game="saichugen")
    refused(404, challenges.challenge, ana, player="Basic bot 1", game="saichugen")
    refused(400, challenges.challenge, ana, player="  ", game="saichugen")
    refused(400, challenges.challenge, ana, player="ben", game="chess")
    refused(400, challenges.challenge, ana, player="ben", game="saichugen", pace="slow")
    refused(400, challenges.challenge, ana, player="ben", game="saichugen", bots="no")
    assert bot.pk and not Challenge.objects.exists()


def test_a_guest_is_met_by_quick_pairing_not_by_name(ana):
    guest = create_guest("203.0.113.9")
    detail = refused(400, challenges.challenge, ana, player=guest.get_username(), game="saichugen")
    assert "guest" in detail
    assert not Challenge.objects.exists()


def test_one_pending_challenge_between_two_people(ana, ben):
    challenges.challenge(ana, player="ben", game="saichugen")
    detail = refused(409, challenges.challenge, ana, player="ben", game="mediatore")
    assert "ben" in detail
    assert Challenge.objects.count() == 1
    challenges.challenge(ben, player="ana", game="saichugen")  # the other way round is a new one


def test_lists_show_both_directions_to_their_people_only(ana, ben, cleo):
    sent = challenges.challenge(ana, player="ben", game="saichugen")
    got = challenges.challenge(cleo, player="ana", game="saichugen")
    assert {c.id for c in challenges.my_challenges(ana)} == {sent.id, got.id}
    assert [c.id for c in challenges.my_challenges(ben)] == [sent.id]
    entry = challenges.entry(got, ana)
    assert entry["incoming"] and entry["challenger"] == "cleo" and entry["table"] is None
    refused(404, challenges.readable_challenge, ben, got.id)
