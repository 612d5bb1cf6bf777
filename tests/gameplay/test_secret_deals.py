"""Deal commitments over a real table WebSocket (table-protocol.md "Additions").

From its first `state` a seat (and a spectator) holds a hash of the deal it is about to play;
the finished record reveals the salt, and anyone recomputes the hash with any SHA-256 tool.
Verified here with hashlib straight from the record, not with the server's helper.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay.models import Table
from gameplay.runtime import cache
from gameplay.services import matches, payloads, play
from games.core.bots.common import expand_random

from .conftest import make_table, make_users, token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections", "match_cache"),
]

db = database_sync_to_async
N_DEALS = {"saichugen": 2, "three_five_eight": 2, "schieberamsch": 3, "mediatore": 3}
# 3-5-8 ends a match at once when a hand gives one seat 12 tricks (1.5% of random hands), which
# would leave these tests a single deal: only all 16 tricks end it here.
VARIANT = {"three_five_eight": {"win_tricks": 16}}


def sha256_of_deal(deal: dict[str, Any]) -> str:
    canonical = json.dumps(
        {"hands": deal["hands"], "stock": deal["stock"]}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(f"{canonical}\n{deal['salt']}".encode()).hexdigest()


async def connect(path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path)
    connected, _ = await comm.connect()
    assert connected, path
    return comm


async def state_of(comm: WebsocketCommunicator) -> tuple[dict[str, Any], str]:
    text = await comm.receive_from(timeout=5)
    message = json.loads(text)
    assert message["type"] == "state", message
    return message, text


def play_one(table: Table, rng: random.Random) -> None:
    """The first seat to act plays one random legal action through the one write path."""
    table.refresh_from_db()
    match = matches.load_match(table)
    seat = match.to_act()[0]
    action = expand_random(rng.choice(match.legal(seat)), rng)
    play.play_action(table.id, seat, action, table.seq)


@pytest.mark.parametrize("game", sorted(N_DEALS))
async def test_every_deal_of_a_match_was_committed_to_before_it_was_played(game):
    people = await db(make_users)(
        *["ana", "ben", "cleo", "dora"][: 4 if game == "mediatore" else 3]
    )
    table = await db(make_table)(
        game=game, people=people, n_deals=N_DEALS[game], seed=None, variant=VARIANT.get(game)
    )
    seat = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, 1)}")
    watcher = await connect(f"/ws/tables/{table.id}/")
    seen: list[tuple[dict[str, Any], str]] = [await state_of(seat), await state_of(watcher)]
    rng = random.Random(game)
    while seen[-1][0]["status"] != "finished":
        await db(play_one)(table, rng)
        seen += [await state_of(seat), await state_of(watcher)]

    record = (await db(Table.objects.get)(pk=table.id)).record
    deals = record["deals"]
    assert len(deals) >= 2
    by_deal: dict[int, set[str]] = {}
    for message, _ in seen:
        by_deal.setdefault(message["view"]["deal"], set()).add(message["commitment"])
    assert sorted(by_deal) == list(range(len(deals)))
    for k, deal in enumerate(deals):
        # one commitment through the whole deal, for the seat and the spectator alike, and it
        # is the hash of the cards the record shows with the salt it reveals
        assert by_deal[k] == {sha256_of_deal(deal)} == {deal["commitment"]}
    assert seen[0][0]["commitment"] == sha256_of_deal(deals[0])  # the very first state
    assert len({d["commitment"] for d in deals}) == len(deals)  # a new one every deal

    # no salt travels before the match is over
    salts = [d["salt"] for d in deals]
    for message, text in seen:
        if message["status"] != "finished":
            assert '"salt"' not in text
            assert not any(s in text for s in salts)
    for comm in (seat, watcher):
        await comm.disconnect()


async def test_states_replayed_after_a_gap_or_a_restart_carry_the_same_commitments():
    people = await db(make_users)("ana", "ben", "cleo")
    table = await db(make_table)(
        game="three_five_eight",
        people=people,
        n_deals=2,
        seed=None,
        variant=VARIANT["three_five_eight"],
    )
    seat = await connect(f"/ws/tables/{table.id}/?token={await db(token)(table, 0)}")
    await state_of(seat)
    live: dict[int, str] = {}
    rng = random.Random(3)
    deal = 0
    while deal == 0:  # into the second deal
        await db(play_one)(table, rng)
        message, _ = await state_of(seat)
        live[message["seq"]] = message["commitment"]
        deal = message["view"]["deal"]
    await db(cache.forget)()  # a restarted server rebuilds the match from the log
    replayed = await db(payloads.states_since)(table.id, 0, 0)
    assert {m["seq"]: m["commitment"] for m in replayed} == live
    assert len(set(live.values())) == 2
    await seat.disconnect()
