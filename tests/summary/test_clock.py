"""The first turn of a new deal gets `GAMEPLAY_DEAL_SUMMARY_SECONDS` more on its clock: the time
the page shows the summary of the deal that just ended (one setting for both)."""

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


def test_the_extra_time_is_for_a_new_deal_only():
    assert clock.deal_start_extra(0, 1, False, 20) == 20  # the action ended deal 0, deal 1 dealt
    assert clock.deal_start_extra(1, 1, False, 20) == 0  # the same deal goes on
    assert clock.deal_start_extra(2, 2, True, 20) == 0  # the action ended the match


def test_a_fresh_deadline_gets_the_extra_time_and_a_running_one_keeps_its_own():
    fresh = clock.next_deadline([0], [1], NOW, NOW, 15, actor=0, extra=20)
    assert fresh == NOW + timedelta(seconds=35)
    # Saichugen: the other seats of the same decision keep the deadline (extra included).
    kept = clock.next_deadline([0, 1, 2], [1, 2], fresh, NOW + timedelta(seconds=3), 15, 0, 20)
    assert kept == fresh
    assert clock.next_deadline([0], [1], None, NOW, 0, actor=0, extra=20) is None  # no clock


def test_the_setting_is_read_where_it_is_used(settings):
    assert summaries.summary_seconds() == 20  # the default
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
def test_the_action_that_deals_a_new_deal_gives_its_first_turn_the_extra_time(
    game, claims, settings
):
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
    for before, c in zip([None, *claims], claims, strict=False):
        if c["deadline"] is None:
            assert c.get("status") == "finished"  # the last action: no clock any more
            continue
        allowed = (c["deadline"] - c["updated_at"]).total_seconds()
        if c in ends:
            assert allowed == pytest.approx(15 + 9)
        elif before is not None and c["deadline"] != before["deadline"]:
            assert allowed == pytest.approx(15), c["seq"]  # a fresh clock: no extra
        else:  # the same decision goes on (Saichugen's other commits): its deadline is kept
            assert allowed < 15 + 9


def _deal_ended(claims: list[dict], c: dict) -> bool:
    """Did the action claimed in `c` end a deal (the state's results grew)?"""
    state = json.loads(c["state"].text)["state"]
    i = claims.index(c)
    before = json.loads(claims[i - 1]["state"].text)["state"]["results"] if i else []
    return len(state["results"]) > len(before)
