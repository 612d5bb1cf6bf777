"""Properties every registered engine must have, checked on random legal play.

Parametrized over the registry, so a newly registered engine is covered automatically (it needs
its "what may this seat know" oracle in ``oracles.py``), and over every size of table a game is
played at (a three-player game at a table of four, the dealer sitting out: games/core/four.py).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import game_names, get_game, load_match, start_match, visible
from games.core.four import FourSeats
from games.core.records import replay_record, score_record

from .helpers import card_codes, play_out, random_action, random_variant
from .oracles import KNOWABLE, LOCATIONS

GAMES = game_names()
# (game, seats): every game at its own table, and the three-player games at a table of four
TABLES = [(g, n) for g in GAMES for n in get_game(g).table_sizes]
PROPS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def new_match(game: str, seed: int, n_deals: int, seats: int | None = None):
    rng = random.Random(seed)
    variant = random_variant(game, rng, seats)
    dealer = rng.randrange(seats or get_game(game).seats)
    match = start_match(
        game, dealer=dealer, variant=variant, n_deals=n_deals, seed=seed, seats=seats
    )
    return match, rng


def deal_of(m, seat):
    """The match that plays the current deal and ``seat``'s seat in it (None: a spectator, or
    the sitter at a table of four, who sees what a spectator sees)."""
    if isinstance(m, FourSeats):
        return m.inner, None if seat is None else m.seating.inner(seat)
    return m, seat


def oracle(table, game):
    """The game's oracle (``KNOWABLE``/``LOCATIONS``) for a table of any size."""
    found = table.get(game)
    if found is None:
        return None
    if table is KNOWABLE:
        return lambda m, seat: found(*deal_of(m, seat))
    return lambda m: found(deal_of(m, None)[0])


def check_views(m, knowable) -> None:
    """No view holds a card its receiver may not know; a seat's ``hand`` is its real hand."""
    deck = m.deck_for(m.variant)
    codes = set(deck.id_of)
    for seat in [*range(m.SEATS), None]:
        v = m.view(seat)
        json.dumps(v)  # views are JSON
        leaked = card_codes(v, codes) - knowable(m, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in {m.GAME} view"
        if seat is not None:
            inner, i = deal_of(m, seat)
            hand = [] if i is None else inner.hands[i]
            assert sorted(v["hand"]) == sorted(deck.codes(hand))


def check_events(m, events, knowable) -> None:
    """Events of an action that did not end the deal leak nothing either."""
    codes = set(m.deck_for(m.variant).id_of)
    for seat in [*range(m.SEATS), None]:
        seen = card_codes(visible(events, seat), codes)
        leaked = seen - knowable(m, seat)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_oracles(game):
    assert game in KNOWABLE, f"add {game} to KNOWABLE in tests/engines/oracles.py"
    assert game in LOCATIONS, f"add {game} to LOCATIONS in tests/engines/oracles.py"


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds, n_deals=st.integers(1, 3))
def test_random_play_ends_conserves_cards_hides_cards_and_is_zero_sum(game, seats, seed, n_deals):
    m, rng = new_match(game, seed, n_deals, seats)
    # a game without oracles fails test_every_game_has_oracles; the rest is still checked here
    knowable = oracle(KNOWABLE, game) or (lambda m, seat: set(m.deck_for(m.variant).id_of))
    locations = oracle(LOCATIONS, game)
    deck_ids = sorted(m.deck_for(m.variant).ids)
    check_views(m, knowable)
    for _ in range(5000):
        if m.finished:
            break
        deal = m.deal_no
        seat, action = random_action(m, rng)
        events = m.apply(seat, action)
        assert all(e["visible_to"] is None or isinstance(e["visible_to"], list) for e in events)
        if not m.finished:
            if locations:
                assert sorted(locations(m)) == deck_ids, "cards are conserved"
            check_views(m, knowable)
            if m.deal_no == deal:
                check_events(m, events, knowable)
    assert m.finished, "random legal play always ends"
    assert m.to_act() == []
    assert all(m.legal(s) == [] for s in range(m.SEATS))
    result = m.result()
    assert result["complete"]
    assert result["winners"]
    assert len(result["deals"]) <= n_deals
    for d in result["deals"]:
        assert sum(d["payouts"]) == 0
    assert sum(result["totals"]["payouts"]) == 0
    check_views(m, knowable)


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds, stop=st.integers(0, 400))
def test_dump_load_gives_the_same_state_legal_actions_and_views(game, seats, seed, stop):
    m, rng = new_match(game, seed, 2, seats)
    for _ in range(stop):
        if m.finished:
            break
        m.apply(*random_action(m, rng))
    data = m.dump()
    text = json.dumps(data)
    again = load_match(json.loads(text))
    assert again.dump() == data
    for seat in range(m.SEATS):
        assert again.legal(seat) == m.legal(seat)
        assert again.view(seat) == m.view(seat)
    assert again.view(None) == m.view(None)
    assert again.to_act() == m.to_act()
    assert again.result() == m.result()
    # and both go on identically
    rng2 = random.Random(seed)
    for _ in range(30):
        if m.finished:
            break
        seat, action = random_action(m, rng2)
        assert m.apply(seat, action) == again.apply(seat, action)
    assert again.dump() == m.dump()


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds, n_deals=st.integers(1, 3), cut=st.floats(0, 1))
def test_exported_record_replays_to_the_same_result(game, seats, seed, n_deals, cut):
    m, rng = new_match(game, seed, n_deals, seats)
    play_out(m, rng)
    record = m.export()
    json.dumps(record)
    assert score_record(record) == m.result()
    replayed = replay_record(record)
    assert replayed.export() == record, "export → replay → export is identical"
    # an unfinished record: cut the actions of the last deal
    last = record["deals"][-1]
    keep = int(len(last["actions"]) * cut)
    if keep < len(last["actions"]):
        last["actions"] = last["actions"][:keep]
        partial = score_record(record)
        assert partial["complete"] is False
        assert partial["winners"] == []
        assert partial["deals"][-1]["payouts"] == [0] * m.SEATS
        assert replay_record(record).export() == record


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds)
def test_rejected_actions_change_nothing(game, seats, seed):
    m, rng = new_match(game, seed, 2, seats)
    for _ in range(rng.randrange(60)):
        if m.finished:
            return
        m.apply(*random_action(m, rng))
    if m.finished:
        return
    before = m.dump()
    deck = m.deck_for(m.variant)
    bad = [
        (rng.randrange(m.SEATS), {"act": "nonsense"}),
        (m.SEATS, {"act": "pass"}),
        (rng.randrange(m.SEATS), "play"),
        (rng.randrange(m.SEATS), {"act": "play", "card": "ZZ"}),
        (rng.randrange(m.SEATS), {"act": "commit", "card": rng.choice(deck.codes(deck.ids))}),
        (rng.randrange(m.SEATS), {"act": "play", "card": rng.choice(deck.codes(deck.ids))}),
    ]
    outside = [s for s in range(m.SEATS) if s not in m.to_act()]
    if outside:
        seat = outside[0]
        bad.append((seat, {"act": "pass"}))
    from games import IllegalAction

    for seat, action in bad:
        legal_now = (
            {json.dumps(a, sort_keys=True) for a in m.legal(seat)} if seat < m.SEATS else set()
        )
        if isinstance(action, dict) and json.dumps(action, sort_keys=True) in legal_now:
            continue
        try:
            m.apply(seat, action)
        except IllegalAction as e:
            message = str(e)
        else:
            # a random card may happen to be legal: then it was applied; stop here
            return
        assert message
        assert m.dump() == before


