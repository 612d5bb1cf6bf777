"""Duplicate tables (issue #21, duplicate.md): every table of a section is dealt the same deals
with the same commitments, and an embargoed table shows its record, replay, salts and result to
nobody, its players included, until it is released."""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from config.asgi import application
from gameplay import api
from gameplay.models import Table
from gameplay.runtime.cache import Snapshot
from gameplay.services import identity, matches, payloads, play
from games import VariantError, catalogue, registry
from games.core import commitment
from games.core.bots.common import expand_random

from .conftest import make_users

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_thread_connections"),
]

# A duplicate match is exactly its deals: 3-5-8 needs `fixed_length` (else 12 tricks end it).
VARIANTS: dict[str, dict[str, Any]] = {
    "saichugen": {},
    "three_five_eight": {"fixed_length": True},
    "schieberamsch": {},
    "mediatore": {},
}
N_DEALS = {"saichugen": 3, "three_five_eight": 3, "schieberamsch": 3, "mediatore": 3}
GAMES = sorted(VARIANTS)


def seats_of(game: str) -> int:
    return registry.get_game(game).seats


def bot_table(game: str, table_no: int, **options: Any) -> str:
    """An all-bots embargoed table of a section; it plays to its end inside this call."""
    return api.start_table(
        game,
        seats=[f"bot{table_no}{s}" for s in range(seats_of(game))],
        variant=VARIANTS[game],
        n_deals=N_DEALS[game],
        bot_level="random",
        embargoed=True,
        allow_spectators=False,
        **options,
    )


def finished_record(table_ref: str) -> dict[str, Any]:
    table = Table.objects.get(pk=table_ref)
    assert table.status == Table.Status.FINISHED
    assert table.result["complete"] is True
    return matches.table_record(table_ref)


@pytest.fixture
def announced():
    """Every `match_finished` sent, by table."""
    heard: dict[str, dict[str, Any]] = {}

    def receiver(sender, table_ref, **kwargs):
        heard[table_ref] = kwargs

    api.match_finished.connect(receiver, weak=False)
    yield heard
    api.match_finished.disconnect(receiver)


@pytest.mark.parametrize("game", GAMES)
def test_tables_of_one_secret_seed_play_the_same_deals_with_the_same_commitments(game, announced):
    seed = secrets.token_hex(16)
    refs = [bot_table(game, t, seed=seed) for t in range(3)]
    records = [finished_record(ref) for ref in refs]
    expected = api.deal_set(game, VARIANTS[game], N_DEALS[game], seed=seed)
    assert len(expected) == N_DEALS[game]
    for record in records:
        assert record["dealer"] == 0  # seat 0 deals first at every table
        assert len(record["deals"]) == N_DEALS[game]  # exactly the match's deals
        for k, deal in enumerate(record["deals"]):
            assert deal["hands"] == expected[k]["hands"]
            assert deal["stock"] == expected[k]["stock"]
            assert deal["commitment"] == expected[k]["commitment"] is not None
            # Anyone checks the commitment with the revealed salt.
            salted = commitment.commitment(deal["hands"], deal["stock"], deal["salt"])
            assert salted == deal["commitment"]
    # The cards are the same at every table; the play is each table's own.
    assert records[0]["deals"][0]["hands"] != expected[1]["hands"]
    dealers = [[d["dealer"] for d in catalogue.score_record(r)["deals"]] for r in records]
    assert dealers == [[k % seats_of(game) for k in range(N_DEALS[game])]] * 3
    # An embargoed table still announces its end (the league counts its result).
    assert set(announced) == set(refs)


@pytest.mark.parametrize("game", GAMES)
def test_tables_of_one_uploaded_deal_set_with_salts_share_its_deals_and_commitments(game):
    n = N_DEALS[game]
    dealt = api.deal_set(game, VARIANTS[game], n, seed="the organizer's packs")
    uploaded = api.check_deal_set(game, VARIANTS[game], dealt, n)  # commitments dropped
    assert uploaded == [{"hands": d["hands"], "stock": d["stock"]} for d in dealt]
    salted = [{**d, "salt": secrets.token_hex(16)} for d in uploaded]
    refs = [bot_table(game, t, deals=salted) for t in range(2)]
    records = [finished_record(ref) for ref in refs]
    shown = api.deal_set(game, VARIANTS[game], n, deals=salted)
    for record in records:
        assert record["dealer"] == 0
        for k, deal in enumerate(record["deals"]):
            assert (deal["hands"], deal["stock"]) == (salted[k]["hands"], salted[k]["stock"])
            assert deal["salt"] == salted[k]["salt"]
            assert deal["commitment"] == shown[k]["commitment"]
            assert deal["commitment"] == commitment.commitment(
                deal["hands"], deal["stock"], salted[k]["salt"]
            )
    # A server restart rebuilds the match from the log and the stored deals: the same cards.
    table = Table.objects.get(pk=refs[0])
    assert matches.rebuild_match(table).export() == records[0]


