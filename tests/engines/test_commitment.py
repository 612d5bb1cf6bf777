"""The deal commitment (table-protocol.md "Additions"): the engine's half, without Django.

Every check recomputes the hash with hashlib from the exported record, independently of
``games.core.commitment``, so a helper that hashed the wrong bytes would be caught.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import game_names, load_match, start_match
from games.core.records import replay_record, score_record

from .helpers import play_out, random_action

GAMES = game_names()
SALT = re.compile(r"[0-9a-f]{32}")


def expected(deal: dict) -> str:
    """sha256 of canonical + "\\n" + salt, exactly as the spec writes it."""
    canonical = json.dumps(
        {"hands": deal["hands"], "stock": deal["stock"]}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256((canonical + "\n" + deal["salt"]).encode("utf-8")).hexdigest()


def played_with_commitments(game: str, seed, n_deals: int, rng: random.Random):
    """Play a match at random; the commitment seen after every action, by deal."""
    m = start_match(game, seed=seed, n_deals=n_deals)
    seen: dict[int, set[str]] = {m.deal_no: {m.commitment()}}
    while not m.finished:
        seat, action = random_action(m, rng)
        m.apply(seat, action)
        seen.setdefault(m.deal_no, set()).add(m.commitment())
    return m, seen


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(min_value=0, max_value=2**62), n_deals=st.integers(2, 3))
def test_every_deal_commits_to_its_cards_and_the_record_reveals_the_salt(game, seed, n_deals):
    m, seen = played_with_commitments(game, seed, n_deals, random.Random(seed))
    record = m.export()
    deals = record["deals"]
    assert list(seen) == list(range(len(deals)))
    for k, deal in enumerate(deals):
        assert SALT.fullmatch(deal["salt"])
        assert deal["commitment"] == expected(deal)
        # one commitment for the whole deal, from its first state to its last
        assert seen[k] == {deal["commitment"]}
    assert len({d["commitment"] for d in deals}) == len(deals)
    assert len({d["salt"] for d in deals}) == len(deals)
    # scoring ignores the two fields; replaying keeps them
    assert score_record(record) == m.result()
    assert replay_record(record).export() == record


def test_the_salt_follows_the_secret_seed_and_nothing_else():
    a = start_match("saichugen", seed="s3cret", n_deals=2)
    b = start_match("saichugen", seed="s3cret", n_deals=2, dealer=1, players=["x", "y", "z"])
    c = start_match("saichugen", seed="other", n_deals=2)
    # the same seed deals the same cards with the same salts (a rebuilt match, duplicate tables)
    assert a.commitment() == b.commitment()
    assert a.export()["deals"][0]["salt"] == b.export()["deals"][0]["salt"]
    assert a.commitment() != c.commitment()
    assert a.export()["deals"][0]["salt"] != c.export()["deals"][0]["salt"]
    # the salt is not the seed, nor anything that shows it
    assert "s3cret" not in json.dumps(a.export())


def test_a_loaded_or_cloned_match_keeps_its_commitment():
    m = start_match("three_five_eight", seed=99, n_deals=2)
    play_out(m.clone(), random.Random(1))  # a clone's play changes nothing here
    assert load_match(m.dump()).commitment() == m.commitment() == m.clone().commitment()


def test_a_record_from_before_commitments_still_loads_and_scores():
    m = start_match("schieberamsch", seed=5, n_deals=2)
    play_out(m, random.Random(5))
    old = m.export()
    for deal in old["deals"]:
        del deal["commitment"], deal["salt"]
    assert score_record(old) == m.result()
    # nothing is invented for it: no salt was ever committed to
    assert replay_record(old).export() == old


def test_a_malformed_salt_in_a_record_is_ignored():
    m = start_match("mediatore", seed=5)
    play_out(m, random.Random(5))
    record = m.export()
    record["deals"][0]["salt"] = ["not", "a", "salt"]
    record["deals"][0]["commitment"] = 7
    assert score_record(record) == m.result()
    assert "salt" not in replay_record(record).export()["deals"][0]
