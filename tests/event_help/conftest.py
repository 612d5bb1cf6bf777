"""Personas of the league tests (alice organizes, bob plays, charlie is an outsider) and an
event with results: two rounds of Saichugen, two deals a match, so the ledger has rows."""

from __future__ import annotations

import pytest

from league.models import Event
from tests.league.conftest import alice, bob, charlie, make_event, play_round  # noqa: F401

ALL_TIEBREAKS_SHUFFLED = [
    "lot",
    "head_to_head",
    "opponents_average_payout",
    "wins",
    "total_payouts",
    "match_points",
]


@pytest.fixture
def played(request) -> Event:
    """A published Swiss event of six players with two rounds played and every tie-break, in
    an order of its own (not the registry's)."""
    build, organizer = request.getfixturevalue("make_event"), request.getfixturevalue("alice")
    event = build("saichugen", players=6, deals_per_match=2, tiebreaks=ALL_TIEBREAKS_SHUFFLED)
    play_round(event, organizer)
    play_round(event, organizer, seed=10)
    return event
