"""The format registry: every registered format plans rounds, and says what the league's
services ask it (who advances, late entries, waiting for results, the final, previews)."""

import subprocess
import sys

import pytest

from league.draws import draw_order
from league.scheduling import (
    PairHistory,
    PlayerRecord,
    RoundPlan,
    SchedulingError,
    TableResult,
    get_format,
    plan_round,
    register,
)
from league.scheduling.formats import Format, formats
from league.scheduling.preview import preview_event, previewable_formats
from tests.scheduling.helpers import assert_everyone_once_per_round

FIELDS = [(3, 3), (4, 3), (5, 3), (4, 4), (5, 4), (7, 4)]  # (players, table size)


def records(n: int) -> list[PlayerRecord]:
    return [PlayerRecord(id=100 + i, position=i + 1) for i in range(n)]


def test_the_built_in_formats_in_the_order_forms_offer_them():
    assert [f.name for f in formats()] == ["league", "swiss", "knockout"]
    assert [f.title for f in formats()] == ["League", "Swiss", "Knockout"]


@pytest.mark.parametrize("fmt", [f.name for f in formats()])
@pytest.mark.parametrize(("n", "k"), FIELDS)
@pytest.mark.parametrize("leftover", ["bye", "bot"])
def test_every_registered_format_plans_a_first_round(fmt, n, k, leftover):
    players = records(n)
    plan = plan_round(players, PairHistory(), k, fmt, 1, leftover, seed=3)
    assert_everyone_once_per_round([plan], [p.id for p in players])
    assert all(len(t) == k for t in plan.tables)
    if leftover == "bot":
        assert not plan.byes
    else:
        assert all(None not in t for t in plan.tables)
        assert len(plan.byes) == n % k


@pytest.mark.parametrize(
    ("name", "late_entries", "needs_results", "short_field", "can_preview"),
    [
        ("league", True, False, False, True),
        ("swiss", True, True, False, True),
        ("knockout", False, True, True, False),
    ],
)
def test_the_rules_each_format_gives_the_services(
    name, late_entries, needs_results, short_field, can_preview
):
    fmt = get_format(name)
    assert fmt.late_entries is late_entries
    assert fmt.needs_results is needs_results
    assert fmt.short_field is short_field
    assert fmt.can_preview is can_preview


def test_only_the_knockout_plays_a_short_field_with_bots():
    short = records(2)
    plan = plan_round(short, PairHistory(), 3, "knockout", 2, leftover="bot")
    assert sorted(plan.tables[0], key=lambda p: (p is None, p)) == [100, 101, None]
    for name in ("league", "swiss"):
        with pytest.raises(SchedulingError, match="cannot fill a table of 3"):
            plan_round(short, PairHistory(), 3, name, 1, leftover="bot")


def test_knockout_advancers_winners_first_then_payout_bots_never_byes_go_through():
    tables = [
        # a bot won: the best person after it goes on
        TableResult(seats=(None, 5, 7), winners=frozenset({0}), payouts=(9, -2, -7)),
        # two winners: the higher payout goes on
        TableResult(seats=(1, 2, 3), winners=frozenset({0, 2}), payouts=(1, -4, 3)),
        # a winner with a lower payout than a loser still goes on first
        TableResult(seats=(4, 6, 8), winners=frozenset({2}), payouts=(5, 0, -5)),
        # level on payout, nobody winning, no totals given: the event's draw (seed 0)
        TableResult(seats=(12, 11, 10), winners=frozenset(), payouts=(0, 0, 0)),
    ]
    drawn = draw_order(0, [10, 11, 12])[0]
    assert get_format("knockout").advancers(tables, [20, 21]) == [5, 3, 8, drawn, 20, 21]
    assert tables[0].finishing_order() == [5, 7]


def test_league_and_swiss_keep_everyone_in():
    table = TableResult(seats=(1, 2, 3), winners=frozenset({0}), payouts=(2, -1, -1))
    for name in ("league", "swiss"):
        assert get_format(name).advancers([table], [4]) is None


def test_only_a_knockout_round_of_one_table_without_byes_decides_the_event():
    final = RoundPlan(((1, 2, 3),))
    knockout = get_format("knockout")
    assert knockout.is_decided(final)
    assert not knockout.is_decided(RoundPlan(((1, 2, 3),), byes=(4,)))
    assert not knockout.is_decided(RoundPlan(((1, 2, 3), (4, 5, 6))))
    assert not get_format("league").is_decided(final)
    assert not get_format("swiss").is_decided(final)


def test_previews_cover_league_and_swiss_and_the_knockout_says_it_cannot():
    assert previewable_formats() == ["league", "swiss"]
    assert len(preview_event(9, 3, 4, "league").rounds) == 4
    assert len(preview_event(9, 3, 4, "swiss", seed=2).rounds) == 4
    with pytest.raises(SchedulingError, match="Previews cover league and swiss events"):
        preview_event(9, 3, 2, "knockout")


def test_an_unknown_format_names_the_registered_ones():
    with pytest.raises(SchedulingError, match="choose one of league, swiss, knockout"):
        get_format("ladder")
    with pytest.raises(SchedulingError, match="Unknown format"):
        get_format(None)


class _Named(Format):
    label = "x"
    title = "X"

    def __init__(self, name):
        self.name = name


@pytest.mark.parametrize("name", ["", "Swiss", "a-b", "thirteen_char", 7])
def test_a_format_name_must_fit_the_event_column(name):
    with pytest.raises(ValueError, match="lowercase"):
        register(_Named(name))


def test_a_name_is_registered_once():
    with pytest.raises(ValueError, match="registered already"):
        register(_Named("swiss"))
    assert get_format("swiss").title == "Swiss"


def test_the_scheduler_and_its_formats_import_no_django():
    code = (
        "import sys, league.scheduling, league.scheduling.preview; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
