"""Shared checks: what every valid schedule must satisfy."""

from collections import Counter

from league.scheduling import PairHistory, RoundPlan


def assert_everyone_once_per_round(rounds: list[RoundPlan], players: list[int]) -> None:
    for plan in rounds:
        seen = plan.players() + list(plan.byes)
        assert sorted(seen) == sorted(players), "each player sits at one table or has a bye"


def max_meetings(rounds: list[RoundPlan]) -> int:
    return max(PairHistory.from_rounds(rounds).meetings.values(), default=0)


def bye_counts(rounds: list[RoundPlan], players: list[int]) -> Counter:
    counts = Counter(dict.fromkeys(players, 0))
    for plan in rounds:
        counts.update(plan.byes)
    return counts
