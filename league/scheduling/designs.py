"""Resolvable designs: whole-event schedules in which no two players ever meet twice.

Each design is stored as a small *base* (a difference family, or for 32 a list of subspaces)
and developed by adding a group element, which is how the literature writes them down
(Handbook of Combinatorial Designs, ch. II.7 and VII.6). The bases below were found once by
small offline searches (not shipped: the runtime needs only the bases) and are checked by
tests/scheduling/test_designs.py: every round is a partition of the players and no pair
meets twice.

- Kirkman triple systems KTS(v), v = 9, 15, ..., 39: every pair meets exactly once in (v-1)/2
  rounds of tables of three (15 is Kirkman's schoolgirl problem).
- Nearly Kirkman triple systems NKTS(v), v = 18, 24, 30, 36: (v-2)/2 rounds of threes; v/2
  fixed pairs never meet, everybody else meets exactly once. NKTS(6) and NKTS(12) do not exist.
- Resolvable (v,4,1) designs, v = 16, 28, 40: every pair meets once in (v-1)/3 rounds of
  fours (16 is the affine plane AG(2,4); 40 has the parameters of PG(3,3)).
- 4-RGDDs of type 3^8 and 3^12: 24 players in fours for 7 rounds, 36 for 11 (the counting
  bound); each player never meets two others. Bases found offline by a search for base rounds
  that use every difference at most once (see docs/scheduling.md).
- 32 players in fours: 9 affine rounds over GF(2)^5 (cosets of 9 pairwise disjoint 2-dim
  subspaces); each player never meets four others. The best known is 10 rounds (Aguado 2004),
  which this construction cannot reach.
"""

from __future__ import annotations

Round = list[tuple[int, ...]]

# 1-rotational designs: points Z_(v-1) and one fixed point inf = v-1. With r = (v-1)/(k-1),
# the first round is {inf, 0, r, 2r, ...} plus each base block B shifted by 0, r, 2r, ...;
# round t adds t (mod v-1) to every finite point.
_ONE_ROTATIONAL: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (9, 3): ((1, 2, 7),),
    (27, 3): ((1, 2, 4), (3, 8, 23), (5, 12, 22), (6, 20, 24)),
    (33, 3): ((1, 2, 4), (3, 10, 14), (5, 11, 29), (6, 15, 25), (7, 12, 24)),
    (16, 4): ((1, 3, 4, 12),),
    (40, 4): ((1, 18, 21, 25), (2, 10, 11, 16), (4, 20, 22, 32)),
}

# Cyclically developed resolutions: point p < c*m stands for (p mod m) in class p // m and
# moves to (p + t mod m) in the same class; points >= c*m are fixed. Each base round below is
# developed by t = 0..m-1, so a design with b base rounds has b*m rounds.
_CYCLIC: dict[tuple[int, int], tuple[int, int, tuple[tuple[tuple[int, ...], ...], ...]]] = {
    # (v, k): (m, c*m, base rounds)
    (15, 3): (7, 14, (((1, 7, 14), (0, 2, 9), (3, 6, 11), (4, 5, 8), (10, 12, 13)),)),
    (21, 3): (
        5,
        20,
        (
            (
                (10, 18, 20),
                (0, 2, 9),
                (1, 11, 13),
                (3, 14, 19),
                (4, 5, 12),
                (6, 7, 17),
                (8, 15, 16),
            ),
            (
                (4, 7, 20),
                (0, 15, 17),
                (1, 6, 10),
                (2, 3, 16),
                (5, 8, 11),
                (9, 14, 18),
                (12, 13, 19),
            ),
        ),
    ),
    (39, 3): (
        19,
        38,
        (
            (
                (13, 29, 38),
                (0, 27, 31),
                (1, 6, 24),
                (2, 9, 19),
                (3, 33, 36),
                (4, 26, 28),
                (5, 18, 20),
                (7, 15, 17),
                (8, 21, 34),
                (10, 11, 14),
                (12, 32, 37),
                (16, 25, 35),
                (22, 23, 30),
            ),
        ),
    ),
    (28, 4): (
        9,
        27,
        (
            (
                (3, 13, 22, 27),
                (0, 1, 6, 12),
                (2, 4, 9, 20),
                (5, 14, 18, 26),
                (7, 11, 15, 21),
                (8, 19, 23, 25),
                (10, 16, 17, 24),
            ),
        ),
    ),
    # 4-RGDDs of type 3^8 and 3^12 (24 and 36 players in fours, 7 and 11 rounds): points
    # Z_m x {0,1,2} plus three fixed points; each fixed point sits with one point of every
    # class, and each player misses exactly two others (a "group" of three: the fixed points,
    # and one triple per shift among the finite points). The 36 base round is also invariant
    # under cycling the classes (x, c) -> (x, c+1) together with the fixed points.
    (24, 4): (
        7,
        21,
        (
            (
                (21, 0, 7, 14),
                (22, 13, 15, 2),
                (23, 4, 20, 10),
                (1, 16, 18, 19),
                (8, 6, 5, 3),
                (9, 17, 11, 12),
            ),
        ),
    ),
    (36, 4): (
        11,
        33,
        (
            (
                (33, 0, 12, 25),
                (34, 11, 23, 3),
                (35, 22, 1, 14),
                (6, 7, 9, 13),
                (17, 18, 20, 24),
                (28, 29, 31, 2),
                (5, 10, 15, 19),
                (16, 21, 26, 30),
                (27, 32, 4, 8),
            ),
        ),
    ),
    # Nearly Kirkman: the pairs that never meet are the two fixed points and, for 24 and 36,
    # (x, x') across classes 0/1; for 30 across 0/1 and 2/3; for 18 (x, x+2) inside a class.
    (18, 3): (
        4,
        16,
        (
            ((1, 5, 16), (2, 14, 17), (0, 8, 15), (3, 6, 9), (4, 7, 13), (10, 11, 12)),
            ((9, 13, 16), (6, 8, 17), (0, 1, 14), (2, 7, 11), (3, 5, 10), (4, 12, 15)),
        ),
    ),
    (24, 3): (
        11,
        22,
        (
            (
                (10, 17, 22),
                (4, 20, 23),
                (0, 2, 12),
                (1, 7, 8),
                (3, 16, 18),
                (5, 13, 19),
                (6, 9, 15),
                (11, 14, 21),
            ),
        ),
    ),
    (30, 3): (
        7,
        28,
        (
            (
                (5, 22, 28),
                (7, 23, 29),
                (0, 15, 21),
                (1, 18, 27),
                (2, 6, 12),
                (3, 8, 11),
                (4, 24, 26),
                (9, 14, 20),
                (10, 17, 25),
                (13, 16, 19),
            ),
            (
                (12, 14, 28),
                (0, 19, 29),
                (1, 6, 24),
                (2, 18, 20),
                (3, 4, 17),
                (5, 7, 9),
                (8, 16, 21),
                (10, 11, 22),
                (13, 23, 27),
                (15, 25, 26),
            ),
        ),
    ),
    (36, 3): (
        17,
        34,
        (
            (
                (1, 26, 34),
                (14, 19, 35),
                (0, 11, 29),
                (2, 16, 32),
                (3, 22, 27),
                (4, 12, 18),
                (5, 9, 20),
                (6, 7, 33),
                (8, 13, 15),
                (10, 30, 31),
                (17, 23, 25),
                (21, 24, 28),
            ),
        ),
    ),
}


