import pytest

from league.scheduling import (
    PairHistory,
    PlayerRecord,
    RoundPlan,
    SchedulingError,
    build_league_schedule,
    plan_round,
)


def records_after(rounds: list[RoundPlan], ids: list[int], k: int) -> list[PlayerRecord]:
    seats = {p: [0] * k for p in ids}
    byes = dict.fromkeys(ids, 0)
    for plan in rounds:
        for t in plan.tables:
            for s, p in enumerate(t):
                if p is not None and p in seats:
                    seats[p][s] += 1
        for p in plan.byes:
            byes[p] = byes.get(p, 0) + 1
    return [PlayerRecord(id=p, seat_counts=tuple(seats[p]), byes=byes[p]) for p in ids]


def test_league_rounds_follow_the_precomputed_schedule():
    ids = [11, 22, 33, 44, 55, 66, 77, 88, 99]
    schedule = build_league_schedule(ids, 3, 4, seed=7)
    for r in range(1, 5):
        played = schedule[: r - 1]
        plan = plan_round(
            records_after(played, ids, 3), PairHistory.from_rounds(played), 3, "league", r, "bye", 7
        )
        assert plan == schedule[r - 1]


def test_after_a_withdrawal_the_round_avoids_rematches_from_history():
    ids = list(range(13))
    schedule = build_league_schedule(ids, 3, 3, seed=1)
    remaining = [p for p in ids if p != 12]  # 12 players now: four tables, no byes
    history = PairHistory.from_rounds(schedule)
    plan = plan_round(records_after(schedule, remaining, 3), history, 3, "league", 4, "bye", 1)
    assert sorted(plan.players()) == remaining
    assert all(history.count(a, b) == 0 for t in plan.tables for a in t for b in t if a != b)


def test_a_late_entry_is_seated_and_byes_go_to_those_without_one():
    ids = list(range(12))
    schedule = build_league_schedule(ids, 3, 2, seed=3)
    late = [*ids, 12]  # 13 players: one bye
    records = records_after(schedule, late, 3)
    records[0] = PlayerRecord(id=0, seat_counts=records[0].seat_counts, byes=1)
    plan = plan_round(records, PairHistory.from_rounds(schedule), 3, "league", 3, "bye", 3)
    assert len(plan.byes) == 1
    assert plan.byes[0] != 0
    assert 12 in plan.players()


@pytest.mark.parametrize(
    ("ids", "k", "fmt", "round_no", "message"),
    [
        ([1, 2, 3, 4, 5], 5, "league", 1, "3 or 4"),
        ([1, 2], 3, "league", 1, "cannot fill a table of 3"),
        ([1, 2, 3], 3, "league", 0, "at least one round"),
        ([1, 2, 2, 3], 3, "swiss", 1, "repeated: 2"),
        ([1, 2, 3], 3, "ladder", 1, "Unknown format"),
    ],
)
def test_invalid_input_gets_a_clear_error(ids, k, fmt, round_no, message):
    players = [PlayerRecord(id=p, position=i + 1) for i, p in enumerate(ids)]
    with pytest.raises(SchedulingError, match=message):
        plan_round(players, PairHistory(), k, fmt, round_no)


def test_invalid_rounds_for_a_whole_schedule_is_a_value_error_too():
    with pytest.raises(ValueError, match="at least one round"):
        build_league_schedule([1, 2, 3], 3, 0)
