from league.scheduling import PairHistory, PlayerRecord, plan_round, swiss_round


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
