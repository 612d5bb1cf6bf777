"""The farming patterns, pure (league.fairplay.farming): what is a flag and what is not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from league.fairplay.farming import Account, Match, Thresholds, find_flags

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
LIMITS = Thresholds()


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def match(n: int, players, hours: float = 0, forfeited=(), winners=(0,)) -> Match:
    return Match(n, at(hours), tuple(players), frozenset(forfeited), frozenset(winners))


def kinds(flags) -> list[tuple[str, tuple[int, int]]]:
    return [(f.kind, f.pair) for f in flags]


def test_one_account_resigning_tables_the_other_wins_is_feeding():
    # 1 wins, 2 resigns, a bot (None) in the third seat: three times.
    fed = [match(n, [1, 2, None], n, forfeited=[1], winners=[0]) for n in range(3)]
    flags = find_flags(fed, {})
    assert ("feeding", (1, 2)) in kinds(flags)
    (feeding,) = [f for f in flags if f.kind == "feeding"]
    assert feeding.evidence == {"from": 2, "to": 1, "tables": 3}
    assert feeding.matches == [0, 1, 2]
    # Twice is not yet a pattern; nor is resigning tables someone else won.
    assert not find_flags(fed[:2], {})
    other = [match(n, [1, 2, 3], n, forfeited=[1], winners=[2]) for n in range(3)]
    fed_to = [f.evidence["to"] for f in find_flags(other, {}) if f.kind == "feeding"]
    assert fed_to == [3]


def test_the_same_two_meeting_again_and_again_and_almost_only_each_other_is_repeated():
    pair = [match(n, [1, 2, None], n) for n in range(5)]
    assert kinds(find_flags(pair, {})) == [("repeated", (1, 2))]
    # Spread over more than the window, no five fall in one: not a pattern.
    spread = [match(n, [1, 2, None], n * 24 * 2) for n in range(5)]
    assert not find_flags(spread, {})


def test_club_regulars_who_also_meet_others_are_not_repeated():
    """Five tables of 1 and 2 in a week, but each also played twelve tables with others."""
    pair = [match(n, [1, 2, None], n) for n in range(5)]
    others = [match(10 + n, [1, 10 + n, None], n) for n in range(6)]
    others += [match(20 + n, [2, 20 + n, None], n) for n in range(6)]
    assert "repeated" not in [k for k, _ in kinds(find_flags(pair + others, {}))]


def test_one_network_or_accounts_made_together_are_named_only_beside_a_pattern_of_play():
    accounts = {
        1: Account(created_at=T0, networks=frozenset({"n1"})),
        2: Account(created_at=T0 + timedelta(minutes=5), networks=frozenset({"n1", "n2"})),
        3: Account(created_at=T0 + timedelta(days=30), networks=frozenset({"n3"})),
    }
    friends = [match(n, [1, 2, None], n * 24 * 3) for n in range(3)]  # days apart, no feeding
    assert not find_flags(friends, accounts)
    fed = [match(n, [1, 2, None], n * 24 * 3, forfeited=[1]) for n in range(3)]
    flags = find_flags(fed, accounts)
    assert kinds(flags) == [("feeding", (1, 2)), ("network", (1, 2)), ("together", (1, 2))]
    assert flags[2].evidence == {"minutes": 5}
    strangers = [match(n, [1, 3, None], n * 24 * 3, forfeited=[1]) for n in range(3)]
    assert kinds(find_flags(strangers, accounts)) == [("feeding", (1, 3))]


def test_bots_seats_are_never_a_pair():
    bots = [match(n, [1, None, None], n, forfeited=[1]) for n in range(10)]
    assert not find_flags(bots, {})


tables = st.lists(
    st.tuples(
        st.lists(st.sampled_from([1, 2, 3, 4, None]), min_size=3, max_size=3),
        st.integers(0, 24 * 20),
        st.sets(st.integers(0, 2), max_size=1),
        st.sets(st.integers(0, 2), min_size=1, max_size=2),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(tables, st.randoms(use_true_random=False))
def test_flags_do_not_depend_on_the_order_told_and_name_only_matches_of_their_pair(rows, rnd):
    matches = [match(n, p, h, f, w) for n, (p, h, f, w) in enumerate(rows)]
    accounts = {p: Account(created_at=T0, networks=frozenset({"n"})) for p in (1, 2, 3, 4)}
    flags = find_flags(matches, accounts)
    shuffled = matches[:]
    rnd.shuffle(shuffled)
    assert [(f.kind, f.pair, f.matches, f.evidence) for f in find_flags(shuffled, accounts)] == [
        (f.kind, f.pair, f.matches, f.evidence) for f in flags
    ]
    by_id = {m.id: m for m in matches}
    for flag in flags:
        assert flag.pair[0] < flag.pair[1]
        for i in flag.matches:
            assert set(flag.pair) <= set(by_id[i].players)
