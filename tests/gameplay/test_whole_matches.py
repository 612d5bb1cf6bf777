"""Bots-only matches through the real service path, and what every receiver was shown."""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import Action, Table
from gameplay.runtime import notify
from gameplay.services import matches
from games import catalogue, registry
from tests.engines.oracles import KNOWABLE
from tests.engines.test_properties import oracle

from .conftest import make_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("match_cache", "watched"),
]

# Every game at every size of table it is played at (three-player games at four: the dealer sits
# out, games/core/four.py)
TABLES = [(g.name, n) for g in registry.games() for n in g.table_sizes]


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


@pytest.mark.parametrize(("game", "n"), TABLES)
def test_a_bots_only_match_ends_with_the_score_of_its_record(game, n, sent):
    table = make_table(game=game, bots=[f"bot{i}" for i in range(n)], n_deals=2, seed=21)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    record = matches.table_record(table.id)
    assert table.result == catalogue.score_record(record)
    assert table.result["complete"] is True
    assert Action.objects.filter(table=table, kind=Action.Kind.BOT).count() == table.seq

    # Every state reached every seat (and the spectators) once per seq, in order.
    assert len(table.result["totals"]["payouts"]) == n
    for receiver in [*range(n), None]:
        assert [seq for seq, seat, _ in sent if seat == receiver] == list(range(1, table.seq + 1))

    # No message carried a card its receiver may not know.
    match = matches.new_match(table)
    deck_codes = set(match.deck_for(match.variant).code_of)
    knowable = oracle(KNOWABLE, game)
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


def test_a_table_has_a_size_its_game_is_played_at():
    with pytest.raises(ValueError, match="needs 3 or 4 seats, not 5"):
        make_table(game="saichugen", bots=[f"bot{i}" for i in range(5)])
    with pytest.raises(ValueError, match="needs 4 seats, not 3"):
        make_table(game="mediatore", bots=[f"bot{i}" for i in range(3)])
    # a rule refused at a table of four is refused before anyone is seated
    from games import VariantError

    with pytest.raises(VariantError, match="Woburn"):
        make_table(
            game="three_five_eight",
            bots=[f"bot{i}" for i in range(4)],
            variant={"woburn_bidding": True},
        )
    assert not Table.objects.exists()
