from league.scheduling import PairHistory, PlayerRecord, advancers, is_final, plan_round
from league.scheduling.knockout import knockout_round


def test_the_top_of_each_table_advances_winners_first():
    results = [[5, 1, 7], [2, 8, 0], [4, 3, 6]]
    assert advancers(results) == [5, 2, 4]
    assert advancers(results, per_table=2) == [5, 2, 4, 1, 8, 3]


def test_winners_of_the_previous_round_are_spread_over_the_tables():
    results = [[t * 3, t * 3 + 1, t * 3 + 2] for t in range(6)]  # six tables of three
    seeds = advancers(results, per_table=2)  # 12 players go on
    plan = knockout_round(seeds, 3, PairHistory.from_tables(results), "bye")
    winners = {r[0] for r in results}
    assert len(plan.tables) == 4
    assert all(1 <= sum(p in winners for p in t) <= 2 for t in plan.tables)
    # nobody sits again with someone from their previous table
    history = PairHistory.from_tables(results)
    assert all(history.count(a, b) == 0 for t in plan.tables for a in t for b in t if a != b)


def test_rounds_shrink_to_one_final_table():
    field = list(range(27))
    rounds = 0
    while not is_final(len(field), 3):
        plan = knockout_round(field, 3, PairHistory(), "bye")
        field = advancers([list(t) for t in plan.tables])
        rounds += 1
    final = knockout_round(field, 3, PairHistory(), "bye")
    assert rounds == 2
    assert len(final.tables) == 1
    assert sorted(final.tables[0]) == sorted(field)


def test_a_final_short_of_players_is_filled_with_bots():
    players = [PlayerRecord(id=p, position=p + 1) for p in range(3)]
    plan = plan_round(players, PairHistory(), 4, "knockout", 3, leftover="bot")
    assert sorted(plan.tables[0], key=lambda p: (p is None, p)) == [0, 1, 2, None]