def template(action):
    """Whether a legal action is a template of choices (``choose``), at its top or in a field
    (Mediatore's exchange chooses its discard and its gift)."""
    return "choose" in action or any(isinstance(v, dict) and "choose" in v for v in action.values())


def canon(move):
    """A move with its card choices sorted (``random_move`` may pick them in any order)."""
    if isinstance(move, tuple):
        return tuple(tuple(sorted(x)) if isinstance(x, tuple) else canon(x) for x in move)
    return move


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds)
def test_fast_path_playouts_end_and_clones_are_independent(game, seats, seed):
    m, rng = new_match(game, seed, 2, seats)
    before = m.dump()
    c = m.clone()
    steps = 0
    while not c.finished:
        s = c.actor()
        assert s in c.to_act()
        move = c.random_move(s, rng)
        if steps % 3 == 0:
            moves = c.moves(s)
            if len(moves) < 500:
                assert canon(move) in {canon(x) for x in moves}
            # the validated path accepts the fast move's action
            action = c.move_to_action(move)
            assert any(
                a == action or (template(a) and a["act"] == action["act"]) for a in c.legal(s)
            )
        c.play(s, move)
        steps += 1
        assert steps < 5000
    assert m.dump() == before, "playing a clone leaves the original alone"
    assert sum(sum(r["payouts"]) for r in c.results) == 0


@pytest.mark.parametrize(("game", "seats"), TABLES)
@PROPS
@given(seed=seeds)
def test_the_fast_path_shows_every_seat_what_the_validated_path_shows(game, seats, seed):
    # Bots and record replays take the unchecked path (no events); a view taken after it must
    # not differ from one taken after the same actions applied through the rules.
    fast, rng = new_match(game, seed, 1, seats)
    checked = fast.clone()
    seats = [*range(fast.SEATS), None]
    while not fast.finished:
        s = fast.actor()
        move = fast.random_move(s, rng)
        checked.apply(s, fast.move_to_action(move))
        fast.play(s, move)
        for seat in seats:
            assert without_log(fast.view(seat)) == without_log(checked.view(seat)), seat


def without_log(view):
    """A view without the finished deal's action list and its summary: the unchecked path keeps
    no log (and explains no deal)."""
    if view.get("last_deal"):
        dropped = ("actions", "summary")
        view["last_deal"] = {k: v for k, v in view["last_deal"].items() if k not in dropped}
    return view


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_same_seed_same_deals_and_redeal_is_reproducible(game, seats):
    a = start_match(game, seed=42, n_deals=3, seats=seats)
    b = start_match(game, seed=42, n_deals=3, seats=seats)
    assert a.export() == b.export()
    c = start_match(game, seed=43, n_deals=3, seats=seats)
    assert a.export()["deals"][0]["hands"] != c.export()["deals"][0]["hands"]
    x, y = a.clone(), a.clone()
    x.redeal(random.Random(7))
    y.redeal(random.Random(7))
    assert x.dump() == y.dump()
    hands = x.export()["deals"][0]
    cards = Counter(card for h in hands["hands"] for card in h) + Counter(hands["stock"])
    assert sorted(cards) == sorted(a.deck_for(a.variant).codes(a.deck_for(a.variant).ids))


@pytest.mark.parametrize("game", GAMES)
def test_registry_describes_the_game(game):
    spec = get_game(game)
    assert spec.display_name
    assert spec.seats in (3, 4)
    schema = spec.variant_schema()
    json.dumps(schema)
    assert spec.validate_variant({}) == spec.defaults()
    for flag in schema:
        assert flag["type"] in ("choice", "bool", "int")
