from itertools import combinations

import pytest

from league.scheduling import design_orders, design_rounds


@pytest.mark.parametrize(
    ("n", "k"), [(n, 3) for n in design_orders(3)] + [(n, 4) for n in design_orders(4)]
)
def test_every_stored_design_is_resolvable_with_no_pair_twice(n, k):
    rounds = design_rounds(n, k)
    met = set()
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert all(len(t) == k for t in tables)
        for t in tables:
            for pair in combinations(sorted(t), 2):
                assert pair not in met
                met.add(pair)
    if n % 6 == 3 or k == 4:  # Kirkman / resolvable (v,4,1): every pair meets exactly once
        assert len(met) == n * (n - 1) // 2
        assert len(rounds) == (n - 1) // (k - 1)
    else:  # nearly Kirkman: all pairs but n/2 meet
        assert len(met) == n * (n - 1) // 2 - n // 2
        assert len(rounds) == (n - 2) // 2


def test_the_kirkman_and_affine_orders_are_all_there():
    assert design_orders(3) == [9, 15, 18, 21, 24, 27, 30, 33, 36, 39]
    assert design_orders(4) == [16, 28, 40]
    assert design_rounds(12, 3) is None
