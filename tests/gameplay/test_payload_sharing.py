"""The states of one change share what their receivers see alike (gameplay/services/payloads.py):
the engine's public view, the clock, the players… are made and serialized once, and each
receiver's own parts are spliced into that text. Checked on random positions of every game:
each spliced text is byte for byte the JSON of its receiver's payload, and that payload is the
state `state_payload` makes for the receiver alone, with the receiver's own `view`. And the
state column's text, which keeps the finished deals' JSON between moves, is the match's dump."""

from __future__ import annotations

import copy
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.models import Action, Table
from gameplay.runtime import cache, notify
from gameplay.runtime.cache import SeatInfo, Snapshot
from gameplay.services import payloads
from gameplay.services.payloads import state_messages, state_payload, state_payloads
from games import game_names, get_game, load_match, start_match
from tests.engines.helpers import random_action, random_variant
from tests.gameplay.conftest import make_table

GAMES = game_names()
NOW = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
PROPS = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# Quotes, backslashes, non-ASCII: escaped alike whether serialized whole or in pieces.
names = st.text(max_size=10)


def played(game: str, seed: int, n_deals: int, moves: int | None):
    """A match of `game` after up to `moves` random legal actions (None: played out)."""
    rng = random.Random(seed)
    m = start_match(
        game,
        dealer=rng.randrange(get_game(game).seats),
        variant=random_variant(game, rng),
        n_deals=n_deals,
        seed=seed,
    )
    for _ in range(10_000 if moves is None else moves):
        if m.finished:
            break
        m.apply(*random_action(m, rng))
    return m


@st.composite
def changes(draw: Any) -> tuple[Snapshot, Any, tuple[SeatInfo, ...], list[int | None]]:
    """A table at a random position: its snapshot, its match, its seats, some receivers."""
    game = draw(st.sampled_from(GAMES))
    m = played(
        game,
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(1, 3)),
        None if draw(st.integers(0, 9)) == 0 else draw(st.integers(0, 150)),
    )
    seats = tuple(
        SeatInfo(
            n,
            draw(names),
            None,
            draw(st.sampled_from(["", "", "bot"])),
            "",
            connected_at=draw(st.sampled_from([None, NOW])),  # None: its clock waits for it
        )
        for n in range(m.SEATS)
    )
    seconds = draw(st.sampled_from([0, 30]))
    running = seconds and not m.finished
    result = None
    if m.finished:
        result = m.result()
        if draw(st.booleans()):
            result["forfeited"] = [0]
    snap = Snapshot(
        draw(names),
        game,
        draw(st.integers(0, 500)),
        Table.Status.FINISHED if m.finished else Table.Status.PLAYING,
        NOW + timedelta(seconds=draw(st.floats(-5, 60))) if running else None,
        seconds,
        True,
        False,
        result,
        NOW if m.finished else None,
        [],
        grace_until=NOW + timedelta(seconds=10) if running and draw(st.integers(0, 3)) else None,
        last_kind=draw(st.sampled_from(["", *Action.Kind.values])),
    )
    receivers = draw(st.lists(st.sampled_from([*range(m.SEATS), None]), unique=True))
    return snap, m, seats, receivers


@pytest.fixture
def seats_of(monkeypatch):
    """The seats of the drawn tables, as the process's seat cache would give them."""
    tables: dict[str, tuple[SeatInfo, ...]] = {}

    def fake(table_id: str, rev: int | None = None) -> tuple[SeatInfo, ...]:
        return tables[table_id]

    monkeypatch.setattr(cache, "seats_of", fake)
    monkeypatch.setattr(payloads, "seats_of", fake)
    return tables


@PROPS
@given(change=changes())
def test_every_spliced_text_is_exactly_its_payloads_json(seats_of, change):
    snap, m, seats, receivers = change
    seats_of[snap.id] = seats
    sent, texts = state_messages(snap, m, receivers, NOW)
    assert list(sent) == receivers == list(texts)
    for receiver in receivers:
        payload = sent[receiver]
        assert texts[receiver] == notify.state_text(payload)
        assert json.loads(texts[receiver]) == payload
        # What the receiver gets alone, as a replay after a gap makes it.
        assert payload == state_payload(snap, m, receiver, NOW)
        assert payload["view"] == m.view(receiver)
    assert state_payloads(snap, m, receivers, NOW) == sent