def test_a_bad_deal_set_is_refused_with_a_clear_message_and_no_table():
    good = api.deal_set("schieberamsch", {}, 2, seed=1)
    plain = [{"hands": d["hands"], "stock": d["stock"]} for d in good]
    record_shaped = {"format": "mediana.record/1", "deals": [{**d, "actions": []} for d in plain]}
    assert api.check_deal_set("schieberamsch", {}, record_shaped, 2) == plain
    twice = json.loads(json.dumps(plain))
    twice[1]["hands"][0][0] = twice[1]["hands"][1][0]
    cases = [
        (plain[:1], "has 1 deals; this match is 2 deals"),
        ("not a list", "must be a JSON list"),
        ([plain[0], 7], "Deal 2 must be an object"),
        (twice, "Deal 2 is not a right deck: seat 1: .* appears twice"),
    ]
    for deals, message in cases:
        with pytest.raises(VariantError, match=message):
            api.check_deal_set("schieberamsch", {}, deals, 2)
    with pytest.raises(VariantError, match="unknown variant flag"):
        api.check_deal_set("schieberamsch", {"nope": 1}, plain, 2)
    with pytest.raises(VariantError, match="Unknown game"):
        api.check_deal_set("whist", {}, plain, 2)
    bad_salt = [{**plain[0], "salt": "NOT-HEX"}]
    with pytest.raises(VariantError, match="salt of deal 1"):
        api.start_table("schieberamsch", seats=["a", "b", "c"], n_deals=2, deals=bad_salt)
    with pytest.raises(VariantError, match="from 1 to 2 deals"):
        api.start_table("schieberamsch", seats=["a", "b", "c"], n_deals=2, deals=plain * 2)
    with pytest.raises(VariantError, match="needs a seed or every deal"):
        api.deal_set("schieberamsch", {}, 3, deals=plain)
    assert not Table.objects.exists()


# --- the embargo ------------------------------------------------------------------------------


def play_out(table_ref: str, rng: random.Random) -> Table:
    """The person's seat plays random legal moves; the bots play theirs after each commit."""
    while True:
        table = Table.objects.get(pk=table_ref)
        if table.status == Table.Status.FINISHED:
            return table
        match = matches.load_match(table)
        seat = match.to_act()[0]
        action = expand_random(rng.choice(match.legal(seat)), rng)
        play.play_action(table.id, seat, action, table.seq)


