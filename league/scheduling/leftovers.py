"""What to do with players who do not fill a table: byes or bot seats.

Byes go to whoever has had the fewest, so nobody sits out twice while someone else has not
sat out at all. Bot seats are spread one per table where possible, because a table of one
human and two bots is no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from league.scheduling.errors import SchedulingError
from league.scheduling.records import PlayerRecord


def table_sizes(n_players: int, table_size: int, leftover: str) -> tuple[list[int], int]:
    """Humans per table and the number of byes for one round."""
    if leftover == "bye":
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
