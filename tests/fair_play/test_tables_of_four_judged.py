"""Collusion analytics at a table of four: the sitter of a deal is nobody's opponent in it, so
no decision is judged as leaning towards or away from him, and positions count the three who
play (tables-of-four.md)."""

from __future__ import annotations

import json
import random

import pytest

from games import start_match
from games.transfers import record_transfers
from league.fairplay.collusion import decisions_of
from tests.engines.helpers import play_out


@pytest.mark.parametrize("game", ["saichugen", "schieberamsch"])
def test_the_sitter_is_judged_for_nothing_and_positions_count_the_three(game):
    m = start_match(game, seats=4, dealer=0, n_deals=4, seed=4, players=["a", "b", "c", "d"])
    play_out(m, random.Random(4))
    record = json.loads(json.dumps(m.export()))
    judged = record_transfers(record, rollouts=2, seed="t")
    assert judged
    for entry in judged:
        sitter = entry["deal"] % 4
        assert entry["playing"] == [(sitter + i) % 4 for i in (1, 2, 3)]
        assert entry["seat"] != sitter
        assert entry["tilt"][sitter] == 0.0 and entry["to"][sitter] == 0.0
    decisions = decisions_of("t1", ["a", "b", "c", "d"], judged)
    for entry, d in zip(judged, decisions, strict=True):
        sitter = "abcd"[entry["deal"] % 4]
        assert sitter not in d.others and len(d.others) == 2
        assert sorted(d.positions) == [1, 2]
