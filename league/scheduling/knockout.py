"""Knockout: the best person of each table goes on, until one final table is left.

Any field reaches a final table of the game's size:

- Round 1 seats everyone; what does not fill a table sits out (byes, which go through) or,
  where the event allows them, plays with built-in bots.
- After every round, the field of the next is the table goers plus those who had a bye. If
  they do not fill tables of k, the best non-winners of the round just played fill them (the
  stated order: total payout in the event, then match points, then the event's draw); when
  k or fewer are left, the next round is the final, filled to k the same way. Nobody sits out
  after round 1 then, so nobody has a second bye while another has had none (if withdrawals
  leave too few non-winners, byes go to whoever has had the fewest, as everywhere).
- Who goes on from a table: the game's winners first, then the payout at the table, then the
  stated order: a tie at the table (a sheet of [20, 20, 20]) is broken by total payout, then
  match points, then the draw, and the decision says so (`TableCall`). Built-in bots never
  advance: a table a bot won sends its best person.
- An absent player (`TableResult.absent`: a no-show, or one who left) is out: the others at the
  table decide who goes on as above, and an absent player is never one of the best
  non-winners who fill the next round.

Seeding is by snake order (seed 1 to table 1, ..., seed T to table T, seed T+1 back to
table T, ...), so the strongest land on different tables; players who just met are then
separated by swapping within the same seeding tier, which keeps the tables balanced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from league.draws import lot_number
from league.scheduling.errors import SchedulingError
from league.scheduling.leftovers import table_sizes
from league.scheduling.records import (
    Advance,
    PairHistory,
    PlayerId,
    RoundOutcome,
    RoundPlan,
    Standing,
    TableCall,
    TableResult,
)
from league.scheduling.seating import SeatCounts, seat_round

# The order that ranks people at a table (the first two are the table's own result) and, from
# the third on, the stated order that ranks the best non-winners and the knockout standings.
TABLE_ORDER = ("won", "table_payout", "total_payouts", "match_points", "draw")
STATED_ORDER = TABLE_ORDER[2:]
_NOBODY = Standing()


def advancers(results: Sequence[Sequence[PlayerId]], per_table: int = 1) -> list[PlayerId]:
    """Who goes through, best seed first: every table winner, then every runner-up, ...

    `results` holds each table's finishing order, best first, tables in the order they were
    seeded (table 1 first), so winners keep the seed order of their tables.
    """
    if per_table < 1:
        raise SchedulingError("At least one player per table must advance.")
    seeds: list[PlayerId] = []
    for place in range(per_table):
        seeds += [table[place] for table in results if place < len(table)]
    if len(seeds) != len(set(seeds)):
        raise SchedulingError("A player appears at two tables of the same round.")
    return seeds


def is_final(n_players: int, table_size: int) -> bool:
    """One table is left: its winner wins the event."""
    return n_players <= table_size


def next_field_size(going_on: int, table_size: int) -> int:
    """How many play the next round when `going_on` go through: k for the final, else the
    next multiple of k (the best non-winners fill the rest)."""
    if going_on <= table_size:
        return table_size
    return -(-going_on // table_size) * table_size


def field_sizes(n_players: int, table_size: int, leftover: str) -> list[int]:
    """The number of players of every round, round 1 first, the final (k) last."""
    sizes = [n_players]
    n = n_players
    while not is_final(n, table_size):
        tables, n_byes = table_sizes(n, table_size, leftover)
        n = next_field_size(len(tables) + n_byes, table_size)
        sizes.append(n)
    return sizes


def rounds_needed(n_players: int, table_size: int, leftover: str) -> int:
    """The rounds a knockout of `n_players` takes to play its final."""
    return len(field_sizes(n_players, table_size, leftover))


def knockout_round(
    seeds: Sequence[PlayerId],
    table_size: int,
    history: PairHistory,
    leftover: str,
    seat_counts: SeatCounts | None = None,
    byes_had: Mapping[PlayerId, int] | None = None,
) -> RoundPlan:
    """Tables for the next knockout round from players in seed order (best first).

    With byes, the top seeds among those with the fewest byes sit out and go through; with
    bots the short tables go to the top seeds, who then have the fewest human opponents.
    """
    n = len(seeds)
    counts: SeatCounts = seat_counts if seat_counts is not None else {}
    if is_final(n, table_size):
        table = [*seeds, *([None] * (table_size - n))]
        return RoundPlan(seat_round([table], counts, table_size))
    sizes, n_byes = table_sizes(n, table_size, leftover)
    had = byes_had or {}
    rank = {p: i for i, p in enumerate(seeds)}
    bye_set = set(sorted(seeds, key=lambda p: (had.get(p, 0), rank[p]))[:n_byes])
    byes = [p for p in seeds if p in bye_set]
    field = [p for p in seeds if p not in bye_set]
    groups = snake(field, sorted(sizes))
    _separate_rematches(groups, history)
    padded = [g + [None] * (table_size - len(g)) for g in groups]
    return RoundPlan(seat_round(padded, counts, table_size), tuple(byes))


def snake(order: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Deal players in snake order onto tables with the given capacities."""
    groups: list[list[PlayerId]] = [[] for _ in sizes]
    forward = True
    i = 0
    while i < len(order):
        indices = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in indices:
            if i < len(order) and len(groups[t]) < sizes[t]:
                groups[t].append(order[i])
                i += 1
        forward = not forward
    return groups