@PROPS
@given(change=changes())
def test_only_its_own_seat_gets_the_whole_last_action_and_only_the_seats_to_act_their_legal(
    seats_of, change
):
    snap, m, seats, _ = change
    seats_of[snap.id] = seats
    sent, texts = state_messages(snap, m, [*range(m.SEATS), None], NOW)
    to_act = [] if m.finished else m.to_act()
    last = next((d[2][-1] for d in reversed(m.log) if d[2]), None)
    for receiver, payload in sent.items():
        assert texts[receiver] == notify.state_text(payload)
        acting = receiver in to_act
        assert bool(payload["legal"]) == acting
        assert ("why_not" in payload) == (acting and m.why_not(receiver) is not None)
        if last is None:
            assert payload["last_action"] is None
            continue
        whole = receiver == last["seat"] and not m.finished and bool(m.log[-1][2])
        own = {k: v for k, v in last.items() if k != "seat"}
        assert payload["last_action"]["action"] == (own if whole else {"act": last["act"]})


@pytest.mark.parametrize("game", GAMES)
def test_a_view_is_the_public_part_every_receiver_shares_and_the_receivers_own(game):
    for seed in range(8):
        m = played(game, seed, 2, 40 * seed)
        public = m.public_view()
        for receiver in [*range(m.SEATS), None]:
            own = m.seat_view(receiver)
            assert own["seat"] == receiver
            assert not public.keys() & own.keys()
            assert m.view(receiver) == {**public, **own}
        assert m.public_view() == public  # asking for every seat's part changed nothing


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_a_served_match_sends_each_receiver_the_json_of_its_own_payload(game, monkeypatch):
    sent: list[tuple[dict, dict[Any, str]]] = []
    real = notify.send_states

    def capture(table_id, seq, payloads, **options):
        sent.append((payloads, options.get("texts")))
        real(table_id, seq, payloads, **options)

    monkeypatch.setattr(notify, "send_states", capture)
    table = make_table(game=game, bots=[f"bot{i}" for i in range(get_game(game).seats)])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    moves = [(p, t) for p, t in sent if t is not None]
    assert len(moves) >= table.seq
    for payloads_, texts in moves:
        assert set(texts) == set(payloads_)
        for receiver, payload in payloads_.items():
            assert texts[receiver] == notify.state_text(payload)


@pytest.mark.parametrize("game", GAMES)
def test_the_state_columns_text_is_the_dump_through_every_deal_clone_and_reload(game):
    """`claim.state_text` (`Match.dump_text`) keeps the text of the finished deals between
    moves: its value stays `dump()`'s, for the match, its clones and a match loaded back."""
    for seed in range(4):
        rng = random.Random(seed)
        m = played(game, seed, 3, 0)
        others = []
        while not m.finished:
            m.apply(*random_action(m, rng))
            assert json.loads(m.dump_text()) == m.dump()
            if rng.random() < 0.05:
                others.append(m.clone())
                others.append(load_match(json.loads(m.dump_text())))
        assert len(m.log) > 1 or game == "three_five_eight"  # 3-5-8 may end in one deal
        for other in others:
            while not other.finished:
                other.apply(*random_action(other, rng))
                assert json.loads(other.dump_text()) == other.dump()


def test_a_match_whose_log_was_replaced_is_not_dumped_with_the_old_deals_text():
    m = played("saichugen", 1, 3, 10_000)
    assert len(m.log) == 3
    m.dump_text()  # the first two deals' text is kept
    other = played("saichugen", 2, 3, 10_000)
    m.log = [copy.deepcopy(other.log[0]), *m.log[1:]]
    assert json.loads(m.dump_text())["state"]["log"][0] == json.loads(json.dumps(other.log[0]))
