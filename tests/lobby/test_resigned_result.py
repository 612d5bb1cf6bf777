"""A resigned seat at the end of a match: it is never a winner, the result says it resigned (not
"forfeited on time"), the states say so while the bot plays it out, and My games tags it.
A clock forfeit says which seat timed out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from gameplay.models import Table
from gameplay.runtime.cache import Snapshot
from gameplay.services import clocks, matches, payloads
from gameplay.services.outcome import forfeit_result, winners_without

from .conftest import create, join, leave, play_out


def engine_result(winners: list[int], payouts: list[int], complete: bool = True) -> dict:
    return {
        "game": "saichugen",
        "complete": complete,
        "deals": [{"dealer": 0, "scores": [0, 0, 0], "payouts": payouts}],
        "totals": {"scores": [0, 0, 0], "payouts": payouts},
        "winners": winners,
    }


# --- the rule, on plain results ------------------------------------------------------------


def test_a_resigner_who_topped_the_table_is_not_a_winner_the_best_other_seat_is():
    result = forfeit_result(engine_result([1], [-2, 5, -3]), [1], resigned=[1])
    assert result["winners"] == [0]
    assert result["forfeited"] == [1] and result["resigned"] == [1]
    assert "timed_out" not in result


def test_a_shared_win_keeps_the_seats_that_did_not_forfeit():
    result = forfeit_result(engine_result([0, 2], [2, -4, 2]), [2], resigned=[2])
    assert result["winners"] == [0]


def test_when_the_others_tie_below_the_resigner_they_share_the_win():
    assert winners_without(engine_result([0], [4, -2, -2]), [0]) == [1, 2]


def test_an_incomplete_match_has_no_winners_and_nothing_forfeited_changes_nothing():
    assert winners_without(engine_result([], [0, 0, 0], complete=False), [1]) == []
    plain = engine_result([1], [-2, 5, -3])
    assert forfeit_result(plain, []) is plain


def test_the_engine_result_is_not_changed_in_place():
    plain = engine_result([1], [-2, 5, -3])
    forfeit_result(plain, [1], resigned=[1])
    assert plain["winners"] == [1] and "forfeited" not in plain


# --- at a table -------------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_a_table_played_out_after_a_resignation_names_the_resigner_and_never_as_winner(ana, ben):
    made = create(ana, game="saichugen", bots=1, deals=1, rated=False)
    join(ben, made["table"])
    table_id = made["table"]
    leave(ben, table_id)
    # While the bot plays the seat out, every state says the seat was resigned.
    table = Table.objects.get(pk=table_id)
    state = payloads.state_payload(Snapshot.of(table), matches.load_match(table), 0)
    assert state["resigned"] == [1]
    finished = play_out(table_id)
    result = finished.result
    assert result["complete"] is True
    assert result["forfeited"] == [1] and result["resigned"] == [1]
    assert "timed_out" not in result
    assert 1 not in result["winners"] and result["winners"]
    # My games: ben's row says he resigned, never that he won.
    client = Client()
    client.force_login(ben)
    html = client.get("/games/").content.decode()
    assert 'class="tag resigned"' in html
    assert 'class="winner"' not in html
    assert "3 of 3" in html  # a forfeit finishes last, whatever the bot's payout
    # ana's row names ben's seat as resigned among her opponents.
    client.force_login(ana)
    html = client.get("/games/").content.decode()
    assert 'class="tag resigned"' in html


def test_a_state_without_resignations_has_no_resigned_key(ana, ben):
    made = create(ana, game="saichugen", bots=1)
    join(ben, made["table"])
    table = Table.objects.get(pk=made["table"])
    state = payloads.state_payload(Snapshot.of(table), matches.load_match(table), 0)
    assert "resigned" not in state


def test_a_clock_forfeit_names_the_seat_that_timed_out_and_not_as_resigned(ana, ben):
    made = create(ana, game="saichugen", bots=1, seconds_per_move=30)
    join(ben, made["table"])
    table = Table.objects.get(pk=made["table"])
    now = timezone.now()
    Table.objects.filter(pk=table.id).update(deadline=now - timedelta(seconds=1))
    assert clocks.forfeit(table.id, 0, table.seq, now=now) == 1
    table.refresh_from_db()
    assert table.result["forfeited"] == [0] and table.result["timed_out"] == [0]
    assert "resigned" not in table.result
    assert table.result["winners"] == []  # the match stopped before its end
