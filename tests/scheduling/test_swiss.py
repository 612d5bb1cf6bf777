import pytest

from league.scheduling import PairHistory, PlayerRecord, plan_round, swiss_round
from league.scheduling.preview import simulate_swiss


def standings(n, **extra):
    return [PlayerRecord(id=p, position=p + 1, **extra) for p in range(n)]


def test_first_round_puts_neighbours_in_the_standings_together():
    plan = swiss_round(standings(9), PairHistory(), 3, "bye")
    assert [sorted(t) for t in plan.tables] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_rematch_is_avoided_by_the_smallest_move_down_the_standings():
    history = PairHistory.from_tables([[0, 1, 5]])
    plan = swiss_round(standings(9), history, 3, "bye")
    assert sorted(plan.tables[0]) == [0, 2, 3]
    assert all(not (1 in t and 5 in t) for t in plan.tables)


def test_byes_go_to_the_lowest_placed_player_without_one():
    players = standings(10)
    players[9] = PlayerRecord(id=9, position=10, byes=1)
    plan = swiss_round(players, PairHistory(), 3, "bye")
    assert plan.byes == (8,)


def test_bot_seats_go_to_the_bottom_tables():
    plan = swiss_round(standings(10), PairHistory(), 4, "bot")
    assert [t.count(None) for t in plan.tables] == [0, 1, 1]
    assert sorted(p for p in plan.tables[0]) == [0, 1, 2, 3]


def test_seats_go_to_whoever_held_them_least():
    players = [
        PlayerRecord(id=0, position=1, seat_counts=(1, 0, 0)),
        PlayerRecord(id=1, position=2, seat_counts=(0, 1, 0)),
        PlayerRecord(id=2, position=3, seat_counts=(0, 0, 1)),
    ]
    plan = plan_round(players, PairHistory(), 3, "swiss", 2)
    table = plan.tables[0]
    assert all(players[p].seat_counts[seat] == 0 for seat, p in enumerate(table))


def test_three_thousand_players_with_history_get_tables_without_rematches():
    n = 3000
    history = PairHistory.from_tables([[p, p + 1, p + 2] for p in range(0, n, 3)])
    plan = swiss_round(standings(n), history, 3, "bye")
    assert len(plan.tables) == 1000
    assert all(history.count(a, b) == 0 for t in plan.tables for a in t for b in t if a != b)


def test_players_who_lack_the_same_seat_are_not_seated_together_when_a_neighbour_fits():
    # 0, 1, 2 all dealt first twice: together one of them would deal first a third time.
    # The smallest move down the standings that fixes it: 2 swaps with 3.
    counts = [(2, 1, 1), (2, 1, 1), (2, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 1)]
    players = [PlayerRecord(id=p, position=p + 1, seat_counts=c) for p, c in enumerate(counts)]
    plan = swiss_round(players, PairHistory(), 3, "bye")
    assert [sorted(t) for t in plan.tables] == [[0, 1, 3], [2, 4, 5]]
    for table in plan.tables:
        for seat, p in enumerate(table):
            after = list(counts[p])
            after[seat] += 1
            assert max(after) - min(after) <= 1


def seat_spreads(plans, table_size):
    seats: dict[int, list[int]] = {}
    for plan in plans:
        for table in plan.tables:
            for seat, p in enumerate(table):
                if p is not None:
                    seats.setdefault(p, [0] * table_size)[seat] += 1
        yield [max(c) - min(c) for c in seats.values()]


@pytest.mark.parametrize(("n", "k"), [(3000, 3), (301, 3), (100, 4), (31, 3)])
def test_swiss_seats_stay_within_two_and_almost_all_within_one(n, k):
    # Within one for everybody is not always possible with tables of standings neighbours;
    # the standings come first (a table's scores), seats second, so two is the worst, and
    # over the event few are at two: about one in ten or fewer after an average round (a
    # round where a score group's players lack the same seat can leave more, up to a third
    # of 100 in fours, and the next rounds even them out).
    at_two = []
    for spreads in seat_spreads(simulate_swiss(n, k, 9, seed=1), k):
        assert max(spreads) <= 2
        at_two.append(sum(s > 1 for s in spreads))
    assert sum(at_two) / len(at_two) <= 0.12 * n
    assert at_two[-1] <= 0.35 * n
