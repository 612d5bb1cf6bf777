"""Patterns of rating farming among accounts, found in the rated friendly matches (pure).

The eligibility rule and the repeat weights (league.ratings) make farming slow; these flags make
it visible, so a moderator can look before a farmed rating reaches the top of a board. Each flag
names a pair of accounts and the matches that show the pattern; the service holds those matches
(they do not change the ratings) until a moderator clears or voids them.

The patterns (docs/fair-play.md), each with its threshold in `Thresholds`:

- `repeated`: the same two accounts met at many rated tables in a short time, and those tables
  are most of one of them's rated play (a club's regulars meet often but also meet others);
- `feeding`: one account forfeited (resigned, or lost on time) rated tables that the other won,
  again and again;
- `network`: two accounts seen on the same client network;
- `together`: two accounts made within minutes of each other.

The last two are links, not play: friends who share a flat, or sign up together on a club
evening, are no farmers. They are filed only beside a pattern of play of the same pair
(`repeated` or `feeding`), as the evidence of who may stand behind it.

No ORM here: the service passes the matches and what it knows of the accounts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations

KINDS = ("repeated", "feeding", "network", "together")


@dataclass(frozen=True)
class Thresholds:
    """When a pattern becomes a flag (settings `FAIR_PLAY_*` override them)."""

    window: timedelta = timedelta(days=7)
    repeated_tables: int = 5  # meetings of the same pair within `window`
    repeated_share: float = 0.5  # ... that are at least this share of one account's tables
    feeding_tables: int = 3  # forfeits by one account at tables the other won
    together: timedelta = timedelta(hours=1)  # accounts made this close together


@dataclass(frozen=True)
class Match:
    """A rated friendly match as the flags see it: the accounts' players by seat (None for a
    seat held by a built-in bot), the forfeited seats and the winners' seats."""

    id: int
    at: datetime
    players: tuple[int | None, ...]
    forfeited: frozenset[int] = frozenset()
    winners: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Account:
    """What the flags know of one account's player: when it was made, its networks (keyed
    hashes, never an address)."""

    created_at: datetime | None = None
    networks: frozenset[str] = frozenset()


@dataclass
class Flag:
    """One pattern between two accounts' players, with the matches that show it."""

    kind: str
    pair: tuple[int, int]
    matches: list[int] = field(default_factory=list)
    evidence: dict = field(default_factory=dict)


def pairs_of(match: Match) -> list[tuple[int, int]]:
    """The pairs of accounts at a match (bots' seats left out), each ordered."""
    people = sorted({p for p in match.players if p is not None})
    return list(combinations(people, 2))


def find_flags(
    matches: Sequence[Match],
    accounts: Mapping[int, Account],
    limits: Thresholds = Thresholds(),
) -> list[Flag]:
    """Every flag the matches show, ordered by kind then pair. Deterministic."""
    ordered = sorted(matches, key=lambda m: (m.at, m.id))
    met: dict[tuple[int, int], list[Match]] = {}
    tables: dict[int, int] = {}
    for match in ordered:
        for pair in pairs_of(match):
            met.setdefault(pair, []).append(match)
        for p in {p for p in match.players if p is not None}:
            tables[p] = tables.get(p, 0) + 1
    flags: list[Flag] = []
    for pair, shared in sorted(met.items()):
        play = [*_repeated(pair, shared, tables, limits), *_feeding(pair, shared, limits)]
        if play:
            flags += play
            flags += _network(pair, shared, accounts)
            flags += _together(pair, shared, accounts, limits)
    return sorted(flags, key=lambda f: (KINDS.index(f.kind), f.pair))


def _repeated(
    pair: tuple[int, int], shared: list[Match], tables: Mapping[int, int], limits: Thresholds
) -> Iterable[Flag]:
    """The longest run of the pair's meetings inside one window, if long enough and if it is
    most of one of them's play."""
    best: list[Match] = []
    start = 0
    for end, match in enumerate(shared):
        while match.at - shared[start].at > limits.window:
            start += 1
        if end + 1 - start > len(best):
            best = shared[start : end + 1]
    if len(best) < limits.repeated_tables:
        return []
    share = max(len(shared) / tables[p] for p in pair)
    if share < limits.repeated_share:
        return []
    return [
        Flag(
            "repeated",
            pair,
            [m.id for m in best],
            {"tables": len(best), "share": round(share, 2), "days": limits.window.days},
        )
    ]


def _feeding(pair: tuple[int, int], shared: list[Match], limits: Thresholds) -> Iterable[Flag]:
    """For each direction: the tables one account forfeited and the other won."""
    flags = []
    for giver, taker in (pair, pair[::-1]):
        fed = [
            m
            for m in shared
            if any(m.players[s] == giver for s in m.forfeited)
            and any(m.players[s] == taker for s in m.winners)
        ]
        if len(fed) >= limits.feeding_tables:
            flags.append(
                Flag(
                    "feeding",
                    pair,
                    [m.id for m in fed],
                    {"from": giver, "to": taker, "tables": len(fed)},
                )
            )
    return flags


def _network(
    pair: tuple[int, int], shared: list[Match], accounts: Mapping[int, Account]
) -> Iterable[Flag]:
    a, b = (accounts.get(p, Account()) for p in pair)
    common = a.networks & b.networks
    if not common:
        return []
    return [Flag("network", pair, [m.id for m in shared], {"networks": len(common)})]


def _together(
    pair: tuple[int, int],
    shared: list[Match],
    accounts: Mapping[int, Account],
    limits: Thresholds,
) -> Iterable[Flag]:
    a, b = (accounts.get(p, Account()).created_at for p in pair)
    if a is None or b is None or abs(a - b) > limits.together:
        return []
    minutes = int(abs(a - b).total_seconds() // 60)
    return [Flag("together", pair, [m.id for m in shared], {"minutes": minutes})]
