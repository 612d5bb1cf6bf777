"""The end of a deal in the states: `view.last_deal.summary`, made once when the deal ends.

Every receiver (each seat and the spectators) of the state that ends a deal gets the deal's
summary, equal to `Match.deal_summary` and adding up to the record's result for that deal; it
rides along until the next deal's first action (not in every state after it), and no state ever
carries the summary of a deal still being played. Over the real socket too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay.models import Table
from gameplay.runtime import notify
from gameplay.services import matches, play
from games import catalogue, registry
from games.core.bots.common import expand_random
from games.core.records import replay_record
from tests.gameplay.conftest import make_table, make_users, token

GAMES = [g.name for g in registry.games()]
# The spectators' states are checked too, as at a table somebody watches.
pytestmark = pytest.mark.usefixtures("watched")


@pytest.fixture
def sent(monkeypatch):
    """Every state payload the server sent, as (seq, receiver seat, payload)."""
    messages: list[tuple[int, Any, dict]] = []
    real = notify.send_states

    def capture(table_id, seq, payloads, **options):
        for seat, payload in payloads.items():
            messages.append((seq, seat, payload))
        real(table_id, seq, payloads, **options)

    monkeypatch.setattr(notify, "send_states", capture)
    return messages


def bots_table(game: str, n_deals: int = 2, seed: int = 21) -> Table:
    seats = registry.get_game(game).seats
    bots = [f"bot{i}" for i in range(seats)]
    table = make_table(game=game, bots=bots, n_deals=n_deals, seed=seed)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def summary_of(payload: dict) -> dict | None:
    last = payload["view"].get("last_deal")
    return last.get("summary") if last else None


def check_against_record(summary: dict, record: dict) -> None:
    """The summary adds up to the record's result for its deal (scored independently)."""
    scored = catalogue.score_record(record)["deals"][summary["deal"]]
    assert (summary["scores"], summary["payouts"]) == (scored["scores"], scored["payouts"])
    for seat in summary["seats"]:
        s = seat["seat"]
        assert seat["score"]["total"] == scored["scores"][s]
        assert seat["payout"]["total"] == scored["payouts"][s]
        assert sum(p["value"] for p in seat["score"]["parts"]) == scored["scores"][s]
        assert sum(p["value"] for p in seat["payout"]["parts"]) == scored["payouts"][s]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("match_cache")
@pytest.mark.parametrize("game", GAMES)
def test_every_receiver_of_a_deal_end_gets_the_deals_summary(game, sent):
    table = bots_table(game)
    record = matches.table_record(table.id)
    whole = replay_record(record)
    n_seats = registry.get_game(game).seats
    ends = {}  # deal -> the seq of the state that ended it
    for seq, seat, payload in sent:
        summary = summary_of(payload)
        view = payload["view"]
        if summary is None:
            continue
        # Only a finished deal's, the last one finished; never the deal being played.
        assert summary["deal"] == len(view["results"]) - 1
        assert summary["deal"] < view["deal"] or payload["status"] == "finished"
        ends.setdefault(summary["deal"], seq)
        assert summary == whole.deal_summary(summary["deal"]), (seq, seat)
        check_against_record(summary, record)
    assert sorted(ends) == list(range(len(whole.results))), "every deal's end carried its summary"
    for k, seq in ends.items():
        receivers = {seat for s, seat, p in sent if s == seq and summary_of(p)}
        assert receivers == {*range(n_seats), None}, f"deal {k}: every seat and the spectators"
        # The state that ended deal k is the one where the results grew to k + 1.
        first = next(p for s, seat, p in sent if s == seq)
        assert len(first["view"]["results"]) == k + 1


@pytest.mark.django_db(transaction=True)
def test_the_summary_rides_along_only_until_the_next_deals_first_action(sent):
    table = bots_table("schieberamsch", n_deals=2)
    by_seq: dict[int, dict] = {s: p for s, seat, p in sent if seat is None}
    end = min(s for s, p in by_seq.items() if p["view"]["results"])
    assert summary_of(by_seq[end])["deal"] == 0
    # The next action is the new deal's first: from then on, the states carry no summary until
    # that deal ends too (the last state, the match's end).
    later = [s for s in by_seq if end < s < table.seq]
    assert later and all(summary_of(by_seq[s]) is None for s in later)
    assert summary_of(by_seq[table.seq])["deal"] == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_a_summary_shows_no_card_the_finished_deals_record_does_not(game, sent):
    """Whatever cards a summary names are that deal's, which `last_deal` (its whole record, the
    rules: "when the deal ends everything may be shown") gives every receiver already."""
    bots_table(game, n_deals=2, seed=5)
    spec = registry.get_game(game)
    codes = set(spec.engine.deck_for(spec.defaults()).id_of)

    def found(value: Any) -> set[str]:
        if isinstance(value, dict):
            return set().union(*(found(v) for k, v in value.items() if k != "text"))
        if isinstance(value, list):
            return set().union(*(found(v) for v in value)) if value else set()
        return {value} if isinstance(value, str) and value in codes else set()

    seen = 0
    for _, _, payload in sent:
        summary = summary_of(payload)
        if summary is None:
            continue
        last = payload["view"]["last_deal"]
        dealt = {c for hand in last["hands"] for c in hand} | set(last["stock"])
        assert found(summary) <= dealt
        seen += 1
    assert seen


def play_to_deal_end(table: Table, rng: random.Random) -> tuple[int, dict]:
    """Play random legal moves of every seat until the next action would end deal 0; that
    seat and action."""
    while True:
        table.refresh_from_db()
        match = matches.load_match(table)
        seat = match.to_act()[0]
        action = expand_random(rng.choice(match.legal(seat)), rng)
        probe = match.clone()
        probe.apply(seat, action)
        if probe.deal_no != match.deal_no:
            return seat, action
        play.play_action(table.id, seat, action, table.seq)


db = database_sync_to_async


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
@pytest.mark.parametrize("game", GAMES)
async def test_over_the_socket_the_state_that_ends_a_deal_explains_it(game):
    n = registry.get_game(game).seats
    names = [f"p{i}" for i in range(n)]
    people = await db(make_users)(*names)
    table = await db(make_table)(game=game, people=people, n_deals=2, seed=3)
    seat, action = await db(play_to_deal_end)(table, random.Random(4))
    await db(table.refresh_from_db)()
    comms = {}
    for s in [*range(n), None]:
        query = "" if s is None else f"?token={await db(token)(table, s)}"
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.id}/{query}")
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=5)
        assert summary_of(first) is None  # the deal is still being played
        comms[s] = comm
    await comms[seat].send_json_to({"type": "act", "seq": table.seq, "action": action, "id": "x1"})
    states = {s: await comm.receive_json_from(timeout=5) for s, comm in comms.items()}
    record = await db(matches.table_record)(table.id)
    for s, comm in comms.items():
        state = states[s]
        assert state["seq"] == table.seq + 1 and state["seat"] == s
        summary = summary_of(state)
        assert summary is not None and summary["deal"] == 0, s
        assert summary == replay_record(record).deal_summary(0)
        check_against_record(summary, record)
        await comm.disconnect()
