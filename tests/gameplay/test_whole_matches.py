"""Bots-only matches through the real service path, and what every receiver was shown."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Action, Table
from gameplay.runtime import notify
from gameplay.services import matches
from games import catalogue, registry
from tests.engines.oracles import KNOWABLE

from .conftest import make_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("match_cache", "watched"),
]

GAMES = [g.name for g in registry.games()]


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


def card_strings(obj: Any, deck_codes: set[str]) -> set[str]:
    """Every card code anywhere in a message, except the finished deal it may show in full."""
    found: set[str] = set()
    if isinstance(obj, dict):
        if obj.get("act") == "call":
            return found  # naming a card to call (any card not held) reveals nothing
        for key, value in obj.items():
            if key in ("last_deal", "result", "results", "called"):
                continue  # a finished deal is shown in full; the called card's name is public
            found |= card_strings(value, deck_codes)
    elif isinstance(obj, list):
        for value in obj:
            found |= card_strings(value, deck_codes)
    elif isinstance(obj, str) and obj in deck_codes:
        found.add(obj)
    return found


def hidden_from(match, receiver: int | None) -> set[str]:
    """Cards the receiver may not know: what other seats still hold of what they were dealt."""
    deck = match.deck_for(match.variant)
    dealt = match.log[match.deal_no][0]
    hidden: set[str] = set()
    for seat in range(match.SEATS):
        if seat == receiver:
            continue
        hidden |= set(match.view(seat)["hand"]) & set(deck.codes(dealt[seat]))
    return hidden


@pytest.mark.parametrize("game", GAMES)
def test_a_bots_only_match_ends_with_the_score_of_its_record(game, sent):
    table = make_table(
        game=game,
        bots=[f"bot{i}" for i in range(registry.get_game(game).seats)],
        n_deals=2,
        seed=21,
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    record = matches.table_record(table.id)
    assert table.result == catalogue.score_record(record)
    assert table.result["complete"] is True
    assert Action.objects.filter(table=table, kind=Action.Kind.BOT).count() == table.seq

    # Every state reached every seat (and the spectators) once per seq, in order.
    n = registry.get_game(game).seats
    for receiver in [*range(n), None]:
        assert [seq for seq, seat, _ in sent if seat == receiver] == list(range(1, table.seq + 1))

    # No message carried a card its receiver may not know.
    match = matches.new_match(table)
    deck_codes = set(match.deck_for(match.variant).code_of)
    knowable = KNOWABLE.get(game)
    by_seq: dict[int, list[tuple[Any, dict]]] = {}
    for seq, seat, payload in sent:
        by_seq.setdefault(seq, []).append((seat, payload))
    actions = Action.objects.filter(table=table).order_by("seq").values_list("seat", "action")
    for seq, (seat, action) in enumerate(actions, start=1):
        match.apply(seat, action)
        for receiver, payload in by_seq[seq]:
            shown = card_strings(payload, deck_codes)
            leaked = shown & hidden_from(match, receiver)
            assert not leaked, f"seq {seq}: {sorted(leaked)} shown to {receiver}"
            if knowable is not None and not match.finished:
                extra = shown - knowable(match, receiver)
                assert not extra, f"seq {seq}: {sorted(extra)} shown to {receiver}"
            assert payload["seat"] == receiver
            if receiver is None:
                assert payload["legal"] == [] and "hand" not in payload["view"]
