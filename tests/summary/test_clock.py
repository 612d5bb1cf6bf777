"""A new deal's summary holds a person's first clock of the deal until they dismiss it, up to
`GAMEPLAY_DEAL_SUMMARY_SECONDS` (the cap): the pure rules, and bots never held (the people's side
over the database: tests/gameplay/test_summary_hold.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from gameplay import clock
from gameplay.runtime import claim
from gameplay.services import summaries
from games import registry
from tests.gameplay.conftest import make_table

GAMES = [g.name for g in registry.games()]
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_a_new_deal_holds_the_clocks_up_to_the_cap():
    until = NOW + timedelta(seconds=60)
    assert clock.summary_until(0, 1, False, NOW, 60, 15) == until  # deal 0 ended, deal 1 dealt
    assert clock.summary_until(1, 1, False, NOW, 60, 15) is None  # the same deal goes on
    assert clock.summary_until(2, 2, True, NOW, 60, 15) is None  # the action ended the match
    assert clock.summary_until(0, 1, False, NOW, 60, 0) is None  # no clock to hold
    assert clock.summary_until(0, 1, False, NOW, 0, 15) is None  # the hold is turned off


def test_who_is_held_a_person_who_has_not_dismissed_the_summary():
    seats = [(0, False, 0), (1, True, 0), (2, False, 2)]  # (number, bot, ready_deal)
    assert clock.unready(seats, 2) == {0}  # the bot never, seat 2 said ready for deal 2
    assert clock.unready(seats, 3) == {0, 2}  # a new deal: ready again
    assert clock.unready(seats, 0) == set()  # the first deal has no summary


def test_the_later_hold_wins_and_a_held_clock_starts_at_its_end():
    grace_end, summary_end = NOW + timedelta(seconds=10), NOW + timedelta(seconds=50)
    assert clock.later(None, None) is None
    assert clock.later(grace_end, None) == grace_end
    assert clock.later(grace_end, summary_end) == summary_end
    starts_by = clock.clock_starts_by([1], {1}, summary_end, NOW)
    fresh = clock.next_deadline([0], [1], NOW, NOW, 15, actor=0, starts_by=starts_by)
    assert fresh == summary_end + timedelta(seconds=15)
    # Dismissed after 5 s: the clock starts then, its allowance whole.
    ready_at = NOW + timedelta(seconds=5)
    assert clock.connected_deadline(fresh, summary_end, ready_at) == ready_at + timedelta(
        seconds=15
    )
    assert clock.clock_starts_by([1], {2}, summary_end, NOW) is None  # seat 1 is not held


def test_the_setting_is_read_where_it_is_used(settings):
    assert summaries.summary_seconds() == 60  # the default cap
    settings.GAMEPLAY_DEAL_SUMMARY_SECONDS = 7
    assert summaries.summary_seconds() == 7


@pytest.fixture
def claims(monkeypatch):
    """Every claim's table fields (its `updated_at` is the move's `now`), in seq order."""
    seen: list[dict] = []
    real = claim.claim

    def capture(table_id, seq, fields, action_row, **options):
        ok = real(table_id, seq, fields, action_row, **options)
        if ok:
            seen.append({"seq": fields["seq"], **fields})
        return ok

    monkeypatch.setattr(claim, "claim", capture)
    return seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_the_action_that_deals_a_new_deal_holds_no_bot(game, claims, settings):
    """Bots are never held: every fresh clock at a bots' table is the plain allowance, and the
    action that deals a new deal sets the summary's hold (for the people) at now + the cap."""
    settings.GAMEPLAY_DEAL_SUMMARY_SECONDS = 9
    seats = registry.get_game(game).seats
    table = make_table(
        game=game,
        bots=[f"b{i}" for i in range(seats)],
        n_deals=2,
        seed=11,
        seconds_per_move=15,
    )
    table.refresh_from_db()
    ends = [c for c in claims if "record" not in c and _deal_ended(claims, c)]
    assert len(ends) == 1, "one deal end before the match's last"
    assert [c for c in claims if "summary_until" in c] == ends
    assert ends[0]["summary_until"] == ends[0]["updated_at"] + timedelta(seconds=9)
    for before, c in zip([None, *claims], claims, strict=False):
        if c["deadline"] is None:
            assert c.get("status") == "finished"  # the last action: no clock any more
            continue
        allowed = (c["deadline"] - c["updated_at"]).total_seconds()
        if before is not None and c["deadline"] != before["deadline"]:
            assert allowed == pytest.approx(15), c["seq"]  # a fresh clock: nothing held
        else:  # the same decision goes on (Saichugen's other commits): its deadline is kept
            assert allowed <= 15


def _deal_ended(claims: list[dict], c: dict) -> bool:
    """Did the action claimed in `c` end a deal (the state's results grew)?"""
    state = json.loads(c["state"].text)["state"]
    i = claims.index(c)
    before = json.loads(claims[i - 1]["state"].text)["state"]["results"] if i else []
    return len(state["results"]) > len(before)
