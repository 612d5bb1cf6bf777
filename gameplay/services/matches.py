"""A table's match: dealt from its seed, replayed from its log, or loaded from where it is kept.

The log is the truth; the `state` column is the engine state at the row's `seq`, and the
process cache (`cache.py`) holds live matches over it. `rebuild_match` is what a restarted
server falls back to.
"""

from __future__ import annotations

from typing import Any

from gameplay.models import Action, Table
from gameplay.runtime import cache
from gameplay.services.errors import TableError
from games import Match, registry


def get_table(table_id: str) -> Table:
    """The table row without its two big columns; an unknown id is `forbidden`."""
    try:
        return Table.objects.defer("state", "record").get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("forbidden", "no such table") from None


def new_match(table: Table) -> Match:
    """The match of a table before any action: dealt from its seed. A table that never dealt
    (a lobby table waiting for players, or cancelled so) has no match: `forbidden`."""
    if table.status in (Table.Status.WAITING, Table.Status.CANCELLED):
        raise TableError("forbidden", "the table has not been dealt")
    players = [s.name for s in cache.seats_of(table.id, table.seats_rev)]
    return registry.start_match(
        table.game,
        dealer=table.dealer,
        variant=table.variant,
        n_deals=table.n_deals,
        seed=table.seed,
        deals=table.deals,
        players=players,
        seats=len(players),  # a three-player game at a table of four (games/core/four.py)
    )


def rebuild_match(table: Table, upto: int | None = None) -> Match:
    """The match after the first `upto` actions (all when None), replayed from the log alone."""
    match = new_match(table)
    actions = Action.objects.filter(table_id=table.id).order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    for seat, action in actions.values_list("seat", "action"):
        match.apply(seat, action)
    return match


def load_match(table: Table, *, take: bool = False) -> Match:
    """The match at `table.seq`: from the process cache, the state column, or the log.

    `take`: the writer's copy, taken out of the cache (it goes back after commit); otherwise a
    copy the caller may not change the cache through.
    """
    match = cache.take(table.id, table.seq) if take else cache.peek(table.id, table.seq)
    if match is not None:
        return match
    row = Table.objects.filter(pk=table.id).values_list("seq", "state").first()
    if row is not None and row[0] == table.seq and row[1] is not None:
        match = registry.load_match(row[1])
        if not take:
            # The row and the state agree on seq, so the writers can start from here. Only a
            # claim moves a row on from seq N (and a forfeit, which the claim checks), and
            # `cache.put` never replaces a later seq.
            cache.put(table.id, table.seq, match.clone(), cache.Snapshot.of(table))
        return match
    # The cached state belongs to a later seq (or is missing): the log up to seq is immutable.
    return rebuild_match(table, table.seq)


def table_record(table_id: str) -> dict[str, Any]:
    """The table's game record (`mediana.record/1`), finished or not."""
    table = Table.objects.get(pk=table_id)
    if table.record is not None:
        return table.record
    return load_match(table).export()
