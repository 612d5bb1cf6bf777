"""What the lobby says live, and to whom: a table that starts tells every person seated at it;
a rematch offer goes to the players it waits for; a decline cancels the rematch and tells its
other players. Sent after commit only, never on a rollback, never with a seat token."""

from __future__ import annotations

import pytest
from django.db import transaction

from gameplay.models import Table
from gameplay.services import live, lobby

from .conftest import groups_of, no_token_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_seat_taken_tells_every_person_seated_that_the_table_started(
    sent, ana, ben, cleo, olga
):
    table = lobby.create_friendly(ana, game="saichugen").table
    lobby.join(ben, table.id)
    assert sent == []  # still waiting: nothing started
    lobby.join(cleo, table.id)
    [(groups, message)] = sent
    assert sorted(groups) == sorted(groups_of(ana, ben, cleo))  # not olga, who only looks
    assert message == {"type": "table_started", "table": table.id, "url": f"/tables/{table.id}/"}
    assert no_token_in(message)


def test_a_table_that_starts_with_bots_in_every_other_seat_tells_its_person(sent, ana, ben):
    table = lobby.create_friendly(ana, game="saichugen", bots=1).table
    lobby.join(ben, table.id)
    [(groups, message)] = sent
    assert sorted(groups) == sorted(groups_of(ana, ben))
    assert message["type"] == "table_started"


def test_nothing_is_sent_when_the_write_rolls_back(sent, ana):
    def write_then_fail() -> None:
        with transaction.atomic():
            live.to_user(ana.pk, {"type": "notice", "text": "never"})
            live.to_lobby({"type": "notice", "text": "never"})
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        write_then_fail()
    assert sent == []
    live.to_user(ana.pk, {"type": "notice", "text": "now"})  # outside a transaction: at once
    assert sent == [(groups_of(ana), {"type": "notice", "text": "now"})]


def test_a_refused_join_announces_nothing(sent, ana, ben, cleo, olga):
    table = lobby.create_friendly(ana, game="saichugen").table
    lobby.join(ben, table.id)
    lobby.join(cleo, table.id)
    sent.clear()
    with pytest.raises(lobby.LobbyError):
        lobby.join(olga, table.id)
    assert sent == []


def test_a_rematch_offer_goes_to_the_other_players_only(sent, finished, ana, ben, cleo):
    sent.clear()  # the finished table's own start
    new = lobby.rematch(ben, finished.id).table
    [(groups, message)] = sent
    assert sorted(groups) == sorted(groups_of(ana, cleo))
    assert message == {
        "type": "rematch_offered",
        "table": new.id,
        "of": finished.id,
        "by": "ben",
        "url": f"/tables/{new.id}/join/",
    }
    assert no_token_in(message)
    # Accepting is joining; the last one in starts it, and everyone is told to go there.
    sent.clear()
    lobby.join(ana, new.id)
    assert sent == []
    lobby.rematch(cleo, finished.id)  # her own Rematch joins the same table
    [(groups, message)] = sent
    assert sorted(groups) == sorted(groups_of(ana, ben, cleo))
    assert message["type"] == "table_started" and message["table"] == new.id


def test_declining_cancels_the_rematch_and_tells_its_other_players(sent, finished, ana, ben, cleo):
    new = lobby.rematch(ana, finished.id).table
    lobby.join(ben, new.id)
    sent.clear()
    lobby.decline_rematch(cleo, new.id)
    new.refresh_from_db()
    assert new.status == Table.Status.CANCELLED
    [(groups, message)] = sent
    assert sorted(groups) == sorted(groups_of(ana, ben))
    assert message == {
        "type": "rematch_declined",
        "table": new.id,
        "of": finished.id,
        "by": "cleo",
        "url": f"/tables/{finished.id}/",
    }
    # The cancelled one makes room: a rematch may be offered again.
    again = lobby.rematch(cleo, finished.id).table
    assert again.id != new.id and again.status == Table.Status.WAITING


def test_a_decline_is_refused_to_strangers_and_for_tables_that_are_not_waiting_rematches(
    sent, finished, ana, ben, cleo, olga
):
    new = lobby.rematch(ana, finished.id).table
    sent.clear()
    for user, table_id, status in (
        (olga, new.id, 403),  # not one of its players
        (ana, finished.id, 409),  # the finished table itself is no rematch
        (ana, "no-such-table", 404),
    ):
        with pytest.raises(lobby.LobbyError) as refused:
            lobby.decline_rematch(user, table_id)
        assert refused.value.status == status
    lobby.join(ben, new.id)
    lobby.join(cleo, new.id)  # started
    sent.clear()
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.decline_rematch(ben, new.id)
    assert refused.value.status == 409
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING and sent == []