def _separate_rematches(groups: list[list[PlayerId]], history: PairHistory) -> None:
    def clashes(g: list[PlayerId]) -> int:
        return sum(history.count(a, b) for i, a in enumerate(g) for b in g[i + 1 :])

    for g in groups:
        for tier in range(len(g)):
            if not clashes(g):
                break
            for h in groups:
                if h is g or tier >= len(h):
                    continue
                before = clashes(g) + clashes(h)
                g[tier], h[tier] = h[tier], g[tier]
                if clashes(g) + clashes(h) < before:
                    break
                g[tier], h[tier] = h[tier], g[tier]


# --- who goes on --------------------------------------------------------------------------


def stated_key(player: PlayerId, standing: Mapping[PlayerId, Standing], seed: int) -> tuple:
    """The stated order as a key, higher first: total payout, match points, the draw."""
    s = standing.get(player, _NOBODY)
    return (s.total_payouts, s.match_points, lot_number(seed, player))


def _first_difference(a: tuple, b: tuple, names: Sequence[str]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), len(names) - 1)


def table_call(number: int, table: TableResult, outcome: RoundOutcome) -> TableCall:
    """Who goes on from one table (`number`, 1-based) and which criterion decided it."""
    active, standing, seed = outcome.active, outcome.standing, outcome.seed
    keys = {
        p: (seat in table.winners, table.payouts[seat], *stated_key(p, standing, seed))
        for seat, p in enumerate(table.seats)
        if p is not None and seat not in table.absent and (active is None or p in active)
    }
    bot_won = any(table.seats[s] is None for s in table.winners)
    order = sorted(keys, key=keys.__getitem__, reverse=True)
    if not order:
        return TableCall(number, None, "", bot_won=bot_won)
    best = order[0]
    if len(order) == 1:
        return TableCall(number, best, "alone", bot_won=bot_won)
    index = _first_difference(keys[best], keys[order[1]], TABLE_ORDER)
    level: tuple[PlayerId, ...] = ()
    if index >= 2:  # the table left them level: a tie the stated order broke
        level = tuple(p for p in order if keys[p][:index] == keys[best][:index])
    return TableCall(number, best, TABLE_ORDER[index], level, bot_won)


def decide(outcome: RoundOutcome) -> Advance:
    """The next round's field after a knockout round, with the reasons (see the module)."""
    k = outcome.table_size or max((len(t.seats) for t in outcome.tables), default=3)
    active = outcome.active
    calls = tuple(table_call(i, t, outcome) for i, t in enumerate(outcome.tables, start=1))
    goers = [c.advancer for c in calls if c.advancer is not None]
    byes = tuple(p for p in outcome.byes if active is None or p in active)
    field = [*goers, *byes]
    going = set(field)
    pool = [
        p
        for t in outcome.tables
        for seat, p in enumerate(t.seats)
        if p is not None
        and seat not in t.absent
        and p not in going
        and (active is None or p in active)
    ]
    pool.sort(key=lambda p: stated_key(p, outcome.standing, outcome.seed), reverse=True)
    wanted = next_field_size(len(field), k) if field else 0
    take = max(0, min(wanted - len(field), len(pool)))
    filled = tuple(pool[:take])
    decided_by, next_out = "", None
    if 0 < take < len(pool):
        next_out = pool[take]
        a = stated_key(filled[-1], outcome.standing, outcome.seed)
        b = stated_key(next_out, outcome.standing, outcome.seed)
        decided_by = STATED_ORDER[_first_difference(a, b, STATED_ORDER)]
    players = (*field, *filled)
    return Advance(
        players=players,
        calls=calls,
        byes=byes,
        filled=filled,
        fill_decided_by=decided_by,
        next_out=next_out,
        final=is_final(len(players), k),
    )
