"""What to do with players who do not fill a table: byes, bot seats, or tables of four.

Byes go to whoever has had the fewest, so nobody sits out twice while someone else has not
sat out at all. Bot seats are spread one per table where possible, because a table of one
human and two bots is no game. Tables of three and four ("mixed") seat n mod 3 tables of four
and the rest in threes, so from six players up nobody sits out; the seats at the fours go to
whoever has had the fewest fours (`choose_fours`), as byes do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from league.scheduling.errors import SchedulingError
from league.scheduling.records import PlayerRecord


def table_sizes(n_players: int, table_size: int, leftover: str) -> tuple[list[int], int]:
    """Humans per table (tables of four first) and the number of byes for one round."""
    if leftover == "mixed" and table_size == 3 and n_players >= 4:
        fours = n_players % 3
        if n_players == 5:  # one four and a bye: two fours would need eight
            return [4], 1
        return [4] * fours + [3] * (n_players // 3 - fours), 0
    if leftover in ("bye", "mixed"):
        tables = n_players // table_size
        if tables == 0:
            raise SchedulingError(
                f"{n_players} players cannot fill a table of {table_size}; use bot seats."
            )
        return [table_size] * tables, n_players - tables * table_size
    tables = -(-n_players // table_size)
    base, extra = divmod(n_players, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0


def choose_byes(
    players: Sequence[PlayerRecord], count: int, key: Callable[[PlayerRecord], Any]
) -> list[PlayerRecord]:
    """The `count` players with the fewest byes; among equals, the smallest `key` first.

    Swiss passes "lowest in the standings first", the league a seeded lottery.
    """
    if count <= 0:
        return []
    return sorted(players, key=lambda p: (p.byes, key(p)))[:count]


def choose_fours(
    players: Sequence[PlayerRecord], count: int, key: Callable[[PlayerRecord], Any]
) -> list[PlayerRecord]:
    """The `count` players who take the seats at the tables of four: the fewest fours so far,
    among equals the smallest `key` first (so nobody plays at a four twice while someone
    sitting this round has not played at one)."""
    if count <= 0:
        return []
    return sorted(players, key=lambda p: (p.fours, key(p)))[:count]
