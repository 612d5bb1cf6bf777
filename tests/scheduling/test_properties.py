"""Properties that must hold for any field size, table size and event length."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.scheduling import build_league_schedule, plan_round, schedule_quality
from league.scheduling.records import PairHistory, PlayerRecord

from .helpers import assert_everyone_once_per_round, bye_counts

fields = st.tuples(st.sampled_from([3, 4]), st.integers(0, 13), st.integers(1, 6))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields, leftover=st.sampled_from(["bye", "bot"]), seed=st.integers(0, 3))
def test_league_schedules_seat_everyone_once_and_rotate_byes(field, leftover, seed):
    k, extra, rounds = field
    players = list(range(k + extra))
    schedule = build_league_schedule(players, k, rounds, seed=seed, leftover=leftover)
    assert_everyone_once_per_round(schedule, players)
    byes = bye_counts(schedule, players)
    assert max(byes.values()) - min(byes.values()) <= 1
    for plan in schedule:
        assert all(len(t) == k for t in plan.tables)
        if leftover == "bot":
            assert not plan.byes
            assert all(t.count(None) < k - 1 or len(players) < 2 * k for t in plan.tables)
    # Seats. Guaranteed when nobody sits out (Kőnig colouring of each block of k rounds):
    # within one after every round. With byes the repair search is measured, not proven.
    in_step = leftover == "bot" or len(players) % k == 0
    for r in range(1, rounds + 1):
        imbalance = schedule_quality(schedule[:r], players, k).seat_imbalance
        assert imbalance <= (1 if in_step else 2)


@settings(max_examples=30, deadline=None)
@given(
    k=st.sampled_from([3, 4]),
    n=st.integers(3, 60),
    rounds=st.integers(1, 5),
    leftover=st.sampled_from(["bye", "bot"]),
)
def test_swiss_rounds_seat_everyone_once_and_share_byes_fairly(k, n, rounds, leftover):
    if n < k:
        n = k
    players = list(range(n))
    played: list = []
    byes = dict.fromkeys(players, 0)
    for round_no in range(1, rounds + 1):
        records = [PlayerRecord(id=p, position=p + 1, byes=byes[p]) for p in players]
        history = PairHistory.from_rounds(played)
        plan = plan_round(records, history, k, "swiss", round_no, leftover)
        assert_everyone_once_per_round([plan], players)
        for p in plan.byes:
            byes[p] += 1
        assert max(byes.values()) - min(byes.values()) <= 1
        played.append(plan)