def client_of(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def salts_in(text: str, record: dict[str, Any]) -> bool:
    return any(deal["salt"] in text for deal in record["deals"])


@pytest.fixture
def embargoed_table():
    """A finished embargoed 3-5-8 table where ana plays seat 0 against two bots, and olga, who
    does not sit there."""
    ana, olga = make_users("ana", "olga")
    ref = api.start_table(
        "three_five_eight",
        seats=[ana.pk, "bot1", "bot2"],
        variant={"fixed_length": True},
        n_deals=2,
        seed=secrets.token_hex(16),
        bot_level="random",
        allow_spectators=True,  # an embargo refuses spectators whatever this says
        embargoed=True,
    )
    table = play_out(ref, random.Random(3))
    return table, ana, olga


def test_an_embargoed_table_withholds_its_record_replay_salts_and_result_until_released(
    embargoed_table, django_assert_max_num_queries
):
    table, ana, olga = embargoed_table
    ref = table.id
    record = matches.table_record(ref)
    seat_token = table.seats.get(number=0).token
    ana_client, olga_client, anonymous = client_of(ana), client_of(olga), client_of(None)
    paths = {
        "record": f"/tables/{ref}/record.json",
        "replay": f"/tables/{ref}/replay/",
        "replay_json": f"/tables/{ref}/replay.json",
        "replay_deal": f"/tables/{ref}/replay.json?deal=1",
    }

    # Its own player: a clear 403 that says why, by session or by seat token.
    for path in paths.values():
        by_token = f"{path}{'&' if '?' in path else '?'}token={seat_token}"
        for response in (ana_client.get(path), anonymous.get(by_token)):
            assert response.status_code == 403, path
            assert b"section is complete" in response.content
            assert not salts_in(response.content.decode(), record)
    detail = ana_client.get(f"/api/tables/{ref}/").json()
    assert detail["status"] == "finished"
    assert detail["result"] is None and detail["withheld"] is True
    with django_assert_max_num_queries(12):
        games = ana_client.get("/games/")
    assert games.status_code == 200
    row = games.content.decode().split(f'data-table="{ref}"')[1].split("</tr>")[0]
    assert "withheld until the section is complete" in row
    assert "payout" not in row and "/replay/" not in row
    page = ana_client.get(f"/tables/{ref}/").content.decode()
    assert "Replay withheld until the section is complete" in page
    assert f"/tables/{ref}/replay/" not in page and "record.json" not in page
    # What the table sends its seats at the end: the result as played, no record, no salt.
    match = matches.load_match(table)
    final = payloads.state_payload(Snapshot.of(table), match, 0)
    text = json.dumps(final)
    assert final["status"] == "finished" and final["result"] == table.result
    assert "salt" not in text and not salts_in(text, record)

    # Anyone else: as if there were no such table; nobody may watch.
    for client in (olga_client, anonymous):
        for path in paths.values():
            assert client.get(path).status_code == 404, path
        assert client.get(f"/api/tables/{ref}/").status_code == 404
        assert client.get(f"/tables/{ref}/").status_code == 403
    assert identity.identify(ref, None, AnonymousUser()) is None
    assert identity.identify(ref, None, olga) is None
    assert Table.objects.get(pk=ref).allow_spectators is False

    # Released: its players see everything as at any finished table.
    assert api.release_tables([ref, "no-such-table"]) == 1
    assert api.release_tables([ref]) == 0
    response = ana_client.get(paths["record"])
    assert response.status_code == 200 and response.json() == record
    assert salts_in(response.content.decode(), record)
    for name in ("replay", "replay_json", "replay_deal"):
        assert ana_client.get(paths[name]).status_code == 200, name
    assert anonymous.get(f"{paths['replay']}?token={seat_token}").status_code == 200
    detail = ana_client.get(f"/api/tables/{ref}/").json()
    assert detail["result"] == table.result and "withheld" not in detail
    row = ana_client.get("/games/").content.decode().split(f'data-table="{ref}"')[1]
    assert f"/tables/{ref}/replay/" in row.split("</tr>")[0]
    assert "record.json" in ana_client.get(f"/tables/{ref}/").content.decode()
    # A duplicate table stays without spectators: the others still see nothing of it.
    assert olga_client.get(paths["record"]).status_code == 404
    assert anonymous.get(f"/api/tables/{ref}/").status_code == 404


def test_the_admin_shows_an_embargoed_tables_record_and_actions_only_once_released(
    embargoed_table,
):
    table, _, _ = embargoed_table
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = client_of(admin)
    url = f"/admin/gameplay/table/{table.id}/change/"
    salt = table.record["deals"][0]["salt"]
    assert client.get(url).status_code == 200
    assert salt not in client.get(url).content.decode()
    api.release_tables([table.id])
    assert salt in client.get(url).content.decode()


async def test_nobody_may_watch_an_embargoed_table(embargoed_table_async):
    ref, token = embargoed_table_async
    spectator = WebsocketCommunicator(application, f"/ws/tables/{ref}/")
    connected, _ = await spectator.connect()
    if connected:  # refused right after the handshake (close code 4403)
        message = await spectator.receive_output(timeout=5)
        await spectator.disconnect()
        assert message["type"] == "websocket.close", message
    seat = WebsocketCommunicator(application, f"/ws/tables/{ref}/?token={token}")
    connected, _ = await seat.connect()
    assert connected  # its players play as at any table
    state = await seat.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["seat"] == 0 and state["status"] == "playing"
    assert "commitment" in state
    await seat.disconnect()


@pytest.fixture
def embargoed_table_async():
    """An embargoed Saichugen table ana plays (not finished yet): its id and her seat token."""
    (ana,) = make_users("ana")
    ref = api.start_table(
        "saichugen", seats=[ana.pk, "b1", "b2"], n_deals=1, allow_spectators=True, embargoed=True
    )
    return ref, Table.objects.get(pk=ref).seats.get(number=0).token