# Affine rounds over GF(2)^5 (32 players in fours): player p is the 5-bit vector p, and each
# round is the 8 cosets {x, x^a, x^b, x^a^b} of one 2-dim subspace spanned by (a, b). Two rounds
# share a pair only if their subspaces share a nonzero vector, so the 9 subspaces below are
# pairwise disjoint lines of PG(4,2) (a partial line spread; 9 is the largest one, so this
# construction cannot give the 10 rounds the counting bound allows).
_AFFINE: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
    (32, 4): ((1, 2), (4, 8), (5, 10), (6, 16), (7, 18), (9, 17), (11, 20), (13, 19), (14, 23)),
}


def design_orders(table_size: int) -> list[int]:
    """Player counts for which a stored design exists, for tables of `table_size`."""
    keys = set(_ONE_ROTATIONAL) | set(_CYCLIC) | set(_AFFINE)
    return sorted(v for v, k in keys if k == table_size)


def design_rounds(n_players: int, table_size: int) -> list[Round] | None:
    """The stored design's rounds on points 0..n-1, or None when there is none for (n, k)."""
    key = (n_players, table_size)
    if key in _ONE_ROTATIONAL:
        return _develop_one_rotational(n_players, table_size, _ONE_ROTATIONAL[key])
    if key in _CYCLIC:
        m, finite, bases = _CYCLIC[key]
        return _develop_cyclic(m, finite, bases)
    if key in _AFFINE:
        return [_cosets(n_players, a, b) for a, b in _AFFINE[key]]
    return None


def _cosets(n: int, a: int, b: int) -> Round:
    seen: set[int] = set()
    tables: Round = []
    for x in range(n):
        if x not in seen:
            table = (x, x ^ a, x ^ b, x ^ a ^ b)
            seen.update(table)
            tables.append(table)
    return tables


def _develop_one_rotational(v: int, k: int, blocks: tuple[tuple[int, ...], ...]) -> list[Round]:
    n = v - 1
    r = n // (k - 1)
    inf = v - 1
    first: Round = [(inf, *(i * r for i in range(k - 1)))]
    first += [tuple((x + i * r) % n for x in b) for b in blocks for i in range(k - 1)]
    return [
        [tuple(p if p == inf else (p + t) % n for p in table) for table in first] for t in range(r)
    ]


def _develop_cyclic(
    m: int, finite: int, bases: tuple[tuple[tuple[int, ...], ...], ...]
) -> list[Round]:
    def shift(p: int, t: int) -> int:
        return p if p >= finite else (p // m) * m + (p % m + t) % m

    return [
        [tuple(shift(p, t) for p in table) for table in base] for base in bases for t in range(m)
    ]
